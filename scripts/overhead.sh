#!/usr/bin/env bash
# Measure what watching costs: run dcimon and htop (and btop when installed) side by side, at the
# same time, each in its own tmux session at the same size (200x50) and the same 1-second refresh
# for a fixed time, read each process's CPU time and resident memory from /proc/PID over the same
# seconds, and print a table with dcimon's figures as ratios to htop's from the same run. Run at
# once, the programs see the same machine: the same load from elsewhere, the same processes
# (issue 30: one after the other, a busy neighbour in one run and not the other skewed the ratio).
#
#   scripts/overhead.sh [SECONDS]        (default 60)
#   scripts/overhead.sh SECONDS fleet    (only the many-hosts comparison below)
#   scripts/overhead.sh SECONDS record   (only the recording comparison below)
#   scripts/overhead.sh SECONDS overview (only the default screen beside htop, and the first frame)
#
# OVERHEAD_COLS and OVERHEAD_ROWS set the terminal's size (200 and 50 by default).
# OVERHEAD_FLEET_HOSTS=N sets the fleet's size (100 by default; issue 38 measures 1,000 and
# 10,000): the fake pmcd is one process, every host a connection of its own to it, so the
# monitor and the fake each need a file descriptor a host (the script raises ulimit -n to the
# hard limit, and says so when that is too low). Past 1,000 hosts the pmproxy row is left out.
# DCIMON_BASE=BINARY adds another build of dcimon (an older commit's, built beforehand) beside
# the default screen and the first frame, and beside the recorder (record), as "base": the two
# builds measured in the same seconds; in fleet mode, beside the native row (baseN), on the same
# fake pmcd.
#
# Then the same again with the process table on screen (dcimon opens on Proc, htop shows its
# processes as always) and 1,000 extra sleeping processes started by the script (issue 17).
#
# Last, many hosts (issue 14): the monitor on 100 hosts through one pmproxy, a fake one (the
# collect package's test binary serving TestFleetProxyServe: 8 processors, 16 disks and 4
# interfaces a host), beside the monitor on this host, both at a 1 s refresh.
#
# Recording (issue 15): dcimon record at 1 s beside pmlogger at 1 s with a pmcd of its own (on a
# free port, started and killed here), both running at the same time, logging the same PCP
# metrics (those a short dcimon recording has under the Linux PMDA's names); CPU of dcimon
# against pmlogger + pmcd + its PMDAs, and archive growth in bytes per day.
#
# Installs tmux and htop with apt-get when they are missing. Stops only the tmux sessions it
# started. Needs Linux /proc.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
warm=3
cols=${OVERHEAD_COLS:-200}
rows=${OVERHEAD_ROWS:-50}
hz=$(getconf CLK_TCK)
page=$(getconf PAGESIZE)

need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v htop >/dev/null 2>&1 || need+=(htop)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

work=$(mktemp -d)
sessions=()
cleanup() {
  for s in "${sessions[@]}"; do tmux kill-session -t "$s" 2>/dev/null || true; done
  rm -rf "$work"
}
sleepers=()
trap 'cleanup; for p in "${sleepers[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

go build -o "$work/dcimon" .

# btop reads its refresh period from its config file: give it one of its own.
mkdir -p "$work/config/btop"
printf 'update_ms = 1000\n' >"$work/config/btop/btop.conf"

# cpu_ns PID: CPU time in nanoseconds, summed over the process's threads from
# /proc/PID/task/*/schedstat (first field: time on a CPU). /proc/PID/stat counts in clock ticks
# (10 ms), too coarse for a program that uses a few milliseconds a second; without schedstat
# (a kernel built without it) the ticks are used.
cpu_ns() {
  if [ -r "/proc/$1/schedstat" ]; then
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'
  else
    awk -v hz="$hz" '{ sub(/.*\) /, ""); printf "%d\n", ($12 + $13) * 1e9 / hz }' "/proc/$1/stat"
  fi
}
# rss_kb PID: resident set size in KiB (statm field 2 × page size).
rss_kb() { awk -v p="$page" '{ print $2 * p / 1024 }' "/proc/$1/statm"; }
# hwm_kb PID: peak resident set size in KiB.
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

