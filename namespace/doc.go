// Package namespace is the DCI name space of dcimon as pure data: identifiers, the attribute, type,
// unit and flag tables of the four standards dcimon follows (UMA DCI, RISC OS DCI4, PCP and AIX SPMI),
// the registry of classes and instances, immutable snapshots of values with rates, wraps, resets and
// derived metrics, and fetch results.
//
// The package does no I/O and never reads the clock: every time is an argument. It imports nothing
// from the terminal UI, so headless commands and tests use it directly.
//
// Numbers the source documents do not give (checklist AMB-20) are local choices, all of them stated
// in tables.go and nowhere else.
package namespace
