package linux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// selfStat is dcimon's own cost, so that the monitor can show what watching costs.
type selfStat struct {
	utimeTicks uint64 // /proc/self/stat field 14: user-mode CPU time, USER_HZ ticks (u64 counter)
	stimeTicks uint64 // field 15: kernel-mode CPU time, USER_HZ ticks (u64 counter)
	minflt     uint64 // field 10: minor page faults (counter)
	majflt     uint64 // field 12: major page faults (counter)
	threads    uint64 // field 20: threads now (gauge)
	rssBytes   uint64 // /proc/self/statm field 2 (resident pages) × page size (gauge)
	vmBytes    uint64 // /proc/self/statm field 1 (total program pages) × page size (gauge)
}

// readSelf reads <proc>/self/stat and <proc>/self/statm. Under a fixture tree "self" is the process that
// was captured, and pageSize is still this host's (statm counts pages).
func readSelf(ctx context.Context, fr *fileReader, dst *selfStat) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := filepath.Join(rootsFrom(ctx).proc, "self")
	var errs []error
	statPath := filepath.Join(dir, "stat")
	if data, err := fr.read(statPath); err != nil {
		errs = append(errs, fmt.Errorf("self: %w", err))
	} else if err := parseSelfStat(statPath, data, dst); err != nil {
		errs = append(errs, err)
	}
	statmPath := filepath.Join(dir, "statm")
	if data, err := fr.read(statmPath); err != nil {
		errs = append(errs, fmt.Errorf("self: %w", err))
	} else if err := parseStatm(statmPath, data, uint64(os.Getpagesize()), dst); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// parseSelfStat parses /proc/<pid>/stat (read from src) into the CPU, fault and thread fields of
// dst, with the Proc class's parser (one reader of the format, issue 17).
func parseSelfStat(src string, data []byte, dst *selfStat) error {
	var st pidStat
	if err := parsePIDStat(src, data, &st); err != nil {
		return fmt.Errorf("self: %w", err)
	}
	dst.minflt, dst.majflt, dst.utimeTicks, dst.stimeTicks, dst.threads = st.minflt, st.majflt, st.utime, st.stime, st.threads
	return nil
}

// parseStatm parses /proc/<pid>/statm (read from src), whose sizes are in pages, into dst's byte sizes.
func parseStatm(src string, data []byte, pageSize uint64, dst *selfStat) error {
	line, _ := cutLine(data)
	var v [2]uint64
	n, _, err := parseUints(line, v[:])
	if err == nil && n < 2 {
		err = fmt.Errorf("%w: got %d fields, want at least 2", errTooFewFields, n)
	}
	if err != nil {
		return fmt.Errorf("self: parse %s line 1: %w", src, err)
	}
	if pageSize == 0 || v[0] > (1<<64-1)/pageSize || v[1] > (1<<64-1)/pageSize {
		// Pages beyond 2^64 bytes would wrap into a small, valid-looking size (issue 21).
		return fmt.Errorf("self: parse %s line 1: %w: %d pages of %d bytes", src, errOverflow, max(v[0], v[1]), pageSize)
	}
	dst.vmBytes = v[0] * pageSize
	dst.rssBytes = v[1] * pageSize
	return nil
}
