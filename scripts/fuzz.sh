#!/usr/bin/env bash
# Runs every fuzz target of the module for SECONDS each (default 2), one after another, and fails
# on the first failure. CI runs it for a few seconds a target; for the long runs reported in the
# README and closing notes: scripts/fuzz.sh 60. A failing input is written to the package's
# testdata/fuzz/<Target>/ by go test itself: turn it into a table test or f.Add seed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-2}
status=0
for pkg in $(go list ./...); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
  for t in $targets; do
    if out=$(go test "$pkg" -run '^$' -fuzz "^$t\$" -fuzztime "${secs}s" 2>&1); then
      execs=$(printf '%s\n' "$out" | grep -oE 'execs: [0-9]+' | tail -1 || true)
      printf 'ok    %-40s %-28s %s\n' "${pkg#dcimon/}" "$t" "$execs"
    else
      printf 'FAIL  %-40s %s\n%s\n' "${pkg#dcimon/}" "$t" "$out"
      status=1
    fi
  done
done
exit $status
