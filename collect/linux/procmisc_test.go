package linux

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMeminfo(t *testing.T) {
	t.Parallel()
	in := "MemTotal:       24684096 kB\nMemFree:        24345376 kB\nMemAvailable:   24366760 kB\n" +
		"Active(anon):       1512 kB\nHugePages_Total:       0\nCommitted_AS:     123 kB\nSwapTotal:  0 kB\n"
	var m memInfo
	if err := parseMeminfo("/proc/meminfo", []byte(in), &m); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[memKey]uint64{memTotal: 24684096 * 1024, memFree: 24345376 * 1024,
		memAvailable: 24366760 * 1024, memCommittedAS: 123 * 1024, memSwapTotal: 0} {
		if got, ok := m.get(k); !ok || got != want {
			t.Errorf("%s = %d, %v; want %d", k, got, ok, want)
		}
	}
	// Absent is not zero.
	if _, ok := m.get(memSwapFree); ok {
		t.Errorf("SwapFree present")
	}

	bad := "MemTotal: 10 kB\nMemFree: x kB\nBuffers: 5 MB\nno colon here\nCached: 99999999999999999 kB\n\n"
	err := parseMeminfo("/proc/meminfo", []byte(bad), &m)
	checkLineErrs(t, err, []string{
		`mem: parse /proc/meminfo line 2: not a decimal number: "x"`,
		`line 3: unit "MB", want kB`,
		`line 4: too few fields: no "key:"`,
		`line 5: number out of range`,
	})
	if got, ok := m.get(memTotal); !ok || got != 10240 {
		t.Errorf("MemTotal = %d, %v after bad lines", got, ok)
	}
	if err := parseMeminfo("m", []byte("Foo: 1 kB\n"), &m); !errors.Is(err, errNoData) {
		t.Errorf("no known keys: %v, want errNoData", err)
	}
	if memKey(-1).String() != "memKey(-1)" || memCommittedAS.String() != "Committed_AS" {
		t.Errorf("String")
	}
}

func TestParseVMStat(t *testing.T) {
	t.Parallel()
	in := "nr_free_pages 6086344\npgpgin 667117\npgpgout 476476\npswpin 0\npswpout 3\npgfault 4512265\npgmajfault 1139\n"
	var s vmStat
	if err := parseVMStat("/proc/vmstat", []byte(in), &s); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[vmKey]uint64{vmPgpgin: 667117 * 1024, vmPgpgout: 476476 * 1024, vmPswpin: 0,
		vmPswpout: 3, vmPgfault: 4512265, vmPgmajfault: 1139} {
		if got, ok := s.get(k); !ok || got != want {
			t.Errorf("%s = %d, %v; want %d", k, got, ok, want)
		}
	}
	err := parseVMStat("/proc/vmstat", []byte("pgpgin\npgpgout 18014398509481984\npswpin 1\n"), &s)
	checkLineErrs(t, err, []string{`line 1: not a decimal number: empty`, `line 2: number out of range`})
	if _, ok := s.get(vmPgpgin); ok {
		t.Errorf("pgpgin present after a bad line")
	}
	if err := parseVMStat("v", nil, &s); !errors.Is(err, errNoData) {
		t.Errorf("empty: %v", err)
	}
	if vmKey(6).String() != "vmKey(6)" || vmPgmajfault.String() != "pgmajfault" {
		t.Errorf("String")
	}
}

