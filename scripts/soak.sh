#!/usr/bin/env bash
# The soak (issue 41 item 10): does dcimon leak over a long run? Two monitors run in tmux at
# -i 100ms (ten hours of 1 s ticks in an hour), each recording, every 10 s, its live Go heap,
# heap in use, goroutines and open descriptors (DCIMON_STATS, stats.go), and the script reads its
# resident size from /proc every minute:
#
#   local  the monitor on this host with --show-loop, --suppliers of a directory whose file is
#          rewritten every second with label sets that come and go and whose program runs at
#          every collection, while the host churns: short-lived processes (about 40 a second),
#          a tmpfs mounted and unmounted, a loop device attached and detached, a dummy network
#          interface added and removed and a control group made and removed (each where this
#          host allows it: root, the dummy module, a writable cgroup tree);
#   fleet  the monitor on 8 hosts of a fake pmcd (collect/pcp's TestFleetPMCDServe) that, each
#          minute, is killed and started again (connections dropped, hosts gone a few seconds)
#          and then stopped with SIGSTOP for 15 s (a hung pmcd), and continued.
#
# Each minute the status bar's time of the last sample must have moved (a monitor that stopped
# reading or drawing is STALLED). Budget: from minute 5 to the end, resident size and live heap grow by at most 5%, goroutines
# and descriptors not at all (each minute's floor of the heap and goroutines, its median
# descriptors: a collection in flight or a host reconnecting comes and goes within a minute). The script prints the figures a minute a line and the verdict.
#
#   scripts/soak.sh [MINUTES]       (default 30; at least 6, since the budget starts at minute 5)
#
# It is not run in CI. Needs Linux, tmux and Go; root for the mounts, loop devices, interfaces
# and control groups (without root they are left out, and the run says so). Stops only the tmux
# sessions and processes it started.
set -euo pipefail
cd "$(dirname "$0")/.."

mins=${1:-30}
[ "$mins" -ge 6 ] || { echo "soak: at least 6 minutes (the budget is from minute 5 on)" >&2; exit 2; }
command -v tmux >/dev/null || { echo "soak: needs tmux" >&2; exit 2; }

work=$(mktemp -d)
sessions=()
pids=()
mnt="$work/mnt"
pmcd_pid=""
cg=""
cleanup() {
  set +e
  for s in "${sessions[@]}"; do tmux kill-session -t "$s" 2>/dev/null; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -n "$pmcd_pid" ] && { kill -CONT "$pmcd_pid"; kill "$pmcd_pid"; } 2>/dev/null
  mountpoint -q "$mnt" 2>/dev/null && umount "$mnt"
  [ -f "$work/disk.img" ] && losetup -j "$work/disk.img" 2>/dev/null | cut -d: -f1 | xargs -r -n1 losetup -d 2>/dev/null
  ip link del soak0 2>/dev/null
  [ -n "$cg" ] && rmdir "$cg" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/dcimon" .
go test -c -o "$work/pcp.test" ./collect/pcp

# Users' suppliers: a file rewritten every second, its label sets coming and going, and a program.
sup="$work/suppliers.d"
mkdir -p "$sup"
chmod 755 "$work" "$sup"
cat >"$sup/churn" <<'EOF'
#!/bin/sh
echo "# TYPE soak_runs counter"
echo "soak_runs $(date +%s)"
EOF
chmod 755 "$sup/churn"
(
  i=0
  while :; do
    {
      echo "# TYPE soak_queue gauge"
      for q in $(seq $((i % 50)) $((i % 50 + 20))); do echo "soak_queue{q=\"q$q\"} $i"; done
    } >"$sup/.soak.tmp" && mv "$sup/.soak.tmp" "$sup/soak.prom"
    i=$((i + 1))
    sleep 1
  done
) &
pids+=($!)

# Short-lived processes.
(
  while :; do
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do /bin/true & done
    wait
    sleep 0.5
  done
) &
pids+=($!)

# Mounts, disks, interfaces, control groups, as this host allows.
root=no
[ "$(id -u)" = 0 ] && root=yes
churned=()
if [ "$root" = yes ]; then
  mkdir -p "$mnt"
  truncate -s 8M "$work/disk.img"
  cgroot=/sys/fs/cgroup
  [ -w "$cgroot" ] && cg="$cgroot/dcimon-soak"
  (
    n=0
    while :; do
      mount -t tmpfs -o size=1m soak "$mnt" 2>/dev/null && sleep 2 && umount "$mnt" 2>/dev/null
      if [ $((n % 6)) = 0 ]; then
        d=$(losetup -f --show "$work/disk.img" 2>/dev/null) && sleep 3 && losetup -d "$d" 2>/dev/null
        ip link add soak0 type dummy 2>/dev/null && sleep 3 && ip link del soak0 2>/dev/null
      fi
      [ -n "$cg" ] && mkdir "$cg" 2>/dev/null && sleep 1 && rmdir "$cg" 2>/dev/null
      n=$((n + 1))
      sleep 2
    done
  ) &
  pids+=($!)
  churned+=("tmpfs mounts" "loop devices")
  ip link add soak0 type dummy 2>/dev/null && { ip link del soak0; churned+=("dummy interfaces"); }
  [ -n "$cg" ] && churned+=("control groups")
fi

