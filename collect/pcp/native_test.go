package pcp

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
	"dcimon/pmproxy"
)

// PCPF-6: a native value is read as its descriptor's type says, into the same reading the REST
// path makes of pmproxy's text; a value not sent as its type, or one that does not fit the
// datum's unit, is no number and says why (issue 31).
func TestNativeValue(t *testing.T) {
	u64 := func(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }
	for _, tt := range []struct {
		name string
		v    pcpwire.Value
		typ  int32
		mult float64
		want ns.Raw
	}{
		{"u32 in the set", pcpwire.Value{Inst: 3, Insitu: true, Word: 4000000000}, pcpwire.TypeU32, 1, ns.RawN(4000000000)},
		{"u64 block", pcpwire.Value{Block: u64(1 << 60)}, pcpwire.TypeU64, 1, ns.RawN(1 << 60)},
		{"u64 in KiB to bytes", pcpwire.Value{Block: u64(3)}, pcpwire.TypeU64, 1024, ns.RawN(3072)},
		{"u64 that does not fit in bytes", pcpwire.Value{Block: u64(math.MaxUint64 / 2)}, pcpwire.TypeU64, 1024,
			ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonOverflow}},
		{"32 negative", pcpwire.Value{Insitu: true, Word: uint32(0xfffffffe)}, pcpwire.Type32, 1, ns.RawN(uint64(math.MaxUint64 - 1))},
		{"double", pcpwire.Value{Block: u64(math.Float64bits(2.5))}, pcpwire.TypeDouble, 2, ns.RawN(5)},
		{"float in the set", pcpwire.Value{Insitu: true, Word: math.Float32bits(1.5)}, pcpwire.TypeFloat, 10, ns.RawN(15)},
		{"NaN", pcpwire.Value{Block: u64(math.Float64bits(math.NaN()))}, pcpwire.TypeDouble, 1,
			ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonNotANumber}},
		{"string", pcpwire.Value{Block: []byte("ext4\x00\x00")}, pcpwire.TypeString, 0, ns.RawS("ext4")},
		{"u64 sent as a word", pcpwire.Value{Insitu: true, Word: 7}, pcpwire.TypeU64, 1,
			ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}},
		{"u32 sent as 3 bytes", pcpwire.Value{Block: []byte{1, 2, 3}}, pcpwire.TypeU32, 1,
			ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pv := nativeValue(tt.v, tt.typ)
			if pv.Instance != int64(tt.v.Inst) {
				t.Errorf("instance %d, want %d", pv.Instance, tt.v.Inst)
			}
			got := pcpRaw(pv, ns.PMType(tt.typ).Word(), tt.mult)
			if got != tt.want {
				t.Errorf("%+v (value %q), want %+v", got, pv.String(), tt.want)
			}
		})
	}
}

