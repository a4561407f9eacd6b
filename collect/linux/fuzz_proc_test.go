package linux

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParsePIDStat: never panics; what it accepts has a state and a command name inside the
// line, and parsing twice gives the same.
func FuzzParsePIDStat(f *testing.F) {
	f.Add([]byte("42 (bash) S 1 42 42 34816 42 4194304 1500 0 3 0 120 30 0 0 20 0 1 0 5000 10000000 900 18446744073709551615"))
	f.Add([]byte("7 (a) b (c)) R 2 0 0 0 -1 2129984 0 0 0 0 5 6 0 0 -51 -20 3 0 77 0 0"))
	f.Add([]byte("1 ( S"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a, b pidStat
		ea, eb := parsePIDStat("fuzz", data, &a), parsePIDStat("fuzz", data, &b)
		if (ea == nil) != (eb == nil) || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("two parses differ: %+v %v / %+v %v", a, ea, b, eb)
		}
		if ea == nil && (a.state == 0 || len(a.comm) > len(data)) {
			t.Fatalf("accepted without a state: %+v", a)
		}
	})
}

// FuzzParseProcStatusIO: never panics; a value read is the number on its line.
func FuzzParseProcStatusIO(f *testing.F) {
	f.Add([]byte("Uid:\t1\t2\t3\t4\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t6\n"))
	f.Add([]byte("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st procStatus
		if err := parseProcStatus("fuzz", data, &st); err == nil && st.haveCtx && !strings.Contains(string(data), fmt.Sprint(st.vctx)) {
			t.Fatalf("vctx %d is not in the input", st.vctx)
		}
		var io procIO
		if err := parseProcIO("fuzz", data, &io); err == nil && io.have&16 != 0 && !strings.Contains(string(data), fmt.Sprint(io.readBytes)) {
			t.Fatalf("read_bytes %d is not in the input", io.readBytes)
		}
	})
}

// FuzzParseCgroupFiles: the control-group parsers never panic, and a path found is in the input.
func FuzzParseCgroupFiles(f *testing.F) {
	f.Add([]byte("0::/user.slice\n4:memory:/a\n"))
	f.Add([]byte("8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0\n"))
	f.Add([]byte("8:0 Read 4096\n8:0 Write 1\nTotal 4097\n"))
	f.Add([]byte("root:x:0:0::/:/bin/sh\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p := cgroupOf(data); p != "/" && !strings.Contains(string(data), p) {
			t.Fatalf("cgroupOf = %q, not in the input", p)
		}
		_, _ = parseIOStat("fuzz", data)
		_, _ = parseBlkio("fuzz", data, nil, false)
		names := map[uint64]string{}
		parsePasswd(data, names)
		for _, n := range names {
			if !strings.Contains(string(data), n+":") {
				t.Fatalf("user %q is not in the input", n)
			}
		}
	})
}
