#!/usr/bin/env bash
# screenshots.sh — capture the monitor in a real terminal and render PNGs for the README and docs/.
#
# For each source (the real host, and the deterministic synthetic source) and each size (80×24
# for the host, 120×40, 200×60) it starts the monitor in a private tmux server, waits for the
# first samples, drives a few keys so the picture shows something worth seeing, and captures the
# screen twice:
#
#   screenshots/<source>-<W>x<H>.ansi   with colours (tmux capture-pane -e -p)
#   screenshots/<source>-<W>x<H>.txt    plain text
#   screenshots/<source>-<W>x<H>.png    drawn by internal/cmd/termshot as a terminal draws it:
#                                       the text in DejaVu Sans Mono, block elements and box
#                                       lines as shapes that fill exactly their cell
#
# Sources: `dcimon` on this host and `dcimon --source synthetic:...`.
#
# Usage: scripts/screenshots.sh            (from anywhere in the repository)
#   SETTLE=3                  seconds to let the monitor collect before capturing
#   ONLY='fleet-*'            regenerate only the screenshots whose names match the glob
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/screenshots"
settle=${SETTLE:-3}
work=$(mktemp -d)
sock="dcimon-shots-$$"
pcp_pids=()
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	for p in "${pcp_pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$out"
cd "$root"

need=()
command -v tmux >/dev/null || need+=(tmux)
# termshot draws the text in DejaVu Sans Mono (and DejaVu Sans for the symbols it lacks).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null ||
		echo "screenshots: could not install ${need[*]}" >&2
fi
command -v tmux >/dev/null || { echo "screenshots: tmux is required" >&2; exit 1; }

# --- the program ---------------------------------------------------------------------------
go build -o "$work/dcimon" .

# --- the renderer -------------------------------------------------------------------------
# The PNGs were once drawn by charmbracelet/freeze, whose font glyphs for █ and the eighth blocks
# are taller than a row: the bars of adjacent rows overlapped as L-shaped blocks. termshot draws
# those as a terminal does, each in its own cell.
go build -o "$work/termshot" ./internal/cmd/termshot

# --- capturing -----------------------------------------------------------------------------
# shot NAME W H KEYS... — run the program in a W×H terminal, press KEYS, capture. A key is a
# tmux key name (Enter, Tab, Down), "=text" for text typed as it is (":Disk", "2"), or "sleep:S"
# to wait S seconds (while a remote name space is read a level at a time).
# wanted NAME — whether ONLY (a glob; unset: every one) asks for the screenshot NAME.
wanted() {
	# shellcheck disable=SC2053 # ONLY is a glob
	[[ -z ${ONLY:-} || $1 == $ONLY ]]
}
shot() {
	local name=$1 w=$2 h=$3
	shift 3
	wanted "$name" || return 0
	tmux -L "$sock" new-session -d -s "$name" -x "$w" -y "$h" \
		"env TERM=xterm-256color COLORTERM=truecolor ${prog[*]}"
	sleep "$settle"
	for k in "$@"; do
		case $k in
		sleep:*)
			sleep "${k#sleep:}"
			continue
			;;
		=*) tmux -L "$sock" send-keys -t "$name" -l "${k#=}" ;;
		*) tmux -L "$sock" send-keys -t "$name" "$k" ;;
		esac
		sleep 0.3
	done
	sleep 1.2 # one more sample, so rates and sparklines have moved
	tmux -L "$sock" capture-pane -e -p -t "$name" >"$out/$name.ansi"
	tmux -L "$sock" capture-pane -p -t "$name" >"$out/$name.txt"
	tmux -L "$sock" send-keys -t "$name" q
	sleep 0.3
	tmux -L "$sock" kill-session -t "$name" 2>/dev/null || true
	"$work/termshot" -cols "$w" -rows "$h" -o "$out/$name.png" "$out/$name.ansi"
	chmod 644 "$out/$name.png"
	echo "screenshots: $out/$name.png"
}

# Scenes: the host as it opens (the overview), its processors as mpstat prints them, its
# processes as top prints them, then its disks (`:Disk` goes to the context, `2` focuses the values); the synthetic source's overview,
# its disks ranked by %util (`s` steps the sort column to it), and a disk's statistics with their
# sparklines, bars and inspector.
prog=("$work/dcimon")
# The README's first picture: this host's overview as it opens, with one processor kept busy by
# a copy from /dev/zero to /dev/null (stopped by its PID), so that its bars have something to show.
# (Only when wanted: a background subshell killed before it runs dd would run the EXIT trap.)
if wanted host-overview-120x40; then
	dd if=/dev/zero of=/dev/null bs=64k 2>/dev/null &
	busy=$!
	shot host-overview-120x40 120 40
	kill "$busy" 2>/dev/null || true
	wait "$busy" 2>/dev/null || true