# The fake pmcd, on one address for its whole life: restarted, hung and continued each minute.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
addr="127.0.0.1:$port"
start_pmcd() {
  DCIMON_FLEET_PMCD=2,2,2 DCIMON_FLEET_PMCD_ADDR="$addr" "$work/pcp.test" -test.run '^TestFleetPMCDServe$' >"$work/pmcd.out" 2>&1 &
  pmcd_pid=$!
  for ((k = 0; k < 100; k++)); do grep -q FLEETPMCD "$work/pmcd.out" 2>/dev/null && return; sleep 0.05; done
  echo "soak: the fake pmcd did not start: $(cat "$work/pmcd.out")" >&2
  exit 1
}
start_pmcd
for k in 0 1 2 3 4 5 6 7; do echo "host$k=$addr"; done >"$work/hosts.txt"

start_monitor() { # NAME ARGS...
  local name=$1
  shift
  local s="soak-$name-$$" # in sessions already: this runs in a subshell, $(...)
  tmux new-session -d -s "$s" -x 200 -y 50 \
    "DCIMON_STATS='$work/$name.stats' HOME='$work' exec '$work/dcimon' -i 100ms $*"
  local pid=""
  for ((k = 0; k < 100 && ${#pid} == 0; k++)); do
    sleep 0.05
    pid=$(tmux list-panes -t "$s" -F '#{pane_pid}')
  done
  echo "$pid"
}
sessions+=("soak-local-$$" "soak-fleet-$$")
local_pid=$(start_monitor local --show-loop --suppliers "$sup")
fleet_pid=$(start_monitor fleet --hosts "@$work/hosts.txt")

echo "soak: $mins minutes at -i 100ms; local monitor $local_pid (churning: processes, suppliers${churned[*]:+, ${churned[*]}}), fleet monitor $fleet_pid (8 hosts of a fake pmcd restarted and hung each minute)"
[ "$root" = yes ] || echo "soak: not root: no mounts, loop devices, interfaces or control groups churn"

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# minute_stats MON FIELD min|median: the least, or the median, of FIELD over the last minute's
# lines (six, one every 10 s). A leak raises the floor of the heap and the goroutines (a
# collection in flight is not one: it comes and goes within the minute); descriptors are taken
# at their median, since a file read or a program's pipes at the moment of one line, or a host
# reconnecting at another, come and go too.
minute_stats() {
  tail -n 6 "$work/$1.stats" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" |
    sort -n | { if [ "$3" = min ]; then head -n 1; else sed -n 3p; fi; }
}

echo "each minute: RSS at its end; the least live heap, heap objects and goroutines, and the median descriptors, of its six readings"
printf '%-6s %-6s %10s %12s %12s %10s %5s\n' minute mon "RSS KiB" "live heap" "heap objs" goroutines fds
declare -A at5 lastshown
for ((m = 1; m <= mins; m++)); do
  # A minute of churn; at its half the fake pmcd is restarted, then hung for 15 s.
  sleep 30
  kill "$pmcd_pid" 2>/dev/null || true
  wait "$pmcd_pid" 2>/dev/null || true
  pmcd_pid=""
  sleep 3
  start_pmcd
  sleep 5
  kill -STOP "$pmcd_pid"
  sleep 15
  kill -CONT "$pmcd_pid"
  sleep 7
  for mon in local fleet; do
    pid=${local_pid}
    [ "$mon" = fleet ] && pid=$fleet_pid
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "soak: the $mon monitor ended at minute $m" >&2
      exit 1
    fi
    # A monitor that stopped reading (or drawing) is the worst leak of all: its status bar's
    # time of the last sample must have moved since the last minute.
    shown=$(tmux capture-pane -p -t "soak-$mon-$$" | grep -o 'sample [0-9:]*' | head -n 1)
    if [ -z "$shown" ] || [ "$shown" = "${lastshown[$mon]:-}" ]; then
      echo "$mon: STALLED at minute $m: the status bar still says '${shown:-nothing}'; its goroutines in /tmp/dcimon-soak-$mon-$$.goroutines" >>"$work/verdict"
      kill -USR1 "$pid" && sleep 1 && cp "$work/$mon.stats.goroutines" "/tmp/dcimon-soak-$mon-$$.goroutines" 2>/dev/null || true
    fi
    lastshown[$mon]=$shown
    rss=$(rss_kib "$pid")
    live=$(minute_stats "$mon" live_heap min)
    objs=$(minute_stats "$mon" heap_objects min)
    gor=$(minute_stats "$mon" goroutines min)
    fds=$(minute_stats "$mon" fds median)
    printf '%-6s %-6s %10s %12s %12s %10s %5s\n' "$m" "$mon" "$rss" "$live" "$objs" "$gor" "$fds"
    if [ "$m" = 5 ]; then
      at5[$mon]="$rss $live $gor $fds"
    fi
    if [ "$m" = "$mins" ]; then
      end[0]=$rss end[1]=$live end[2]=$gor end[3]=$fds
      read -r r5 l5 g5 f5 <<<"${at5[$mon]}"
      awk -v mon="$mon" -v r5="$r5" -v r="${end[0]}" -v l5="$l5" -v l="${end[1]}" -v g5="$g5" -v g="${end[2]}" -v f5="$f5" -v f="${end[3]}" 'BEGIN {
        rg = (r - r5) / r5 * 100; lg = (l - l5) / l5 * 100
        ok = rg <= 5 && lg <= 5 && g <= g5 && f <= f5
        printf "%s: from minute 5 to the end: RSS %+.1f%%, live heap %+.1f%%, goroutines %+d, fds %+d: %s\n",
          mon, rg, lg, g - g5, f - f5, ok ? "within budget" : "OVER BUDGET"
      }' >>"$work/verdict"
    fi
  done
done
cat "$work/verdict"
! grep -q "OVER BUDGET\|STALLED" "$work/verdict"
