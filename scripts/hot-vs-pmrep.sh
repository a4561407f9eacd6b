#!/usr/bin/env bash
# Issue 39's budget: a whole day's `dcimon hot Disk busy --from --to` over a 24-hour archive of
# about 160 values a record costs at most twice `pmrep -a` of the same metrics over the same span,
# measured side by side on one archive, by turns.
#
#   scripts/hot-vs-pmrep.sh [STEP] [RUNS] [xz]   (defaults 10s, pmlogger's usual interval, and 3)
#
# The archive is written by dcimon's own writer as pmlogger writes a Linux host's
# (internal/cmd/fleetarchives: one host, 26 disks, the Linux PMDA's disk.dev.read, write,
# read_bytes, write_bytes, avactive and aveq of each and kernel.all.pswitch: 157 values a record,
# hinv.ncpu and mem.physmem once), 24 hours at STEP; pmlogcheck must pass it first. Both
# commands read every record from the first to the last: pmrep with -u (a line a record, no
# interpolation, as dcimon reads an archive), its output thrown away as dcimon's is. With xz, the
# volume and metadata are compressed first as pmlogger_daily compresses them (xz -0
# --block-size=10MiB), and both read them so. Each run's
# wall time, processor time (user + system) and peak RSS are printed, then the ratios of the
# medians of processor time and of wall time. CI does not run this.
set -euo pipefail
cd "$(dirname "$0")/.."
step=${1:-10s}
runs=${2:-3}
compress=${3:-}
command -v pmrep >/dev/null && command -v pmlogcheck >/dev/null || { echo "no pmrep/pmlogcheck: apt-get install pcp python3-pcp" >&2; exit 1; }
# pmrep runs under pmpython: the system's python3, which has PCP's module (as internal/pcptest).
[ -x /usr/bin/python3 ] && export PCP_PYTHON_PROG=/usr/bin/python3

dir=$(mktemp -d /tmp/dcimon-hot-vs-pmrep.XXXXXX)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/dcimon" .
go build -o "$dir/fleetarchives" ./internal/cmd/fleetarchives
secs=$(python3 -c "import re,sys; m=re.fullmatch(r'(\d+)(ms|s|m)', sys.argv[1]); print({'ms':0.001,'s':1,'m':60}[m[2]]*int(m[1]))" "$step")
samples=$(python3 -c "print(int(86400/$secs)+1)")
"$dir/fleetarchives" -hosts 1 -disks 26 -samples "$samples" -step "$step" "$dir/a" > "$dir/bases"
base=$(head -1 "$dir/bases")
pmlogcheck "$base" >/dev/null
if [ "$compress" = xz ]; then
  xz -0 --block-size=10MiB "$base.0" "$base.meta"
fi
first=$(pmdumplog -Z UTC -L "$base" | awk '/commencing/ {print $3, $4, $5, $6}')
last=$(pmdumplog -Z UTC -L "$base" | awk '/ending/ {print $3, $4, $5, $6}')
from=$(date -u -d "$first" +%Y-%m-%dT%H:%M:%S.%NZ)
to=$(date -u -d "$last" +%Y-%m-%dT%H:%M:%S.%NZ)
echo "archive: $(du -ch "$base".0* | tail -1 | cut -f1) ($(ls "$base".0*)), $samples records at $step, $first to $last UTC"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

metrics="disk.dev.read disk.dev.write disk.dev.read_bytes disk.dev.write_bytes disk.dev.avactive disk.dev.aveq kernel.all.pswitch"
run() { # name, then the command: prints "name wall cpu rss"
  local name=$1
  shift
  /usr/bin/time -f "$name %e %U %S %M" -o "$dir/time" "$@" > "$dir/out.$name" 2> "$dir/err.$name"
  awk '{printf "%s %.2f %.2f %d\n", $1, $2, $3 + $4, $5}' "$dir/time"
}
: > "$dir/results"
for i in $(seq "$runs"); do
  run dcimon "$dir/dcimon" hot Disk busy --archive "$base" --from "$from" --to "$to" | tee -a "$dir/results"
  run pmrep pmrep -z -a "$base" -u -o stdout $metrics | tee -a "$dir/results"
done
readings=$(grep -c '^# ' "$dir/out.dcimon" || true)
lines=$(wc -l < "$dir/out.pmrep")
echo "dcimon printed $readings readings, pmrep $lines lines"
[ "$readings" -ge $((samples - 2)) ] || { echo "dcimon read $readings readings of $samples records" >&2; cat "$dir/err.dcimon" >&2; exit 1; }
python3 - "$dir/results" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = lambda name, col: statistics.median(float(r[col]) for r in rows if r[0] == name)
print("median wall: dcimon %.2f s, pmrep %.2f s: %.2fx" % (med("dcimon", 1), med("pmrep", 1), med("dcimon", 1) / med("pmrep", 1)))
print("median CPU:  dcimon %.2f s, pmrep %.2f s: %.2fx (budget 2x)" % (med("dcimon", 2), med("pmrep", 2), med("dcimon", 2) / med("pmrep", 2)))
print("median peak RSS: dcimon %.0f MiB, pmrep %.0f MiB" % (med("dcimon", 3) / 1024, med("pmrep", 3) / 1024))
EOF
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