# measure NAME COMMAND [NAME COMMAND ...]: runs every program at once, each in a tmux session of
# its own at the same size, and prints for each, over the same seconds after the same warm-up,
# "NAME cpu_seconds cpu_percent rss_mib peak_mib" (one line a program, in the order given).
# COMMAND is one string, as a shell reads it.
measure() {
  local names=() pids=() s
  while [ $# -gt 0 ]; do
    s="overhead-$1-$$"
    sessions+=("$s")
    # The program gets the script's file descriptor limit, not that of a tmux server started
    # before it (a fleet of thousands needs one a host).
    tmux new-session -d -s "$s" -x "$cols" -y "$rows" \
      "ulimit -n $(ulimit -n) 2>/dev/null; exec env TERM=xterm-256color XDG_CONFIG_HOME=$work/config HOME=$work $2"
    names+=("$1")
    pids+=("$(tmux list-panes -t "$s" -F '#{pane_pid}')")
    shift 2
  done
  sleep "$warm"
  local i k r c0=() c1=() peak=() t0 t1
  for i in "${!pids[@]}"; do
    [ -d "/proc/${pids[$i]}" ] || { echo "${names[$i]} exited during warm-up" >&2; return 1; }
  done
  for i in "${!pids[@]}"; do c0+=("$(cpu_ns "${pids[$i]}")"); peak+=(0); done
  t0=$(date +%s.%N)
  for ((k = 0; k < secs; k++)); do
    sleep 1
    for i in "${!pids[@]}"; do
      r=$(rss_kb "${pids[$i]}"); (( ${r%.*} > peak[i] )) && peak[i]=${r%.*}
    done
  done
  for i in "${!pids[@]}"; do c1+=("$(cpu_ns "${pids[$i]}")"); done
  t1=$(date +%s.%N)
  for i in "${!pids[@]}"; do
    r=$(rss_kb "${pids[$i]}")
    tmux kill-session -t "overhead-${names[$i]}-$$"
    awk -v n="${names[$i]}" -v c0="${c0[$i]}" -v c1="${c1[$i]}" -v t0="$t0" -v t1="$t1" -v r="$r" -v p="${peak[$i]}" \
      'BEGIN { cpu = (c1 - c0) / 1e9; printf "%s %.4f %.3f %.1f %.1f\n", n, cpu, 100 * cpu / (t1 - t0), r / 1024, p / 1024 }'
  done
}

# shown_after SESSION T0: polls the session's screen every 2 ms (for at most 5 s) until it shows
# "sample HH:", stops the session and prints the milliseconds since T0 (date +%s%N).
shown_after() {
  local t1
  until tmux capture-pane -p -t "$1" 2>/dev/null | grep -q 'sample [0-9][0-9]:'; do
    (( $(date +%s%N) - $2 > 5000000000 )) && break
    sleep 0.002
  done
  t1=$(date +%s%N)
  tmux kill-session -t "$1"
  echo $(( (t1 - $2) / 1000000 ))
}

# first_frame [BINARY]: how soon the first frame showing collected data (the status bar's "sample
# HH:MM:SS") is on the screen, median of 5 starts, two ways: as tmux shows it, polling the pane
# every 2 ms from just before tmux is asked to start the program (so it includes tmux's own
# start-up), and as dcimon's debug log records it (from the start of package main to the write
# of that frame to the terminal). The tmux figure comes with tmux's own share: the same wait for a
# shell that prints the text at once. Prints "TMUX_MS SELF_MS TMUX_BASELINE_MS".
first_frame() {
  local bin=${1:-$work/dcimon}
  local outer=() inner=() base=()
  for ((k = 0; k < 5; k++)); do
    local s="overhead-first-$$-$k"
    sessions+=("$s")
    local t0
    rm -f "$work/first.log"
    t0=$(date +%s%N)
    tmux new-session -d -s "$s" -x "$cols" -y "$rows" \
      "exec env TERM=xterm-256color $bin --interval 1s --debug $work/first.log"
    outer+=("$(shown_after "$s" "$t0")")
    # The same wait for a program that prints the text at once: tmux's share of the figure.
    s="overhead-base-$$-$k"
    sessions+=("$s")
    t0=$(date +%s%N)
    tmux new-session -d -s "$s" -x "$cols" -y "$rows" "exec sh -c 'echo sample 00:00:00; exec sleep 10'"
    base+=("$(shown_after "$s" "$t0")")
    inner+=("$(sed -n 's/.*first frame with data on the terminal \([0-9.]*\) ms.*/\1/p' "$work/first.log")")
  done
  local med='sort -n | sed -n 3p'
  echo "$(printf '%s\n' "${outer[@]}" | eval "$med") $(printf '%s\n' "${inner[@]}" | eval "$med") $(printf '%s\n' "${base[@]}" | eval "$med")"
}

# start_fake NAME VAR TEST SED: runs collect.test's TEST with VAR=8,16,4 in the background, a fake
# NAME kept among the sleepers ($fake_pid), and waits up to 5 s for the address it announces: the
# line of its output the sed expression SED prints ($fake_addr).
start_fake() {
  local name=$1 var=$2 test=$3 expr=$4 out="$work/$1.out" k
  env "$var=8,16,4" "$work/collect.test" -test.run "^$test\$" >"$out" 2>&1 &
  fake_pid=$!
  sleepers+=("$fake_pid")
  fake_addr=""
  for ((k = 0; k < 100 && ${#fake_addr} == 0; k++)); do
    sleep 0.05
    fake_addr=$(sed -n "$expr" "$out")
  done
  [ -n "$fake_addr" ] || { echo "the fake $name did not start: $(cat "$out")" >&2; return 1; }
}

# fleet: the monitor on N hosts (OVERHEAD_FLEET_HOSTS, 100 by default) through the fake
# pmproxy and from a fake pmcd, beside the monitor on this host, all at once.
fleet() {
  local n=${OVERHEAD_FLEET_HOSTS:-100} k proxy="" url="" progs=()
  local fds=$(( (n + 64) * 2 ))
  if [ "$(ulimit -n)" != unlimited ] && (( $(ulimit -n) < fds )); then
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    if [ "$(ulimit -n)" != unlimited ] && (( $(ulimit -n) < fds )); then
      echo "$n hosts need about $fds file descriptors; ulimit -n allows $(ulimit -n)" >&2
      return 1
    fi
  fi
  go test -c -o "$work/collect.test" ./collect/pcp
  if (( n <= 1000 )); then
    start_fake pmproxy DCIMON_FLEET_PROXY TestFleetProxyServe 's/^FLEETPROXY http:/pcp:/p' || return 1
    proxy=$fake_pid url=$fake_addr
    for ((k = 0; k < n; k++)); do printf 'web%05d\n' "$k"; done >"$work/fleet.txt"
    progs+=("rest$n" "$work/dcimon --interval 1s --source $url --hosts @$work/fleet.txt")
  fi
  # The same fleet over PCP's own protocol: a fake pmcd, each host a connection of its own.
  start_fake pmcd DCIMON_FLEET_PMCD TestFleetPMCDServe 's/^FLEETPMCD //p' || return 1
  local pmcd=$fake_pid addr=$fake_addr
  for ((k = 0; k < n; k++)); do printf 'web%05d=%s\n' "$k" "$addr"; done >"$work/native.txt"
  progs+=("native$n" "$work/dcimon --interval 1s --hosts @$work/native.txt")
  if [ -n "${DCIMON_BASE:-}" ]; then
    progs+=("base$n" "$DCIMON_BASE --interval 1s --hosts @$work/native.txt")
  fi
  # A fleet of thousands takes a while to be dialled and declared: the warm-up grows with it.
  (( n > 1000 )) && warm=$(( n / 100 ))
  local out=()
  mapfile -t out < <(measure local "$work/dcimon --interval 1s" "${progs[@]}")
  [ -z "$proxy" ] || kill "$proxy" 2>/dev/null || true
  kill "$pmcd" 2>/dev/null || true
  echo
  echo "Many hosts over ${secs} s at ${cols}x${rows}, 1 s refresh ($(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end): the monitor on $n hosts (fake pmproxy: rest$n; fake pmcd: native$n) beside the monitor on this host"
  printf '%s\n' "${out[@]}" | awk '
    { name[NR] = $1; cpu[NR] = $2; pct[NR] = $3; rss[NR] = $4; peak[NR] = $5 }
    END {
      printf "%-9s %12s %8s %10s %10s %14s\n", "monitor", "CPU time s", "CPU %", "RSS MiB", "peak MiB", "CPU vs local"
      for (i = 1; i <= NR; i++)
        printf "%-9s %12.4f %8.3f %10.1f %10.1f %13.2fx\n", name[i], cpu[i], pct[i], rss[i], peak[i], cpu[i] / cpu[1]
    }'
}
# tree_cpu_ns PID: cpu_ns of PID and every process below it (pmcd, pmdaroot and the PMDAs
# pmdaroot starts, pmdalinux among them).
tree_cpu_ns() {
  local total
  total=$(cpu_ns "$1" 2>/dev/null || echo 0)
  for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    total=$(( total + $(tree_cpu_ns "$p") ))
  done
  echo "$total"
}
# bytes BASE: the archive's bytes on disk, every file of it.
bytes() { cat "$1".* 2>/dev/null | wc -c; }

# record: dcimon record and pmlogger (with its pmcd), the same metrics at 1 s.
record() {
  [ -x /usr/lib/pcp/bin/pmcd ] || { echo "PCP is not installed: apt-get install pcp (see ../shared/notes/pcp.md)" >&2; return 1; }
  local port=$(( 20000 + RANDOM % 20000 ))
  mkdir -p "$work/pcp"
  (cd /run/pcp 2>/dev/null || cd "$work/pcp"; set +u; . /etc/pcp.env
   exec /usr/lib/pcp/bin/pmcd -f -A -t 30 -i 127.0.0.1 -p "$port" -s "$work/pcp/pmcd.socket" -l "$work/pcp/pmcd.log") &
  local pmcd=$!
  sleepers+=("$pmcd")
  for ((k = 0; k < 100; k++)); do pmprobe -h "127.0.0.1:$port" hinv.ncpu >/dev/null 2>&1 && break; sleep 0.1; done
  # The metrics pmlogger is given: those a short recording of dcimon's names (under the Linux
  # PMDA's names). PCP's global derived metrics (/etc/pcp/derived) are left out: neither
  # recorder is asked for them.
  "$work/dcimon" record "$work/names-probe" -i 1s --duration 2s >/dev/null 2>&1
  PCP_DERIVED_CONFIG= pminfo -a "$work/names-probe" | grep -v '^dcimon\.' >"$work/names"
  { echo 'log mandatory on every 1 second {'; sed 's/^/  /' "$work/names"; echo '}'; } >"$work/pmlogger.conf"
  # Both recorders at once, over the same seconds.
  "$work/dcimon" record "$work/dc" -i 1s >"$work/dc.out" 2>&1 &
  local dc=$!
  sleepers+=("$dc")
  # DCIMON_BASE: the other build recording too, over the same seconds.
  local bs=""
  if [ -n "${DCIMON_BASE:-}" ]; then
    "$DCIMON_BASE" record "$work/bs" -i 1s >"$work/bs.out" 2>&1 &
    bs=$!
    sleepers+=("$bs")
  fi
  (set +u; . /etc/pcp.env; export PCP_DERIVED_CONFIG=; exec pmlogger -h "127.0.0.1:$port" -c "$work/pmlogger.conf" -l "$work/pmlogger.log" "$work/pl") &
  local pl=$!
  sleepers+=("$pl")
  sleep "$warm"
  local c0 b0 c1 b1 p0 q0 p1 q1 t0 t1 d0 e0 d1 e1
  c0=$(cpu_ns "$dc"); b0=$(bytes "$work/dc")
  [ -z "$bs" ] || { d0=$(cpu_ns "$bs"); e0=$(bytes "$work/bs"); }
  p0=$(( $(cpu_ns "$pl") + $(tree_cpu_ns "$pmcd") )); q0=$(bytes "$work/pl")
  t0=$(date +%s.%N)
  sleep "$secs"
  c1=$(cpu_ns "$dc"); b1=$(bytes "$work/dc")
  [ -z "$bs" ] || { d1=$(cpu_ns "$bs"); e1=$(bytes "$work/bs"); }
  p1=$(( $(cpu_ns "$pl") + $(tree_cpu_ns "$pmcd") )); q1=$(bytes "$work/pl")
  t1=$(date +%s.%N)
  kill -INT "$dc" "$pl" $bs
  wait "$dc" 2>/dev/null || true
  [ -z "$bs" ] || wait "$bs" 2>/dev/null || true
  wait "$pl" 2>/dev/null || true
  kill "$pmcd" 2>/dev/null || true
  local dcline="dcimon $(( c1 - c0 )) $(( b1 - b0 )) $t0 $t1 $(bytes "$work/dc")"
  local plline="pmlogger+pmcd $(( p1 - p0 )) $(( q1 - q0 )) $t0 $t1 $(bytes "$work/pl")"
  local bsline=""
  [ -z "$bs" ] || bsline="base $(( d1 - d0 )) $(( e1 - e0 )) $t0 $t1 $(bytes "$work/bs")"
  echo
  echo "Recording over ${secs} s at 1 s, both at once: dcimon record beside pmlogger with its pmcd (and PMDAs), $(wc -l <"$work/names") metrics of the Linux PMDA in both (dcimon also writes its own dcimon.* ones); load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  printf '%s\n%s\n%s' "$dcline" "$plline" "${bsline:+$bsline
}" | awk '
    { name[NR] = $1; cpu[NR] = $2 / 1e9; pct[NR] = 100 * $2 / 1e9 / ($5 - $4); day[NR] = $3 / ($5 - $4) * 86400 / 1048576; size[NR] = $6 / 1024 }
    END {
      printf "%-14s %12s %8s %14s %12s %10s %10s\n", "recorder", "CPU time s", "CPU %", "MiB a day", "archive KiB", "CPU vs PCP", "bytes vs PCP"
      for (i = 1; i <= NR; i++)
        printf "%-14s %12.4f %8.3f %14.1f %12.1f %9.2fx %11.2fx\n", name[i], cpu[i], pct[i], day[i], size[i], cpu[i] / cpu[2], day[i] / day[2]
    }'
}
if [ "${2:-}" = fleet ]; then
  fleet
  exit 0
fi
if [ "${2:-}" = record ]; then
  record
  exit 0
fi

table='
  { name[NR] = $1; cpu[NR] = $2; pct[NR] = $3; rss[NR] = $4; peak[NR] = $5; if ($1 == "htop") h = NR }
  END {
    printf "%-8s %12s %8s %10s %10s %12s %12s\n", "program", "CPU time s", "CPU %", "RSS MiB", "peak MiB", "CPU vs htop", "RSS vs htop"
    for (i = 1; i <= NR; i++) {
      cr = (h && cpu[h] > 0) ? sprintf("%.2fx", cpu[i] / cpu[h]) : "-"
      rr = (h && rss[h] > 0) ? sprintf("%.2fx", rss[i] / rss[h]) : "-"
      printf "%-8s %12.4f %8.3f %10.1f %10.1f %12s %12s\n", name[i], cpu[i], pct[i], rss[i], peak[i], cr, rr
    }
  }'
results=()
others=(htop "htop -d 10")
if [ -n "${DCIMON_BASE:-}" ]; then
  others=(base "$DCIMON_BASE --interval 1s" "${others[@]}")
fi
if command -v btop >/dev/null 2>&1; then
  others+=(btop btop)
fi
mapfile -t results < <(measure dcimon "$work/dcimon --interval 1s" "${others[@]}")

read -r first_tmux first_self first_base < <(first_frame)
if [ -n "${DCIMON_BASE:-}" ]; then
  read -r base_tmux base_self base_base < <(first_frame "$DCIMON_BASE")
fi
if [ "${2:-}" = overview ]; then
  echo
  echo "Overhead over ${secs} s at ${cols}x${rows}, 1 s refresh, default screen, all at once ($(nproc) CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
  printf '%s\n' "${results[@]}" | awk "$table"
  echo "dcimon's first frame with data: ${first_self} ms after start by its debug log, ${first_tmux} ms as tmux shows it, of which tmux's own start-up is about ${first_base} ms (medians of 5)"
  [ -z "${DCIMON_BASE:-}" ] || echo "base's first frame with data: ${base_self} ms by its debug log, ${base_tmux} ms as tmux shows it (tmux ${base_base} ms)"
  exit 0
fi

# The process table, with 1,000 sleeping processes more than the host has.
for ((k = 0; k < 1000; k++)); do
  sleep 3600 &
  sleepers+=($!)
done
procs=()
mapfile -t procs < <(measure dcimon "env DCIMON_START=values DCIMON_PATH=Proc $work/dcimon --interval 1s" htop "htop -d 10")
nprocs=$(ls -d /proc/[0-9]* | wc -l)
for p in "${sleepers[@]}"; do kill "$p" 2>/dev/null || true; done
sleepers=()

echo
echo "Overhead over ${secs} s at ${cols}x${rows}, 1 s refresh, default screen, all at once ($(nproc) CPUs, $(uname -r))"
printf '%s\n' "${results[@]}" | awk "$table"
echo "dcimon's first frame with data: ${first_self} ms after start by its debug log, ${first_tmux} ms as tmux shows it, of which tmux's own start-up is about ${first_base} ms (medians of 5)"
echo
echo "Overhead over ${secs} s with the process table on screen and ${nprocs} processes (1,000 sleeping ones added)"
printf '%s\n' "${procs[@]}" | awk "$table"
fleet
