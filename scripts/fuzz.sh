#!/usr/bin/env bash
# Runs every fuzz target of the module (or of the PACKAGES named after SECONDS) for SECONDS each
# (default 2), FUZZ_JOBS targets at a time (default 2), and fails when any fails. CI runs it for a
# second a target (go test has already run every seed, so this is the search beyond them); for the long runs
# reported in docs/ and closing notes: FUZZ_JOBS=1 scripts/fuzz.sh 60. A failing input is written
# to the package's testdata/fuzz/<Target>/ by the test binary itself: turn it into a table test or
# f.Add seed.
#
# Each package's test binary is built once, instrumented for fuzzing (go test -c -fuzz), FUZZ_JOBS
# packages at a time, and run for each of its targets from the package's folder with go test's
# own cache of interesting inputs (issue 37: building a binary per target cost more than the
# fuzzing). FUZZ_BUILD_ONLY=1 only builds them, so that .ci/run builds them while the tests wait
# on their clocks; with FUZZ_BIN_DIR=DIR the binaries are written to DIR and kept, and a later
# run with the same DIR fuzzes with them at once (the go command caches the compiled packages
# but links every binary again: 10-26 s of the fuzz stage, issue 37 item 6). Without it, they
# go to a temporary folder removed at the end.
#
# Go 1.26's fuzz coordinator can fail a target at the end of -fuzztime with a bare
# "context deadline exceeded" and no failing input (golang/go#75804, fixed in Go 1.27). Such a
# run is fuzzed again with an execution count instead of a duration, which has no deadline to
# race; a target fails only when that run fails too, or when any run writes a failing input.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-2}
shift || true
pkgs=("$@"); [ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
jobs=${FUZZ_JOBS:-2}
cache=$(go env GOCACHE)/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bins=${FUZZ_BIN_DIR:-$work}
mkdir -p "$bins"

# files counts the failing inputs saved for a target (0 when it has none).
files() { if [ -d "$1" ]; then ls "$1" | wc -l; else echo 0; fi; }

# fuzz runs target $4 of package $1 (folder $2, binary $3) and prints one line of verdict (and
# the binary's output when it fails); its status is the verdict's.
fuzz() {
  local pkg=$1 dir=$2 bin=$3 t=$4 corpus before after out ok execs
  corpus="$dir/testdata/fuzz/$t"
  before=$(files "$corpus")
  run() { (cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^$t\$" -test.fuzztime="$1" \
    -test.fuzzcachedir="$cache/$pkg" -test.parallel="$par" 2>&1); }
  out=$(run "${secs}s") && ok=1 || ok=0
  after=$(files "$corpus")
  if [ $ok = 0 ] && [ "$before" = "$after" ] && printf '%s\n' "$out" | grep -q '^    context deadline exceeded$'; then
    printf 'again %-40s %-28s (the coordinator race of golang/go#75804: no failing input)\n' "${pkg#dcimon/}" "$t"
    out=$(run 300x) && ok=1 || ok=0
  fi
  if [ $ok = 1 ]; then
    execs=$(printf '%s\n' "$out" | grep -oE 'execs: [0-9]+' | tail -1 || true)
    printf 'ok    %-40s %-28s %s\n' "${pkg#dcimon/}" "$t" "$execs"
  else
    printf 'FAIL  %-40s %s\n%s\n' "${pkg#dcimon/}" "$t" "$out"
    return 1
  fi
}

# Each fuzzing process gets its share of the processors.
par=$(( $(nproc) / jobs )); [ "$par" -ge 1 ] || par=1
# The packages with fuzz targets, each with its folder and its fuzzing binary's path.
: > "$work/pkgs"
while read -r pkg dir; do
  if grep -q '^func Fuzz' "$dir"/*_test.go 2>/dev/null; then
    echo "$pkg $dir $bins/$(printf '%s' "$pkg" | tr / _).test" >> "$work/pkgs"
  fi
done < <(go list -f '{{.ImportPath}} {{.Dir}}' "${pkgs[@]}")
[ -s "$work/pkgs" ] || { echo "no fuzz targets found" >&2; exit 1; }
# A binary is built unless FUZZ_BIN_DIR already holds it and this run only fuzzes.
reuse=0; [ -n "${FUZZ_BIN_DIR:-}" ] && [ "${FUZZ_BUILD_ONLY:-0}" = 0 ] && reuse=1
xargs -P "$jobs" -L 1 sh -c '[ "$3" = 1 ] && [ -x "$2" ] || go test -c -fuzz=. -o "$2" "$0"' < <(sed "s/\$/ $reuse/" "$work/pkgs")
[ "${FUZZ_BUILD_ONLY:-0}" = 0 ] || exit 0

n=0
while read -r pkg dir bin; do
  for t in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go | sed 's/^func //' | sort -u); do
    n=$((n + 1))
    echo "$pkg $dir $bin $t" > "$work/job.$n"
  done
done < "$work/pkgs"

# A pool of $jobs workers: job i's verdict goes to job.i.out, its status to job.i.rc.
export -f fuzz files
export secs cache par
seq 1 $n | xargs -P "$jobs" -I{} bash -c \
  'read -r p d b t < "$0/job.$1"; fuzz "$p" "$d" "$b" "$t" > "$0/job.$1.out"; echo $? > "$0/job.$1.rc"' "$work" {}
status=0
for i in $(seq 1 $n); do
  cat "$work/job.$i.out"
  [ "$(cat "$work/job.$i.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
