#!/usr/bin/env bash
# Issue 34's budget: `hot '/*/Disk' busy --at TIME` over 500 hosts × 16 disks from pmproxy's time
# series, end to end ≤ 1 s wall and ≤ 100 MB RSS, side by side with the same ranking from the same
# archives read directly (--archive × 500).
#
#   scripts/series-bench.sh [HOSTS] [RUNS]     (defaults 500 and 5)
#
# It writes HOSTS archives of 5 minutes at 10 s with dcimon's own writer (internal/cmd/fleetarchives),
# starts a key-value server (valkey-server or redis-server) and a pmproxy with [pmseries] on private
# loopback ports in a temporary directory, loads the archives with pmseries --load, runs each
# command RUNS times under /usr/bin/time, checks the two rankings are the same, and prints each
# run's wall time and peak RSS. Both daemons are killed by their PIDs at the end. Loading 500
# archives takes a minute or two: CI does not run this (the tests use a few small archives).
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=${1:-500}
runs=${2:-5}
kv=$(command -v valkey-server || command -v redis-server || true)
[ -n "$kv" ] || { echo "no valkey-server or redis-server: apt-get install redis-server" >&2; exit 1; }
[ -x /usr/lib/pcp/bin/pmproxy ] && command -v pmseries >/dev/null || { echo "no pmproxy/pmseries: apt-get install pcp" >&2; exit 1; }

dir=$(mktemp -d /tmp/dcimon-series-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

go build -o "$dir/dcimon" .
go build -o "$dir/fleetarchives" ./internal/cmd/fleetarchives
"$dir/fleetarchives" -hosts "$hosts" -disks 16 "$dir/archives" > "$dir/bases"

kvport=$(freeport)
"$kv" --port "$kvport" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no > "$dir/kv.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$kvport") 2>/dev/null && break
  sleep 0.1
done
proxyport=$(freeport)
cat > "$dir/pmproxy.conf" <<EOF
[pmproxy]
pcp.enabled = false
http.enabled = true
redis.enabled = true
[keys]
enabled = true
servers = 127.0.0.1:$kvport
[redis]
enabled = true
servers = 127.0.0.1:$kvport
[discover]
enabled = false
[pmseries]
enabled = true
servers = 127.0.0.1:$kvport
[pmsearch]
enabled = false
EOF
# /etc/pcp.env sets variables of its own (dir among them): the arguments are made before it is read.
proxyargs=(-f -A -i 127.0.0.1 -p "$proxyport" -s "$dir/pmproxy.socket" -c "$dir/pmproxy.conf" -l "$dir/pmproxy.log")
(set +u; [ -f /etc/pcp.env ] && . /etc/pcp.env
 exec /usr/lib/pcp/bin/pmproxy "${proxyargs[@]}") > "$dir/pmproxy.out" 2>&1 &
pids+=($!)
ready=
for _ in $(seq 150); do
  curl -sf -m 1 "http://127.0.0.1:$proxyport/series/query?expr=pmcd.pid" >/dev/null && { ready=1; break; }
  sleep 0.1
done
[ -n "$ready" ] || { echo "pmproxy does not answer a series query:" >&2; cat "$dir/pmproxy.log" >&2; exit 1; }

t0=$(date +%s.%N)
xargs -P 2 -I{} pmseries -p "$kvport" --load '{source.path: "{}"}' < "$dir/bases" > "$dir/load.log" 2>&1
t1=$(date +%s.%N)
echo "loaded $hosts archives into $(basename "$kv") with pmseries --load in $(echo "$t1 - $t0" | bc) s"

if [ -n "${SERIES_BENCH_KEEP:-}" ]; then # leave the daemons up to look at them, until interrupted
  echo "pmproxy pcp://127.0.0.1:$proxyport, key-value server port $kvport, archives in $dir/archives"
  sleep infinity
fi

at=03:02:30
series=("$dir/dcimon" hot '/*/Disk' busy --max 10 --at "$at" --series "pcp://127.0.0.1:$proxyport")
archives=("$dir/dcimon" hot '/*/Disk' busy --max 10 --at "$at")
while read -r b; do archives+=(--archive "$b"); done < "$dir/bases"

export TZ=UTC XDG_CONFIG_HOME="$dir/config" NO_COLOR=1
run() { # label, command...: one run, its wall time and peak RSS
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$dir/time" "$@" > "$dir/out.$label"
  read -r wall rss < "$dir/time"
  printf '%-9s wall %5.2f s   peak RSS %6.1f MB\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)"
}
"${series[@]}" > /dev/null # once to warm the caches (pmproxy's, the disk's)
for i in $(seq "$runs"); do
  run series "${series[@]}"
  run archives "${archives[@]}"
done
if cmp -s "$dir/out.series" "$dir/out.archives"; then
  echo "the rankings are the same:"
  cat "$dir/out.series"
else
  echo "THE RANKINGS DIFFER" >&2
  diff "$dir/out.series" "$dir/out.archives" >&2 || true
  exit 1
fi
