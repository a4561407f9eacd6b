// Package headless is dcimon's commands without the monitor: list, describe, get, hot, record (a
// PCP archive of what is read) and metrics (Prometheus text or OpenMetrics, docs/metrics.md),
// each in its own file with its own options struct, printing text or JSON (docs/json.md) to a
// writer, or writing an archive.
// They read the same name space as the monitor, opened by OpenSampler from the Common flags, and
// use the name space's own rules for paths (Registry.Lookup, Registry.Glob) and the host's name
// (Registry.HostName). Package cli parses the command line into these options and turns
// their errors into exit statuses (a UsageError is status 2).
package headless
