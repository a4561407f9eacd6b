package linux

import (
	"context"
	"errors"
	"fmt"
)

// cpuTime names one column of a "cpu" line of /proc/stat, in the kernel's column order.
type cpuTime int

// The columns of a "cpu" line. The kernel also counts guest time in user and guest_nice in nice, so the
// ten do not add up to elapsed time unless guest and guestNice are subtracted first.
const (
	cpuUser      cpuTime = iota // column 1: normal processes in user mode
	cpuNice                     // column 2: niced processes in user mode
	cpuSystem                   // column 3: kernel mode
	cpuIdle                     // column 4: idle task
	cpuIowait                   // column 5: idle while I/O was outstanding (not reliable per CPU)
	cpuIRQ                      // column 6: servicing hard interrupts
	cpuSoftIRQ                  // column 7: servicing softirqs
	cpuSteal                    // column 8: stolen by the hypervisor (Linux 2.6.11)
	cpuGuest                    // column 9: running a guest, also counted in user (2.6.24)
	cpuGuestNice                // column 10: running a niced guest, also counted in nice (2.6.33)
	numCPUTimes
)

var cpuTimeNames = [numCPUTimes]string{
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice",
}

// String returns the kernel's name for the column (proc(5)).
func (c cpuTime) String() string {
	if c < 0 || c >= numCPUTimes {
		return fmt.Sprintf("cpuTime(%d)", int(c))
	}
	return cpuTimeNames[c]
}

// cpuTimes is one "cpu" line of /proc/stat. Every column is a u64 counter of USER_HZ ticks.
type cpuTimes struct {
	cpu     int                 // N of a "cpuN" line; -1 for the "cpu" line (all CPUs)
	ticks   [numCPUTimes]uint64 // indexed by cpuTime
	columns int                 // columns the kernel printed; ticks[c] is data only for int(c) < columns
	bad     bool                // the line names its processor but its times could not be read
	line    int                 // its line of the file
}

// has reports whether the kernel printed column c, so that a missing column is "no data", not 0.
func (t *cpuTimes) has(c cpuTime) bool {
	return int(c) < t.columns
}

// statKey names a single-value line of /proc/stat.
type statKey int

// The single-value lines of /proc/stat we keep.
const (
	statCtxt         statKey = iota // "ctxt": context switches since boot, u64 counter
	statIntr                        // "intr": first field, interrupts since boot (all sources), u64 counter
	statBtime                       // "btime": boot time, seconds since the Unix epoch
	statProcesses                   // "processes": forks since boot, unsigned long counter
	statProcsRunning                // "procs_running": runnable threads now, u32 gauge
	statProcsBlocked                // "procs_blocked": threads blocked on I/O now, u32 gauge
	statSoftIRQ                     // "softirq": first field, softirqs since boot (all kinds), u64 counter
	numStatKeys
)

var statKeyNames = [numStatKeys]string{
	"ctxt", "intr", "btime", "processes", "procs_running", "procs_blocked", "softirq",
}

// String returns the key as /proc/stat spells it.
func (k statKey) String() string {
	if k < 0 || k >= numStatKeys {
		return fmt.Sprintf("statKey(%d)", int(k))
	}
	return statKeyNames[k]
}

// procStat is the content of /proc/stat that dcimon uses.
type procStat struct {
	total   cpuTimes            // the "cpu" line; total.columns == 0 when it was missing
	cpus    []cpuTimes          // the "cpuN" lines in file order; offline CPUs are absent, so key by cpus[i].cpu
	vals    [numStatKeys]uint64 // indexed by statKey
	present uint32              // bit k set when line k was read: a missing line is "no data", not 0
	// badCPU and badKeys say which lines the parse error was about, so that a provider reports it on
	// the class it concerns: a corrupt cpuN line is the CPU classes' problem, a corrupt ctxt line the
	// Host class's (house style rule 6).
	badCPU  bool
	badKeys uint32 // bit k set when a line for statKey k could not be parsed
	// badTotal says the "cpu" line is there but could not be read; cut says the file ends
	// inside its cpu lines (no line follows them, as the kernel always writes some), so the
	// processors it lists may not be all there are.
	badTotal, cut bool
}

// get returns the value of line k and whether the file had it.
func (p *procStat) get(k statKey) (uint64, bool) {
	return p.vals[k], p.present&(1<<k) != 0
}

// readStat reads <proc>/stat into dst, reusing dst's slices.
func readStat(ctx context.Context, fr *fileReader, dst *procStat) error {
	path, data, err := readProc(ctx, fr, "cpu", "stat")
	if err != nil {
		return err
	}
	return parseStat(path, data, dst)
}

