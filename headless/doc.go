// Package headless is dcimon's commands without the monitor: list, describe, get and hot, each
// in its own file with its own options struct, printing text or JSON (docs/json.md) to a writer.
// They read the same name space as the monitor, opened by OpenSampler from the Common flags, and
// use the name space's own rules for paths (Registry.Lookup, Registry.Glob) and the host's name
// (Registry.HostName). The package main parses the command line into these options and turns
// their errors into exit statuses (a UsageError is status 2).
package headless