func TestParseInDom(t *testing.T) {
	for s, want := range map[string]uint32{"60.1": 60<<22 | 1, "2.4194303": 2<<22 | 4194303, "511.0": 511 << 22} {
		if got, err := parseInDom(s); err != nil || got != want {
			t.Errorf("%s: %x %v, want %x", s, got, err, want)
		}
	}
	for _, s := range []string{"", "60", "60.", "512.1", "1.4194304", "a.b", "-1.2"} {
		if _, err := parseInDom(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// pmproxy's typed values read back as the REST path's text does, and refuse what they cannot
// be exactly.
func TestTypedValues(t *testing.T) {
	if n, err := pmproxy.Int(0, -5).Uint64(); err == nil {
		t.Errorf("-5 as unsigned: %d", n)
	}
	if n, err := pmproxy.Uint(0, math.MaxUint64).Int64(); err == nil {
		t.Errorf("2⁶⁴-1 as signed: %d", n)
	}
	if n, err := pmproxy.Float(0, 2.5).Int64(); err == nil {
		t.Errorf("2.5 as an integer: %d", n)
	}
	if x, err := pmproxy.Uint(0, 1<<53).Float64(); err != nil || x != 1<<53 {
		t.Errorf("2⁵³ as a float: %v %v", x, err)
	}
	if s := pmproxy.Int(0, -7).String(); s != "-7" {
		t.Errorf("String: %q", s)
	}
}

// fleetOf is a sampler of the hosts, read natively, with the collection deadline given (the
// probe's at start too: a host whose probe misses it is declared again with its own figures at
// its first reading, and its values come a reading later, which these tests do not wait for).
func fleetOf(t *testing.T, deadline time.Duration, hosts ...Host) *collect.Sampler {
	t.Helper()
	provs, err := Fleet(Options{Deadline: deadline, ProbeDeadline: deadline}, hosts)
	return samplerOf(t, provs, err, collect.Options{Deadline: deadline})
}

// statusOf is the status of host's provider.
func statusOf(s *collect.Sampler, host string) collect.ProviderStatus {
	for _, st := range s.Status() {
		if st.Supplier.Module == "pcp:"+host {
			return st
		}
	}
	return collect.ProviderStatus{}
}

// Issue 31: one host that accepts and never answers, and one that closes in the middle of a
// PDU, degrade only their own classes: the good hosts (direct, and relayed by pmproxy) have
// their rates at every reading, no reading waits past the deadline, and the host that was cut
// comes back by itself with no rate across the new connection.
func TestNativeFleetFaults(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	p := pcptest.Start(t)
	relay := pcptest.StartRelay(t, p.Hostspec())
	const deadline = 2 * time.Second
	s := fleetOf(t, deadline, Host{"good", p.Hostspec()}, Host{"relayed", p.ProxyHostspec()},
		Host{"hung", pcptest.Hung(t)}, Host{"cut", relay.Addr})
	ctx := context.Background()
	sample := func(i int) *ns.Snapshot {
		t0 := time.Now()
		snap, err := s.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The hung host costs the deadline, never more: it holds up no one.
		if d := time.Since(t0); d > deadline+time.Second {
			t.Errorf("reading %d took %v (deadline %v)", i, d, deadline)
		}
		return snap
	}
	sample(0)
	var snap *ns.Snapshot
	for i := 1; i <= 3; i++ {
		time.Sleep(200 * time.Millisecond)
		if i == 3 {
			relay.Cut()
		}
		snap = sample(i)
		for _, h := range []string{"good", "relayed"} {
			if v := collecttest.Value(t, s, snap, h+"/CPU/busy"); v.State != ns.Valid {
				t.Errorf("reading %d: %s/CPU/busy %+v beside a hung host (status %+v)", i, h, v, statusOf(s, h))
			}
		}
		if v, _, ok := snap.Lookup(mustRef(t, s, "hung/CPU/busy")); ok && v.State == ns.Valid {
			t.Errorf("reading %d: a value from the host that never answers: %+v", i, v)
		}
	}
	if st := statusOf(s, "hung"); (st.State != "failing" && st.State != "busy") || st.LastErr == nil || !strings.Contains(st.LastErr.Error(), "no answer") {
		t.Errorf("hung host: %s, %v; want failing with no answer in time", st.State, st.LastErr)
	}
	if relay.Cuts() != 1 {
		t.Fatalf("the relay cut %d connections", relay.Cuts())
	}
	st := statusOf(s, "cut")
	if st.LastErr == nil || !strings.Contains(st.LastErr.Error(), "middle of a PDU") {
		t.Errorf("cut host: %s, %v; want the PDU cut said", st.State, st.LastErr)
	}
	// Back after its backoff (a second, give or take half), on a new connection: a reset, so
	// no rate across it, and then rates again.
	reset := st.Supplier.Reset
	var back bool
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		time.Sleep(400 * time.Millisecond)
		snap = sample(9)
		if v := collecttest.Value(t, s, snap, "cut/CPU/busy"); v.State == ns.Valid && statusOf(s, "cut").Supplier.Reset != reset {
			back = true
			if v.V > 100.5 {
				t.Errorf("cut/CPU/busy %v%% across the new connection", v.V)
			}
			break
		}
	}
	if !back {
		t.Fatalf("the cut host did not come back: %+v", statusOf(s, "cut"))
	}
}

func mustRef(t *testing.T, s *collect.Sampler, path string) ns.Ref {
	t.Helper()
	ref, err := s.Registry().Lookup(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// Issue 31: two pmcds read through 20 hostspecs (each directly and through its pmproxy, several
// times under other names): every host its own connection and its own classes, each with rates.
func TestNativeTwentyHostspecs(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	ps := []*pcptest.PCP{pcptest.Start(t), pcptest.Start(t)}
	var hosts []Host
	for i := range 20 {
		p := ps[i%2]
		spec := p.Hostspec()
		if i%4 >= 2 {
			spec = p.ProxyHostspec()
		}
		hosts = append(hosts, Host{Name: fmt.Sprintf("h%02d", i), Spec: spec})
	}
	s := fleetOf(t, 10*time.Second, hosts...)
	snap := readTwice(t, s)
	for _, h := range hosts {
		if v := collecttest.Value(t, s, snap, h.Name+"/CPU/busy"); v.State != ns.Valid {
			t.Errorf("%s (%s): CPU/busy %+v, status %+v", h.Name, h.Spec, v, statusOf(s, h.Name))
		}
		if v := collecttest.Value(t, s, snap, h.Name+"/Mem/Real/total"); v.State != ns.Valid || v.N == 0 {
			t.Errorf("%s: Mem/Real/total %+v", h.Name, v)
		}
		if st := statusOf(s, h.Name); st.State != "ok" || !strings.Contains(st.Supplier.Description, "over PCP's own protocol") {
			t.Errorf("%s: %s, %q", h.Name, st.State, st.Supplier.Description)
		}
	}
}
