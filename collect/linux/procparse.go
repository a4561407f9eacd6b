package linux

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"dcimon/collect/schema"
)

// pfKthread is the kernel's PF_KTHREAD flag in /proc/PID/stat field 9: a kernel thread.
const pfKthread = 0x00200000

// pidStat is what the Proc class takes from one /proc/PID/stat line.
type pidStat struct {
	comm                  []byte // field 2, between the first '(' and the last ')'; valid until the next read
	state                 byte   // field 3
	ppid                  uint64 // field 4
	flags                 uint64 // field 9
	minflt, majflt        uint64 // fields 10 and 12
	utime, stime          uint64 // fields 14 and 15, USER_HZ ticks
	priority, nice        int64  // fields 18 and 19
	threads               uint64 // field 20
	start                 uint64 // field 22, USER_HZ ticks after boot
	vsize, rssPages       uint64 // fields 23 (bytes) and 24 (pages)
	haveVsize, haveRSSPgs bool
}

// parsePIDStat parses one /proc/PID/stat (read from src); its errors say where, and the caller
// says whose (the Proc class's, or dcimon's own for the Monitor class). The command name is the
// process's to choose (prctl PR_SET_NAME, or the name of the file it ran) and may hold any byte
// but NUL: spaces, parentheses, newlines. So, as procps and htop do, the name runs from the
// first '(' to the last ')' of the whole file, not of its first line, and the fields are counted
// after it (issue 41 item 3: a newline in the name hid the process).
func parsePIDStat(src string, data []byte, dst *pidStat) error {
	open, paren := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || paren < open {
		line, _ := cutLine(data)
		return fmt.Errorf("parse %s line 1: %w: no \"(comm)\" (line %q)", src, errTooFewFields, cutQuote(line))
	}
	dst.comm = data[open+1 : paren]
	rest, _ := cutLine(data[paren+1:])
	var err error
	for field := 3; field <= 24; field++ {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			if field > 22 { // very old kernels stop early; vsize and rss are then unknown
				break
			}
			return fmt.Errorf("parse %s line 1: %w: got %d fields, want 24", src, errTooFewFields, field-1)
		}
		switch field {
		case 3:
			if len(f) != 1 || !(f[0] >= 'A' && f[0] <= 'Z' || f[0] >= 'a' && f[0] <= 'z') {
				return fmt.Errorf("parse %s line 1 field 3: state %q is not one letter", src, f)
			}
			dst.state = f[0]
		case 4:
			dst.ppid, err = parseUint(f)
		case 9:
			dst.flags, err = parseUint(f)
		case 10:
			dst.minflt, err = parseUint(f)
		case 12:
			dst.majflt, err = parseUint(f)
		case 14:
			dst.utime, err = parseUint(f)
		case 15:
			dst.stime, err = parseUint(f)
		case 18:
			dst.priority, err = parseInt(f)
		case 19:
			dst.nice, err = parseInt(f)
		case 20:
			dst.threads, err = parseUint(f)
		case 22:
			dst.start, err = parseUint(f)
		case 23:
			dst.vsize, err = parseUint(f)
			dst.haveVsize = err == nil
		case 24:
			// rss is a signed long in the kernel's format; a negative one is nonsense.
			dst.rssPages, err = parseUint(f)
			dst.haveRSSPgs = err == nil
		}
		if err != nil {
			return fmt.Errorf("parse %s line 1 field %d: %w", src, field, err)
		}
	}
	return nil
}

// cutQuote is at most the first 80 bytes of a line, for an error message.
func cutQuote(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}

// parseInt parses a signed decimal.
func parseInt(b []byte) (int64, error) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	u, err := parseUint(b)
	if err != nil {
		return 0, err
	}
	if u > 1<<63 || (!neg && u == 1<<63) {
		return 0, fmt.Errorf("%w: %s%d", errOverflow, map[bool]string{true: "-"}[neg], u)
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}

// procStatus is what the Proc class takes from /proc/PID/status.
type procStatus struct {
	uid         uint64 // Uid: line, the effective uid (the second), as top's USER
	vctx, nvctx uint64 // voluntary_ctxt_switches, nonvoluntary_ctxt_switches
	rssBytes    uint64 // VmRSS, kB ×1024: the kernel's exact resident size, as statm's and top's
	haveUID     bool
	haveCtx     bool
	haveRSS     bool
}

// parseProcStatus parses /proc/PID/status (read from src), the lines the class needs.
func parseProcStatus(src string, data []byte, dst *procStatus) error {
	*dst = procStatus{}
	var got int
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		k, v, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		var err error
		switch string(k) { // no allocation: the compiler compares in place
		case "Uid":
			var ids [2]uint64
			if _, _, err = parseUints(v, ids[:]); err == nil {
				dst.uid, dst.haveUID = ids[1], true
			}
		case "voluntary_ctxt_switches":
			dst.vctx, err = parseUint(trimSpace(v))
			got++
		case "nonvoluntary_ctxt_switches":
			dst.nvctx, err = parseUint(trimSpace(v))
			got++
		case "VmRSS":
			kb, _ := nextField(v) // "  1816 kB"
			if dst.rssBytes, err = parseUint(kb); err == nil && dst.rssBytes > (1<<64-1)/1024 {
				err = fmt.Errorf("%w: %d kB", errOverflow, dst.rssBytes)
			}
			dst.rssBytes *= 1024
			dst.haveRSS = err == nil
		default:
			continue
		}
		if err != nil {
			return fmt.Errorf("proc: parse %s line %d: %s: %w", src, n, k, err)
		}
	}
	dst.haveCtx = got == 2
	return nil
}

