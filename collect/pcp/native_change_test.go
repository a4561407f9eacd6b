package pcp

import (
	"context"
	"net"
	"testing"

	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
)

// A fetch that pmcd answers after saying its agents changed (PMCD_RESTART_AGENT before the
// result) is decoded as asked, under the descriptors it was asked with, and the next fetch reads
// the name space again: the values are there, never a panic or a value of the wrong type
// (issue 38 item 3).
func TestNativeFetchAfterAgentChange(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f := newFleetPMCD(t, 2, 2, 1)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	s := nativeFleetSampler(t, l.Addr().String(), 2, 2)
	ctx := context.Background()
	want := func(label string) {
		t.Helper()
		snap, err := s.Sample(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range s.Status() {
			if st.LastErr != nil {
				t.Fatalf("%s: %+v", label, st)
			}
		}
		for _, p := range []string{"web0000/Mem/Real/total", "web0000/Host/load1", "web0000/CPU/cpu1/user"} {
			if v := collecttest.Value(t, s, snap, p); v.State != ns.Valid && v.State != ns.NoRate {
				t.Errorf("%s: %s: %+v", label, p, v)
			}
		}
		if v := collecttest.Value(t, s, snap, "web0000/Mem/Real/total"); v.State != ns.Valid || v.N == 0 {
			t.Errorf("%s: memory total %+v", label, v)
		}
	}
	f.change.Store(pcpwire.ChangeAgent)
	want("the fetch after the change")
	want("the fetch after that")
}