func TestParseLoadAvg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    loadAvg
		wantErr string
	}{
		{"0.38 0.27 0.15 1/82 7287\n", loadAvg{38, 27, 15, 1, 82, 7287}, ""},
		{"12.00 100.50 0.05 10/1000 1", loadAvg{1200, 10050, 5, 10, 1000, 1}, ""},
		{"0.38 0.27\n", loadAvg{}, "not a decimal number: empty"},
		{"0.38 0.27 0.15 182 7287\n", loadAvg{}, "want running/threads"},
		{"0.38 0.27 0.15 1/x 7287\n", loadAvg{}, `not a decimal number: "x"`},
		{"0.38 0.27 0.15 1/82\n", loadAvg{}, "not a decimal number: empty"},
		{"", loadAvg{}, "host: parse /proc/loadavg line 1"},
	}
	for _, tt := range tests {
		got, err := parseLoadAvg("/proc/loadavg", []byte(tt.in))
		if got != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("parseLoadAvg(%q) = %+v, %v; want %+v, %q", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseUptime(t *testing.T) {
	t.Parallel()
	got, err := parseUptime("/proc/uptime", []byte("492.85 851.04\n"))
	if err != nil || got != (uptime{49285, 85104}) {
		t.Errorf("parseUptime = %+v, %v", got, err)
	}
	for _, in := range []string{"", "492.85\n", "4x 1\n", "1.234 1\n"} {
		if _, err := parseUptime("/proc/uptime", []byte(in)); err == nil || !strings.HasPrefix(err.Error(), "host: parse /proc/uptime line 1") {
			t.Errorf("parseUptime(%q) error = %v", in, err)
		}
	}
}

func TestParseSelf(t *testing.T) {
	t.Parallel()
	stat := "7311 (my (odd) cmd) R 7272 7267 4348 0 -1 4194304 122 0 7 0 25 13 0 0 20 0 3 0 49287 3133440 382 18446744073709551615\n"
	var s selfStat
	if err := parseSelfStat("/proc/self/stat", []byte(stat), &s); err != nil {
		t.Fatal(err)
	}
	if s.minflt != 122 || s.majflt != 7 || s.utimeTicks != 25 || s.stimeTicks != 13 || s.threads != 3 {
		t.Errorf("parseSelfStat = %+v", s)
	}
	if err := parseStatm("/proc/self/statm", []byte("765 409 380 5 0 123 0\n"), 4096, &s); err != nil {
		t.Fatal(err)
	}
	if s.vmBytes != 765*4096 || s.rssBytes != 409*4096 {
		t.Errorf("parseStatm = %+v", s)
	}
	for _, in := range []string{"", "1 cmd R 1 2\n", "1 (cmd) R 1 2 3\n", "1 (cmd) R 1 2 3 4 5 6 7 8 9 10 x 12 13 14 15 16 17 18\n"} {
		if err := parseSelfStat("/proc/self/stat", []byte(in), &s); err == nil || !strings.HasPrefix(err.Error(), "self: parse /proc/self/stat line 1") {
			t.Errorf("parseSelfStat(%q) error = %v", in, err)
		}
	}
	for _, in := range []string{"", "765\n", "a b\n"} {
		if err := parseStatm("/proc/self/statm", []byte(in), 4096, &s); err == nil {
			t.Errorf("parseStatm(%q) succeeded", in)
		}
	}
}

func TestSysfsValueParsers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]struct {
		bps   uint64
		known bool
	}{"1000\n": {1e9, true}, "-1\n": {0, false}, "0": {0, false}, "": {0, false}, "x": {0, false},
		"100000": {100e9, true}, "9223372036854775807": {0, false}} {
		bps, known := parseSpeed([]byte(in))
		if bps != want.bps || known != want.known {
			t.Errorf("parseSpeed(%q) = %d, %v; want %d, %v", in, bps, known, want.bps, want.known)
		}
	}
	for in, want := range map[string]uint64{"0x1003\n": 0x1003, "0x9": iffUp | iffLoopback, "0X82": 0x82} {
		if got, err := parseHex([]byte(in)); err != nil || got != want {
			t.Errorf("parseHex(%q) = %#x, %v", in, got, err)
		}
	}
	for _, in := range []string{"1003", "0x", "0xzz", ""} {
		if _, err := parseHex([]byte(in)); !errors.Is(err, errNotNumber) {
			t.Errorf("parseHex(%q) error = %v", in, err)
		}
	}
	if ma, mi, err := parseDevNum([]byte("259:2\n")); err != nil || ma != 259 || mi != 2 {
		t.Errorf("parseDevNum = %d:%d, %v", ma, mi, err)
	}
	for _, in := range []string{"259", "x:1", "1:x", "4294967296:0"} {
		if _, _, err := parseDevNum([]byte(in)); err == nil {
			t.Errorf("parseDevNum(%q) succeeded", in)
		}
	}
	if v, err := parseBool01("ro", []byte("1\n")); err != nil || !v {
		t.Errorf("parseBool01(1) = %v, %v", v, err)
	}
	if _, err := parseBool01("ro", []byte("2\n")); err == nil {
		t.Errorf("parseBool01(2) succeeded")
	}
	udev := []byte("S:disk/by-id/x\nE:ID_SERIAL_SHORT=short\nE:ID_SERIAL=Evil Disk 42\nE:ID_SERIAL=second\nE:X\n")
	if v, ok := udevProperty(udev, "ID_SERIAL"); !ok || v != "Evil Disk 42" {
		t.Errorf("udevProperty = %q, %v", v, ok)
	}
	if _, ok := udevProperty(udev, "ID_MODEL"); ok {
		t.Errorf("udevProperty found a missing key")
	}
}

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"eth0", "my if", "\x1b[31mred", "caf\xe9", "..."} {
		if err := checkName(name); err != nil {
			t.Errorf("checkName(%q) = %v", name, err)
		}
	}
	for _, name := range []string{"", ".", "..", "../etc", "a/b", "a\x00b"} {
		if err := checkName(name); !errors.Is(err, errBadName) {
			t.Errorf("checkName(%q) = %v, want errBadName", name, err)
		}
	}
}

func TestNetIfRunning(t *testing.T) {
	t.Parallel()
	tests := []struct {
		flags     uint64
		operstate string
		want      bool
	}{
		{iffUp | iffBroadcast | iffMulticast, "up", true},
		{iffUp | iffLoopback, "unknown", true},
		{iffUp, "down", false},
		{iffUp, "lowerlayerdown", false},
		{iffBroadcast, "up", false},
		{iffRunning, "up", false}, // sysfs never has it, and it does not imply up
	}
	for _, tt := range tests {
		n := netIf{flags: tt.flags, operstate: tt.operstate}
		if got := n.running(); got != tt.want {
			t.Errorf("running(%#x, %s) = %v, want %v", tt.flags, tt.operstate, got, tt.want)
		}
	}
}