// procIO is /proc/PID/io.
type procIO struct {
	rchar, wchar, syscr, syscw, readBytes, writeBytes uint64
	have                                              uint8 // a bit per field read, in that order
}

// parseProcIO parses /proc/PID/io (read from src).
func parseProcIO(src string, data []byte, dst *procIO) error {
	*dst = procIO{}
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		k, v, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			if len(trimSpace(line)) == 0 {
				continue
			}
			return fmt.Errorf("proc: parse %s line %d: %w: want \"name: value\" (line %q)", src, n, errTooFewFields, cutQuote(line))
		}
		var p *uint64
		var bit uint8
		switch string(k) {
		case "rchar":
			p, bit = &dst.rchar, 1
		case "wchar":
			p, bit = &dst.wchar, 2
		case "syscr":
			p, bit = &dst.syscr, 4
		case "syscw":
			p, bit = &dst.syscw, 8
		case "read_bytes":
			p, bit = &dst.readBytes, 16
		case "write_bytes":
			p, bit = &dst.writeBytes, 32
		default:
			continue
		}
		x, err := parseUint(trimSpace(v))
		if err != nil {
			return fmt.Errorf("proc: parse %s line %d: %s: %w", src, n, k, err)
		}
		*p, dst.have = x, dst.have|bit
	}
	return nil
}

// cgroupOf picks the control group a person means from /proc/PID/cgroup: the unified (v2)
// hierarchy's path, or on a v1 or hybrid host whose v2 path is the root, the first v1
// controller's path below the root (cpu or memory first: where the limits are).
func cgroupOf(data []byte) string {
	var v2 []byte
	var best []byte
	rank := 99
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		// hierarchy-ID:controller-list:cgroup-path
		_, rest, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		ctrl, path, ok := bytes.Cut(rest, []byte{':'})
		if !ok {
			continue
		}
		if len(ctrl) == 0 {
			v2 = path
			continue
		}
		if len(path) <= 1 {
			continue
		}
		r := 50
		for i, want := range [][]byte{[]byte("cpu"), []byte("memory"), []byte("pids"), []byte("blkio"), []byte("name=systemd")} {
			if hasListItem(ctrl, want) {
				r = i
				break
			}
		}
		if r < rank {
			rank, best = r, path
		}
	}
	switch {
	case len(v2) > 1 || (v2 != nil && best == nil):
		return string(v2)
	case best != nil:
		return string(best)
	}
	return "/"
}

// hasListItem reports whether a comma-separated list holds item.
func hasListItem(list, item []byte) bool {
	for len(list) > 0 {
		var it []byte
		it, list, _ = bytes.Cut(list, []byte{','})
		if bytes.Equal(it, item) {
			return true
		}
	}
	return false
}

// cmdlineText turns /proc/PID/cmdline's NUL-separated arguments into one line, as ps prints it;
// at most maxCmdline bytes are kept. The text is kept as the kernel gave it otherwise: it is
// made safe for the terminal when shown (views.Safe), like every string from outside.
func cmdlineText(data []byte) string {
	data = bytes.TrimRight(data, "\x00")
	if len(data) > schema.MaxCmdline {
		// Cut on a character's first byte (issue 41 item 10): a UTF-8 character split in two
		// would show as two escapes of invalid bytes. Only a valid character is backed over.
		cut := schema.MaxCmdline
		for i := cut; i > cut-utf8.UTFMax && i > 0; i-- {
			if utf8.RuneStart(data[i]) {
				if r, n := utf8.DecodeRune(data[i:]); r != utf8.RuneError || n > 1 {
					cut = i
				}
				break
			}
		}
		data = append(data[:cut:cut], "…"...)
	}
	out := make([]byte, len(data))
	for i, c := range data {
		if c == 0 {
			c = ' '
		}
		out[i] = c
	}
	return string(out)
}

// parseStatmResident reads the resident size, in pages, from /proc/PID/statm (read from src):
// its second field, the counters VmRSS adds up (file, anon and shmem pages).
func parseStatmResident(src string, data []byte) (uint64, error) {
	_, rest, _ := bytes.Cut(bytes.TrimLeft(data, " "), []byte(" "))
	f, _, _ := bytes.Cut(rest, []byte(" "))
	f = bytes.TrimRight(f, "\n")
	v, err := parseUint(f)
	if err != nil || len(f) == 0 {
		return 0, fmt.Errorf("%s: resident size %q: not a number", src, f)
	}
	return v, nil
}

// parseSchedRun reads the time the process's main thread has run, in nanoseconds, from
// /proc/PID/schedstat (read from src): its first field (the scheduler's sum_exec_runtime). It
// moves whenever the thread runs, however briefly, so an unchanged value says the thread has
// not run since.
func parseSchedRun(src string, data []byte) (uint64, error) {
	f, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte(" "))
	v, err := parseUint(f)
	if err != nil || len(f) == 0 {
		return 0, fmt.Errorf("%s: run time %q: not a number", src, f)
	}
	return v, nil
}
