package linux

import (
	"context"
	"fmt"
)

// vmKey names a line of /proc/vmstat that dcimon keeps. All are unsigned long counters since boot.
type vmKey int

// The /proc/vmstat lines dcimon keeps.
const (
	vmPgpgin     vmKey = iota // pgpgin: bytes read from block devices (the kernel prints KiB; stored ×1024)
	vmPgpgout                 // pgpgout: bytes written to block devices (KiB ×1024)
	vmPswpin                  // pswpin: pages swapped in (a count of pages, not bytes)
	vmPswpout                 // pswpout: pages swapped out (a count of pages)
	vmPgfault                 // pgfault: page faults, minor and major
	vmPgmajfault              // pgmajfault: major page faults (needed I/O)
	numVMKeys
)

var vmKeyNames = [numVMKeys]string{"pgpgin", "pgpgout", "pswpin", "pswpout", "pgfault", "pgmajfault"}

// String returns the key as /proc/vmstat spells it.
func (k vmKey) String() string {
	if k < 0 || k >= numVMKeys {
		return fmt.Sprintf("vmKey(%d)", int(k))
	}
	return vmKeyNames[k]
}

// vmStat is the part of /proc/vmstat dcimon keeps.
type vmStat struct {
	v       [numVMKeys]uint64 // indexed by vmKey; pgpgin and pgpgout in bytes
	present uint64            // bit k set when line k was read: a missing line is "no data", not 0
}

// get returns the value of line k and whether the file had it.
func (s *vmStat) get(k vmKey) (uint64, bool) {
	return s.v[k], s.present&(1<<k) != 0
}

// readVMStat reads <proc>/vmstat.
func readVMStat(ctx context.Context, fr *fileReader, dst *vmStat) error {
	path, data, err := readProc(ctx, fr, "mem", "vmstat")
	if err != nil {
		return err
	}
	return parseVMStat(path, data, dst)
}

// parseVMStat parses the content of /proc/vmstat (read from src) into dst. Unknown lines are ignored.
func parseVMStat(src string, data []byte, dst *vmStat) error {
	*dst = vmStat{}
	return parseKeyed(src, data, vmKeyNames[:], dst.v[:], &dst.present, splitVMStat, vmstatValue)
}

// splitVMStat cuts a "pgfault 4512265" line.
func splitVMStat(line []byte) (key, num, rest []byte, err error) {
	key, rest = nextField(line)
	num, rest = nextField(rest)
	return key, num, rest, nil
}

// vmstatValue is line k's value: pgpgin and pgpgout in bytes (the kernel prints KiB), the
// others as printed.
func vmstatValue(k int, v uint64, _ []byte) (uint64, error) {
	if vmKey(k) == vmPgpgin || vmKey(k) == vmPgpgout {
		return kibToBytes(v)
	}
	return v, nil
}
