package linux

import (
	"bytes"
	"context"
	"fmt"
)

// memKey names a line of /proc/meminfo that dcimon keeps. All are gauges in bytes.
type memKey int

// The /proc/meminfo lines dcimon keeps.
const (
	memTotal        memKey = iota // MemTotal: usable RAM
	memFree                       // MemFree: unused RAM
	memAvailable                  // MemAvailable: estimate of RAM available without swapping (3.14)
	memBuffers                    // Buffers: block device buffers
	memCached                     // Cached: page cache (excluding SwapCached)
	memSwapCached                 // SwapCached: swapped out and back in, still in swap
	memActive                     // Active: recently used
	memInactive                   // Inactive: less recently used, reclaimable first
	memSwapTotal                  // SwapTotal: swap space
	memSwapFree                   // SwapFree: unused swap space
	memDirty                      // Dirty: waiting to be written back
	memWriteback                  // Writeback: being written back
	memAnonPages                  // AnonPages: anonymous pages mapped into user space
	memMapped                     // Mapped: files mapped into user space
	memShmem                      // Shmem: shared memory and tmpfs
	memSlab                       // Slab: kernel slab caches
	memSReclaimable               // SReclaimable: reclaimable part of Slab
	memSUnreclaim                 // SUnreclaim: unreclaimable part of Slab
	memKernelStack                // KernelStack: kernel stacks
	memPageTables                 // PageTables: page tables
	memCommitLimit                // CommitLimit: allocation limit under strict overcommit
	memCommittedAS                // Committed_AS: memory currently allocated (committed)
	numMemKeys
)

var memKeyNames = [numMemKeys]string{
	"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapCached", "Active", "Inactive",
	"SwapTotal", "SwapFree", "Dirty", "Writeback", "AnonPages", "Mapped", "Shmem", "Slab", "SReclaimable",
	"SUnreclaim", "KernelStack", "PageTables", "CommitLimit", "Committed_AS",
}

// String returns the key as /proc/meminfo spells it.
func (k memKey) String() string {
	if k < 0 || k >= numMemKeys {
		return fmt.Sprintf("memKey(%d)", int(k))
	}
	return memKeyNames[k]
}

// memInfo is the part of /proc/meminfo dcimon keeps, in bytes (the file says kB and means KiB).
type memInfo struct {
	bytes   [numMemKeys]uint64 // indexed by memKey
	present uint64             // bit k set when line k was read: a missing line is "no data", not 0
}

// get returns the value of line k in bytes and whether the file had it.
func (m *memInfo) get(k memKey) (uint64, bool) {
	return m.bytes[k], m.present&(1<<k) != 0
}

// readMeminfo reads <proc>/meminfo.
func readMeminfo(ctx context.Context, fr *fileReader, dst *memInfo) error {
	path, data, err := readProc(ctx, fr, "mem", "meminfo")
	if err != nil {
		return err
	}
	return parseMeminfo(path, data, dst)
}

// parseMeminfo parses the content of /proc/meminfo (read from src) into dst. Unknown lines are ignored.
func parseMeminfo(src string, data []byte, dst *memInfo) error {
	*dst = memInfo{}
	return parseKeyed(src, data, memKeyNames[:], dst.bytes[:], &dst.present, splitMeminfo, meminfoBytes)
}

// splitMeminfo cuts a "MemTotal:       16305932 kB" line; a line without the colon is an error
// unless it is blank.
func splitMeminfo(line []byte) (key, num, rest []byte, err error) {
	colon := bytes.IndexByte(line, ':')
	if colon < 0 {
		if len(trimSpace(line)) > 0 {
			err = fmt.Errorf("%w: no \"key:\"", errTooFewFields)
		}
		return nil, nil, nil, err
	}
	num, rest = nextField(line[colon+1:])
	return line[:colon], num, rest, nil
}

// meminfoBytes is a meminfo value in bytes: every kept line is in kB (KiB).
func meminfoBytes(_ int, v uint64, rest []byte) (uint64, error) {
	if unit, _ := nextField(rest); string(unit) != "kB" {
		return 0, fmt.Errorf("unit %q, want kB", unit)
	}
	return kibToBytes(v)
}
