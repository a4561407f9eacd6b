#!/usr/bin/env bash
# The monitor's processor time a collection on a fleet (issue 38): runs BINARY in tmux at 200x50
# at a 1 s refresh on the hosts of HOSTSFILE (--hosts @FILE), waits WARM seconds, then over SECS
# seconds sums the process's time (/proc/PID/task/*/schedstat) and counts the collections its
# debug log says ended; quits it with q (so DCIMON_CPUPROFILE and DCIMON_HEAPPROFILE, when set,
# are written) and prints one line: collections, processor time a collection, CPU %, resident
# MiB at the end and the load average. On a loaded machine the share of a processor the monitor
# gets is not what it asks for: the time a collection is.
#
#   scripts/fleet-cpu.sh BINARY HOSTSFILE [SECS [WARM]]     (40 and 20 by default)
#
# A fleet of thousands needs a file descriptor a host: the limit is raised to the hard one.
set -euo pipefail
bin=$1 hosts=$2 secs=${3:-40} warm=${4:-20}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
log=$(mktemp)
s=fleetcpu-$$
trap 'tmux kill-session -t "$s" 2>/dev/null || true; rm -f "$log"' EXIT
tmux new-session -d -s "$s" -x 200 -y 50 \
  "ulimit -n $(ulimit -n) 2>/dev/null; exec env TERM=xterm-256color $bin --interval 1s --debug $log --hosts @$hosts"
pid=$(tmux list-panes -t "$s" -F '#{pane_pid}')
cpu() { cat /proc/"$pid"/task/*/schedstat | awk '{ s += $1 } END { printf "%d", s }'; }
ended() { grep -c ' sample [0-9]* in ' "$log" || true; }
sleep "$warm"
n0=$(ended); c0=$(cpu); t0=$(date +%s.%N)
sleep "$secs"
n1=$(ended); c1=$(cpu); t1=$(date +%s.%N)
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
tmux send-keys -t "$s" q
for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.2; done
awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v r="$rss" -v n=$((n1 - n0)) -v la="$(cut -d' ' -f1-3 /proc/loadavg)" \
  'BEGIN { printf "collections %d, %.0f ms of CPU a collection, %.1f%% CPU, %.1f MiB resident, load average %s\n", n, (n > 0) ? (c1 - c0) / 1e6 / n : 0, 100 * (c1 - c0) / 1e9 / (t1 - t0), r / 1024, la }'
