package linux

import (
	"bytes"
	"context"
	"fmt"
)

// loadAvg is /proc/loadavg. The load averages are kept as integer hundredths, the exact fixed-point value
// the kernel prints ("0.39" is 39): DCI has no floating-point type (AMB-30).
type loadAvg struct {
	load1, load5, load15 uint64 // run-queue length averaged over 1, 5 and 15 minutes, ×100 (gauges)
	running, threads     uint64 // runnable scheduling entities now / all of them (gauges)
	lastPID              uint64 // most recently allocated PID
}

// readLoadAvg reads <proc>/loadavg.
func readLoadAvg(ctx context.Context, fr *fileReader) (loadAvg, error) {
	path, data, err := readProc(ctx, fr, "host", "loadavg")
	if err != nil {
		return loadAvg{}, err
	}
	return parseLoadAvg(path, data)
}

// parseLoadAvg parses the content of /proc/loadavg (read from src): "0.39 0.36 0.15 1/81 4870".
func parseLoadAvg(src string, data []byte) (loadAvg, error) {
	var l loadAvg
	line, _ := cutLine(data)
	rest := line
	var f []byte
	for _, dst := range []*uint64{&l.load1, &l.load5, &l.load15} {
		f, rest = nextField(rest)
		v, err := parseCenti(f)
		if err != nil {
			return loadAvg{}, fmt.Errorf("host: parse %s line 1: %w (line %q)", src, err, line)
		}
		*dst = v
	}
	f, rest = nextField(rest)
	slash := bytes.IndexByte(f, '/')
	if slash < 0 {
		return loadAvg{}, fmt.Errorf("host: parse %s line 1: %w: want running/threads (line %q)", src, errTooFewFields, line)
	}
	var err error
	if l.running, err = parseUint(f[:slash]); err == nil {
		if l.threads, err = parseUint(f[slash+1:]); err == nil {
			f, _ = nextField(rest)
			l.lastPID, err = parseUint(f)
		}
	}
	if err != nil {
		return loadAvg{}, fmt.Errorf("host: parse %s line 1: %w (line %q)", src, err, line)
	}
	return l, nil
}
