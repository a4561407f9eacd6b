// Package house keeps the house rules that the build can check (issue 37). Its tests fail, naming
// the offending file and line, when a non-test Go file grows over 700 lines, when a package's tests
// do not take `go test ./... -update`, or when a function's cognitive complexity passes the
// ceiling. The files and functions over a limit today are named with their size in allowlists
// under testdata/ that may only shrink: an entry that grew, shrank or went stale fails too, saying
// what to write instead. docs/development.md says how to run every guard.
package house
