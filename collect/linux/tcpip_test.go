package linux

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// snmpSample is /proc/net/snmp as Linux 6.x prints it (Icmp lines left out).
const snmpSample = `Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits
Ip: 2 64 4012 0 0 0 0 0 4012 2971 0 0 0 0 0 0 0 0 0 2971
Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors
Tcp: 1 200 120000 -1 28 2 0 0 3 3976 2953 10 0 2 0
Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors
Udp: 35 0 0 36 0 0 0 0 0
`

const netstatSample = `TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops
TcpExt: 0 0 4 6
`

func TestParseSNMP(t *testing.T) {
	tab := snmpTable{}
	if err := parseSNMP("snmp", []byte(snmpSample), tab.visit); err != nil {
		t.Fatal(err)
	}
	if err := parseSNMP("netstat", []byte(netstatSample), tab.visit); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix, key string
		want        int64
	}{{"Tcp", "MaxConn", -1}, {"Tcp", "OutSegs", 2953}, {"Ip", "OutTransmits", 2971}, {"Udp", "OutDatagrams", 36}, {"TcpExt", "ListenDrops", 6}} {
		if v, ok := tab.get(c.prefix, c.key); !ok || v != c.want {
			t.Errorf("%s %s = %d %v, want %d", c.prefix, c.key, v, ok, c.want)
		}
	}
	for _, bad := range []string{"", "Tcp: A B\nUdp: 1 2\n", "Tcp: A B\nTcp: 1\n", "Tcp: A\nTcp: x\n", "Tcp: A\n"} {
		if err := parseSNMP("bad", []byte(bad), snmpTable{}.visit); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if tw, err := parseSockstat("s", []byte("sockets: used 10\nTCP: inuse 1 orphan 0 tw 7 alloc 1 mem 206\n")); err != nil || tw != 7 {
		t.Errorf("sockstat tw %d %v", tw, err)
	}
	for _, bad := range []string{"", "TCP: inuse 1\n", "TCP: tw x\n"} {
		if _, err := parseSockstat("s", []byte(bad)); err == nil {
			t.Errorf("sockstat %q parsed", bad)
		}
	}
}

// The provider's reading by position (readSNMP) of any text is the whole table's (parseSNMP)
// for the fields it wants, wherever the table parses; and what the table parsed prints back
// the same way and parses to the same table.
func FuzzParseSNMP(f *testing.F) {
	f.Add([]byte(snmpSample))
	f.Add([]byte(netstatSample))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := newTCPIPProvider(roots{}, &bootClock{})
		readErr := p.readSNMP("snmp", "fuzz", data)
		tab := snmpTable{}
		if err := parseSNMP("fuzz", data, tab.visit); err != nil {
			return
		}
		if readErr != nil {
			t.Fatalf("%q: the table parses, read by position: %v", data, readErr)
		}
		for prefix, keys := range p.want {
			for k, i := range keys {
				if v, ok := tab.get(prefix, k); ok != p.have[i] || ok && v != p.vals[i] {
					t.Fatalf("%q: %s.%s read by position %d (%v), in the table %d (%v)", data, prefix, k, p.vals[i], p.have[i], v, ok)
				}
			}
		}
		// What parsed prints back the same way and parses to the same table.
		var text []byte
		for p, m := range tab {
			var keys, vals []byte
			for k, v := range m {
				keys = append(append(keys, ' '), k...)
				vals = strconv.AppendInt(append(vals, ' '), v, 10)
			}
			text = append(append(append(append(text, p...), ':'), keys...), '\n')
			text = append(append(append(append(text, p...), ':'), vals...), '\n')
		}
		back := snmpTable{}
		if err := parseSNMP("back", text, back.visit); err != nil || !reflect.DeepEqual(back, tab) {
			t.Fatalf("%q parsed to %v, printed %q, parsed back to %v (%v)", data, tab, text, back, err)
		}
	})
}

func FuzzParseSockstat(f *testing.F) {
	f.Add([]byte("sockets: used 10\nTCP: inuse 1 orphan 0 tw 7 alloc 1 mem 206\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseSockstat("fuzz", data)
	})
}

