package linux

import (
	"context"
	"fmt"
)

// sectorSize is the unit of the sector columns of /proc/diskstats: always 512 bytes, whatever the
// device's logical block size (Documentation/admin-guide/iostats.rst).
const sectorSize = 512

// diskCol names a statistic column of /proc/diskstats, in the kernel's order (iostats.rst "field N" is
// diskCol N-1; the file's column is N+3 after major, minor and name).
type diskCol int

// The statistic columns of /proc/diskstats.
const (
	diskReads          diskCol = iota // field 1: reads completed
	diskReadsMerged                   // field 2: adjacent reads merged before being issued
	diskReadBytes                     // field 3: sectors read ×512
	diskReadMs                        // field 4: milliseconds spent reading
	diskWrites                        // field 5: writes completed
	diskWritesMerged                  // field 6: adjacent writes merged
	diskWriteBytes                    // field 7: sectors written ×512
	diskWriteMs                       // field 8: milliseconds spent writing
	diskInFlight                      // field 9: I/Os currently in flight (a gauge)
	diskIOMs                          // field 10: milliseconds the device had I/O in flight (busy time)
	diskWeightedMs                    // field 11: milliseconds spent waiting, weighted by queue depth
	diskDiscards                      // field 12: discards completed (Linux 4.18)
	diskDiscardsMerged                // field 13: discards merged (4.18)
	diskDiscardBytes                  // field 14: sectors discarded ×512 (4.18)
	diskDiscardMs                     // field 15: milliseconds spent discarding (4.18)
	diskFlushes                       // field 16: flush requests completed (5.5)
	diskFlushMs                       // field 17: milliseconds spent flushing (5.5)
	numDiskCols
)

// diskColInfo describes a column: its name, and the width of the kernel value it prints, which is what
// tells a 32-bit wrap from a discontinuity. The kernel prints counts and sectors as unsigned long
// (64 bits on 64-bit kernels; a 32-bit kernel wraps them at 2^32, which the name space then sees as a
// discontinuity, never as a wrong rate) and every millisecond column, in-flight included, as unsigned int:
// those wrap at 2^32 ms (49.7 days) even on 64-bit kernels (block/genhd.c diskstats_show).
var diskColInfo = [numDiskCols]struct {
	name  string
	bits  int
	gauge bool
}{
	{"reads", 64, false},
	{"reads_merged", 64, false},
	{"read_bytes", 64, false},
	{"read_ms", 32, false},
	{"writes", 64, false},
	{"writes_merged", 64, false},
	{"write_bytes", 64, false},
	{"write_ms", 32, false},
	{"in_flight", 32, true},
	{"io_ms", 32, false},
	{"weighted_ms", 32, false},
	{"discards", 64, false},
	{"discards_merged", 64, false},
	{"discard_bytes", 64, false},
	{"discard_ms", 32, false},
	{"flushes", 64, false},
	{"flush_ms", 32, false},
}

// String returns the column's name.
func (c diskCol) String() string {
	if c < 0 || c >= numDiskCols {
		return fmt.Sprintf("diskCol(%d)", int(c))
	}
	return diskColInfo[c].name
}

// diskStat is one line of /proc/diskstats: a whole disk or a partition (sysfs tells which, see
// readBlockInfo). Sector columns are already converted to bytes.
type diskStat struct {
	major, minor uint32
	name         string              // the kernel's name, exact bytes (sanitizeName before display)
	v            [numDiskCols]uint64 // indexed by diskCol
	columns      int                 // statistic columns present: 11, 15 (discards) or 17 (flushes)
	line         int                 // its line of the file
}

// has reports whether the kernel printed column c, so that a missing column is "no data", not 0.
func (d *diskStat) has(c diskCol) bool {
	return int(c) < d.columns
}

// readDiskstats reads <proc>/diskstats, reusing dst.
func readDiskstats(ctx context.Context, fr *fileReader, dst []diskStat, want int) ([]diskStat, error) {
	path, data, err := readProc(ctx, fr, "disk", "diskstats")
	if err != nil {
		return dst[:0], err
	}
	return parseDiskstats(path, data, dst, want)
}

// parseDiskstats parses the content of /proc/diskstats (read from src) into dst[:0], reusing its storage
// and name strings. A bad line is reported with its number and skipped; the good lines are returned.
//
// Each line must have exactly the fields the kernel prints (issue 29): 11, 15 or 17 statistics,
// one count for the whole file, since one kernel wrote it. A line cut short can look like an older
// kernel's (a 17-statistic line cut mid-number after its 11th): so a line with fewer statistics
// than the file's others, or than want (the count of an earlier reading of the same kernel), and a
// last line with no newline (the file ends inside it), are errors, never values.
func parseDiskstats(src string, data []byte, dst []diskStat, want int) ([]diskStat, error) {
	var errs lineErrs
	dst = parseRows("disk", src, data, dst, nil, func(n int, line []byte, d *diskStat) error {
		err := parseDiskLine(line, d)
		d.line = n
		return err
	}, &errs)
	most := want
	for i := range dst {
		most = max(most, dst[i].columns)
	}
	// Lines with fewer statistics than the kernel prints (most) were cut short.
	k := 0
	for i := range dst {
		if c := dst[i].columns; c < most {
			errs.add("disk", src, dst[i].line, nil, fmt.Errorf("%w: %d statistics where this kernel prints %d", errCutShort, c, most))
			continue
		}
		dst[k] = dst[i]
		k++
	}
	return dst[:k], errs.err()
}

func parseDiskLine(line []byte, d *diskStat) error {
	var f []byte
	var dev [2]uint64
	for j := range dev {
		f, line = nextField(line)
		if len(f) == 0 {
			return fmt.Errorf("%w: no device name", errTooFewFields)
		}
		v, err := parseUint(f)
		if err != nil {
			return fmt.Errorf("major/minor: %w", err)
		}
		if v > 1<<32-1 {
			return fmt.Errorf("major/minor: %w: %d does not fit in 32 bits", errOverflow, v)
		}
		dev[j] = v
	}
	f, line = nextField(line)
	if len(f) == 0 {
		return fmt.Errorf("%w: no device name", errTooFewFields)
	}
	var v [numDiskCols]uint64
	n, _, err := parseUints(line, v[:])
	if err != nil {
		return err
	}
	if n < 11 {
		return fmt.Errorf("%w: got %d statistics, want at least 11", errTooFewFields, n)
	}
	if n != 11 && n != 15 && n < 17 {
		// Linux prints 11 (before 4.18), 15 (discards, 4.18) or 17 (flushes, 5.5) statistics.
		return fmt.Errorf("%w: got %d statistics; the kernel prints 11, 15 or 17", errTooFewFields, n)
	}
	for _, c := range [...]diskCol{diskReadBytes, diskWriteBytes, diskDiscardBytes} {
		if v[c] > (1<<64-1)/sectorSize {
			return fmt.Errorf("%s: %w: %d sectors is more than 2^64 bytes", c, errOverflow, v[c])
		}
		v[c] *= sectorSize
	}
	d.major, d.minor = uint32(dev[0]), uint32(dev[1])
	setString(&d.name, f)
	d.v = v
	d.columns = n
	return nil
}