fi
shot host-80x24 80 24
shot host-120x40 120 40 "=:CPU" Enter "=2"
shot host-200x60 200 60 "=:Disk" Enter "=2"
# The processes as top shows them (P), with the top-processes hotsets open beside them.
shot host-procs-120x40 120 40 "=P"
# Users' statistics: the example file and program under DDS/example, the spool directories'
# files as a table, one selected in the inspector.
prog=("$work/dcimon" --suppliers "$root/examples/suppliers.d")
shot host-dds-120x40 120 40 "=:DDS/example/spool_files" Enter "=2" Down
prog=("$work/dcimon" --source "synthetic:disks=8,nics=3,cpus=8,seed=1")
shot synthetic-overview-80x24 80 24
shot synthetic-overview-120x40 120 40
shot synthetic-120x40 120 40 "=:Disk" Enter "=2ssssssss"
shot synthetic-200x60 200 60 "=:Disk/sdb" Enter "=2" Down Down Down Down "=1"

# A replay (issue 15): this host recorded as a PCP archive for 30 s while a file is written to
# its disk, then the monitor on the recording, its time cursor moved on a dozen samples.
if wanted replay-80x24 || wanted replay-120x40; then
	"$work/dcimon" record "$work/rec" -i 1s --duration 30s 2>/dev/null &
	rec=$!
	sleep 6
	dd if=/dev/zero of="$work/load" bs=1M count=400 oflag=direct 2>/dev/null || true
	rm -f "$work/load"
	wait "$rec"
	prog=("$work/dcimon" --archive "$work/rec")
	shot replay-80x24 80 24 "=............"
	shot replay-120x40 120 40 "=............"
fi

# A fleet through Performance Co-Pilot (issues 14, 31): two pmcds and a pmproxy, started here in
# the foreground on free loopback ports and killed by PID (never the init scripts), and a third
# host that is not there; the overview ranks the hosts' disks, interfaces and processors together,
# and their processes.
if [ -x /usr/lib/pcp/bin/pmproxy ] && [ "$(id -u)" = 0 ]; then
	mkdir -p /run/pcp "$work/pcp"
	[ -f /var/lib/pcp/pmns/root ] || (cd /var/lib/pcp/pmns && ./Rebuild -u)
	printf '[pmproxy]\npcp.enabled = true\nhttp.enabled = true\nredis.enabled = false\n[redis]\nenabled = false\n[discover]\nenabled = false\n[pmseries]\nenabled = false\n[pmsearch]\nenabled = false\n' >"$work/pcp/pmproxy.conf"
	free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
	web=$(free_port) db=$(free_port) proxy=$(free_port)
	(cd /run/pcp && set +u && . /etc/pcp.env &&
		exec /usr/lib/pcp/bin/pmcd -f -A -i 127.0.0.1 -p "$web" -s "$work/pcp/web.socket" -l "$work/pcp/web.log") &
	pcp_pids+=($!)
	(cd /run/pcp && set +u && . /etc/pcp.env &&
		exec /usr/lib/pcp/bin/pmcd -f -A -i 127.0.0.1 -p "$db" -s "$work/pcp/db.socket" -l "$work/pcp/db.log") &
	pcp_pids+=($!)
	(cd /run/pcp && set +u && . /etc/pcp.env &&
		exec /usr/lib/pcp/bin/pmproxy -f -A -i 127.0.0.1 -p "$proxy" -s "$work/pcp/proxy.socket" -c "$work/pcp/pmproxy.conf" -l "$work/pcp/proxy.log") &
	pcp_pids+=($!)
	for _ in $(seq 100); do
		curl -sf "http://127.0.0.1:$proxy/pmapi/context?hostspec=127.0.0.1:$db" >/dev/null 2>&1 && break
		sleep 0.1
	done
	# Each pmcd on a connection of its own (issue 31); db's relayed by the pmproxy, as a
	# gateway would.
	# web is read over its pmcd's Unix socket, where its proc PMDA serves every process (issue 40):
	# the overview's fleet process block has web's; db's over TCP says why it has none.
	prog=("$work/dcimon" --hosts "web=unix:$work/pcp/web.socket,db=127.0.0.1:$db@127.0.0.1:$proxy,gone=127.0.0.1:$(free_port)")
	shot fleet-120x40 120 40
	# One host's whole PCP name space: `:` goes down it as it is read, a level a reading.
	shot fleet-pcp-120x40 120 40 "=:/db/PCP/kernel/all" Enter "sleep:4" "=2"
else
	echo "screenshots: PCP is not installed (or not root): no fleet screenshot" >&2
fi