// parseStat parses the content of /proc/stat (read from src) into dst, reusing dst.cpus. Lines it does
// not know are ignored; a bad line is reported with its number and skipped, and the other lines are still
// stored.
func parseStat(src string, data []byte, dst *procStat) error {
	data0 := data
	dst.total = cpuTimes{cpu: -1}
	dst.cpus = dst.cpus[:0]
	dst.vals = [numStatKeys]uint64{}
	dst.present = 0
	dst.badCPU, dst.badKeys, dst.badTotal = false, 0, false
	inCPUs := false // the last line read was a cpu line
	lastKey, lastLine := statKey(-1), 0
	var errs lineErrs
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		key, rest := nextField(line)
		if len(key) == 0 {
			continue
		}
		if len(key) >= 3 && string(key[:3]) == "cpu" {
			inCPUs = true
			t, err := parseCPULine(key, rest)
			if err != nil {
				errs.add("cpu", src, n, line, err)
				dst.badCPU = true
				switch {
				case len(key) == 3:
					dst.badTotal = true
				case t.cpu >= 0:
					// The processor is there; only its times are not: it stays, in error.
					dst.cpus = append(dst.cpus, cpuTimes{cpu: t.cpu, bad: true})
				}
				continue
			}
			t.line = n
			if t.cpu < 0 {
				dst.total = t
			} else {
				dst.cpus = append(dst.cpus, t)
			}
			continue
		}
		inCPUs, lastKey = false, -1
		k := lookupStatKey(key)
		if k < 0 {
			continue
		}
		f, _ := nextField(rest)
		if len(f) == 0 {
			errs.add("cpu", src, n, line, fmt.Errorf("%w: %s has no value", errTooFewFields, k))
			dst.badKeys |= 1 << k
			continue
		}
		v, err := parseUint(f)
		if err != nil {
			errs.add("cpu", src, n, line, err)
			dst.badKeys |= 1 << k
			continue
		}
		dst.vals[k] = v
		dst.present |= 1 << k
		lastKey, lastLine = k, n
	}
	if dst.total.columns == 0 && len(dst.cpus) == 0 && dst.present == 0 && len(errs.errs) == 0 {
		return fmt.Errorf("cpu: parse %s: %w", src, errNoData)
	}
	// Every cpu line of one kernel has the same columns: one with fewer than the others was
	// cut short (a number may have lost digits), so its times are not read.
	most := dst.total.columns
	for i := range dst.cpus {
		most = max(most, dst.cpus[i].columns)
	}
	for i := range dst.cpus {
		if c := &dst.cpus[i]; !c.bad && c.columns < most {
			errs.add("cpu", src, c.line, nil, fmt.Errorf("%w: cpu%d has %d times where the others have %d", errCutShort, c.cpu, c.columns, most))
			*c = cpuTimes{cpu: c.cpu, bad: true, line: c.line}
			dst.badCPU = true
		}
	}
	if dst.total.columns != 0 && dst.total.columns < most {
		errs.add("cpu", src, dst.total.line, nil, fmt.Errorf("%w: the cpu line has %d times where the others have %d", errCutShort, dst.total.columns, most))
		dst.total, dst.badTotal, dst.badCPU = cpuTimes{cpu: -1}, true, true
	}
	if len(data0) > 0 && data0[len(data0)-1] != '\n' && lastKey >= 0 {
		// The file ends inside its last line: that value may have lost digits.
		dst.present &^= 1 << lastKey
		dst.vals[lastKey] = 0
		dst.badKeys |= 1 << lastKey
		errs.add("cpu", src, lastLine, nil, fmt.Errorf("%w: the file ends inside this line", errCutShort))
	}
	if dst.cut = inCPUs; dst.cut {
		dst.badCPU = true
		return errors.Join(errs.err(), fmt.Errorf("cpu: parse %s: %w: it ends inside the cpu lines, so the processors listed may not be all", src, errCutShort))
	}
	return errs.err()
}

func lookupStatKey(key []byte) statKey {
	for k, name := range statKeyNames {
		if string(key) == name {
			return statKey(k)
		}
	}
	return -1
}

// parseCPULine parses a "cpu" or "cpuN" line whose first field is key.
func parseCPULine(key, rest []byte) (cpuTimes, error) {
	t := cpuTimes{cpu: -1}
	if len(key) > 3 {
		n, err := parseUint(key[3:])
		if err != nil || n > 1<<30 {
			return cpuTimes{cpu: -2}, fmt.Errorf("bad CPU name %q", key)
		}
		t.cpu = int(n)
	}
	n, _, err := parseUints(rest, t.ticks[:])
	if err != nil {
		return t, err
	}
	if n < 4 {
		return t, fmt.Errorf("%w: got %d times, want at least 4", errTooFewFields, n)
	}
	t.columns = n
	return t, nil
}
