package linux

import (
	"context"
	"fmt"
)

// uptime is /proc/uptime in centiseconds (the kernel prints two decimals; DCI4 STF_MONOTONIC is
// centiseconds too). Two fixture captures' uptimes give the exact elapsed time between them.
type uptime struct {
	upCs   uint64 // time since boot, centiseconds
	idleCs uint64 // idle time summed over all CPUs, centiseconds (can exceed upCs)
}

// readUptime reads <proc>/uptime.
func readUptime(ctx context.Context, fr *fileReader) (uptime, error) {
	path, data, err := readProc(ctx, fr, "host", "uptime")
	if err != nil {
		return uptime{}, err
	}
	return parseUptime(path, data)
}

// parseUptime parses the content of /proc/uptime (read from src): "216.47 325.06".
func parseUptime(src string, data []byte) (uptime, error) {
	line, _ := cutLine(data)
	up, rest := nextField(line)
	idle, _ := nextField(rest)
	var u uptime
	var err error
	if u.upCs, err = parseCenti(up); err == nil {
		u.idleCs, err = parseCenti(idle)
	}
	if err != nil {
		return uptime{}, fmt.Errorf("host: parse %s line 1: %w (line %q)", src, err, line)
	}
	return u, nil
}