// issue 19: TCP, UDP and IP from /proc/net/snmp, netstat and sockstat; the retransmit share is
// retranssegs / (retranssegs + outsegs) over the interval; a tree without the files is n/a
// (not supported), never 0.
func TestTCPIPProvider(t *testing.T) {
	t.Parallel()
	rt := newRewriteTree(t, "basic")
	rt.step(0)
	if v := rt.h.Value("TCP/insegs"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotSupported {
		t.Fatalf("no /proc/net/snmp: %+v", v)
	}
	dir := filepath.Join(rt.dir, "proc", "net")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("snmp", snmpSample)
	write("netstat", netstatSample)
	write("sockstat", "TCP: inuse 1 orphan 0 tw 7 alloc 1 mem 206\n")
	rt.step(time.Second)
	write("snmp", replaceOnce(snmpSample, "3 3976 2953 10 0 2 0", "3 4976 3943 20 0 2 0"))
	write("netstat", "TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops\nTcpExt: 0 0 5 8\n")
	rt.step(time.Second)
	checks := []struct {
		path string
		want float64
	}{
		{"TCP/insegs", 1000}, {"TCP/outsegs", 990}, {"TCP/retranssegs", 10}, {"TCP/currestab", 3}, {"TCP/timewait", 7},
		{"TCP/listenoverflows", 1}, {"TCP/listendrops", 2}, {"TCP/retrans_pct", 0.01}, {"UDP/outdatagrams", 0},
	}
	for _, c := range checks {
		v := rt.h.Value(c.path)
		if v.State != ns.Valid || v.V < c.want-1e-9 || v.V > c.want+1e-9 {
			t.Errorf("%s = %+v, want %g", c.path, v, c.want)
		}
	}
}

func replaceOnce(s, old, new string) string {
	i := len(s)
	for j := 0; j+len(old) <= len(s); j++ {
		if s[j:j+len(old)] == old {
			i = j
			break
		}
	}
	if i == len(s) {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// readSNMP reads the wanted fields by their positions, learned from each header and learned
// again when the kernel prints another; of a values line it looks at the wanted fields only, so
// a field nobody reads (IpExt's, MPTcpExt's) is never parsed (issue 38 item 4).
func TestTCPIPReadsByPosition(t *testing.T) {
	p := newTCPIPProvider(roots{}, &bootClock{})
	read := func(file, data string) map[string]int64 {
		t.Helper()
		clear(p.have)
		if err := p.readSNMP(file, file, []byte(data)); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		got := map[string]int64{}
		for prefix, keys := range p.want {
			for k, i := range keys {
				if p.have[i] {
					got[prefix+"."+k] = p.vals[i]
				}
			}
		}
		return got
	}
	// What the table of every field says of the wanted ones.
	tab := snmpTable{}
	for _, s := range []string{snmpSample, netstatSample} {
		if err := parseSNMP("t", []byte(s), tab.visit); err != nil {
			t.Fatal(err)
		}
	}
	check := func(got map[string]int64, prefixes ...string) {
		t.Helper()
		for _, prefix := range prefixes {
			for k := range p.want[prefix] {
				if want, ok := tab.get(prefix, k); ok && got[prefix+"."+k] != want {
					t.Errorf("%s.%s = %d, want %d", prefix, k, got[prefix+"."+k], want)
				}
			}
		}
	}
	for range 2 { // learned, then by the positions kept
		check(read("snmp", snmpSample), "Ip", "Tcp", "Udp")
		check(read("netstat", netstatSample), "TcpExt")
	}
	// Another kernel's order, a field more: learned again.
	got := read("netstat", "TcpExt: ListenDrops New ListenOverflows\nTcpExt: 9 1 8\n")
	if got["TcpExt.ListenDrops"] != 9 || got["TcpExt.ListenOverflows"] != 8 {
		t.Errorf("a header moved: %v", got)
	}
	// A field nobody reads is not looked at: not parsed, not an error.
	got = read("netstat", "TcpExt: ListenOverflows ListenDrops Other\nTcpExt: 4 6 x\nIpExt: InNoRoutes\nIpExt: y\n")
	if got["TcpExt.ListenDrops"] != 6 || got["TcpExt.ListenOverflows"] != 4 {
		t.Errorf("unread fields: %v", got)
	}
	// A wanted field that is not a number, or missing, is the file's error as before.
	for _, bad := range []string{"TcpExt: ListenOverflows ListenDrops\nTcpExt: 4 x\n", "TcpExt: ListenOverflows ListenDrops\nTcpExt: 4\n",
		"TcpExt: A\nIpExt: 1\n", ""} {
		if err := p.readSNMP("netstat", "netstat", []byte(bad)); err == nil {
			t.Errorf("%q read", bad)
		}
	}
	// Steady: nothing allocated once the positions are learned.
	data := []byte(snmpSample)
	if n := testing.AllocsPerRun(20, func() { _ = p.readSNMP("snmp", "snmp", data) }); n != 0 {
		t.Errorf("%v allocations a read, want 0", n)
	}
}
