package pcp

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
	"dcimon/pcpwire"
)

// fleetPMCD is a fake pmcd for scale, speaking PCP's protocol: every connection is the same host
// (fleetHost: every metric the mapping reads, ncpu processors, ndisk disks, nif interfaces), and
// its answers are made from pcpwire's encoders, so that a benchmark of many hosts measures
// dcimon, not the fake (which runs in a process of its own). Only the fetch's timestamp moves, a
// second a fetch, and the counters with it.
type fleetPMCD struct {
	m      *fleetModel
	pmid   map[string]uint32
	desc   map[uint32]pcpwire.Desc
	vals   map[uint32][]pcpwire.Value // by pmid: each instance's value, as sent
	valFmt map[uint32]uint32
	indoms map[uint32][]pcpwire.Instance
	sec    atomic.Int64
	// change, when set, is sent as the state-change flags before the next fetch's result (an
	// agent restarted), as pmcd sends them; then cleared.
	change atomic.Int32
}

func newFleetPMCD(tb testing.TB, ncpu, ndisk, nif int) *fleetPMCD {
	m := fleetHost(tb, ncpu, ndisk, nif)
	f := &fleetPMCD{m: m, pmid: map[string]uint32{}, desc: map[uint32]pcpwire.Desc{}, vals: map[uint32][]pcpwire.Value{},
		valFmt: map[uint32]uint32{}, indoms: map[uint32][]pcpwire.Instance{}}
	for dom, insts := range m.indoms {
		id, err := parseInDom(dom)
		if err != nil {
			tb.Fatal(err)
		}
		for _, in := range insts {
			f.indoms[id] = append(f.indoms[id], pcpwire.Instance{ID: int32(in.ID), Name: in.Name})
		}
	}
	for k, name := range m.order {
		d := m.descs[name]
		pmid := uint32(60)<<22 | uint32(k/1024)<<10 | uint32(k%1024)
		pd := pcpwire.Desc{PMID: pmid, InDom: pcpwire.InDomNull, Sem: int32(ns.PMSemInstant)}
		switch d.Type {
		case "string":
			pd.Type = pcpwire.TypeString
		case "float":
			pd.Type = pcpwire.TypeFloat
		default:
			pd.Type = pcpwire.TypeU64
		}
		if d.Sem == "counter" {
			pd.Sem = int32(ns.PMSemCounter)
		}
		if u, ok := ns.ParsePMUnits(d.Units); ok {
			if w, err := u.Pack(); err == nil {
				pd.Units = pcpwire.Units(w << 8)
			}
		}
		var insts []fleetInst
		if d.InDom != "" {
			pd.InDom, _ = parseInDom(d.InDom)
			insts = m.indoms[d.InDom]
		} else {
			insts = []fleetInst{{ID: pcpwire.InNull}}
		}
		f.pmid[name], f.desc[pmid] = pmid, pd
		f.valFmt[pmid] = pcpwire.ValDPtr
		if pd.Type == pcpwire.TypeFloat {
			f.valFmt[pmid] = pcpwire.ValInsitu
		}
		for j, in := range insts {
			v := pcpwire.Value{Inst: int32(in.ID)}
			switch x := m.val(k, j).(type) {
			case string:
				v.BlockType, v.Block = pcpwire.TypeString, append([]byte(x), 0)
			case float64:
				v.Insitu, v.Word = true, math.Float32bits(float32(x))
			case uint64:
				v.BlockType, v.Block = pcpwire.TypeU64, binary.BigEndian.AppendUint64(nil, x)
			}
			f.vals[pmid] = append(f.vals[pmid], v)
		}
	}
	return f
}

// serve answers one client until it goes.
func (f *fleetPMCD) serve(c net.Conn) {
	defer c.Close()
	const from = 0
	out := pcpwire.AppendGreeting(nil, pcpwire.Greeting{Version: pcpwire.ProtocolVersion, Licensed: 1,
		Features: pcpwire.FeatureDescs | pcpwire.FeatureLabels})
	if _, err := c.Write(out); err != nil {
		return
	}
	rd := pcpwire.NewReader(bufio.NewReader(c), pcpwire.MaxRequest)
	be := binary.BigEndian
	var res pcpwire.Result
	for {
		h, body, err := rd.Next()
		if err != nil {
			return
		}
		out = out[:0]
		switch h.Type {
		case pcpwire.TypeCreds, pcpwire.TypeProfile:
			continue // no answer
		case pcpwire.TypeLabelReq:
			out = pcpwire.AppendLabels(out, from, be.Uint32(body), int32(be.Uint32(body[4:])), []pcpwire.LabelSet{{Inst: pcpwire.InNull,
				JSON: `{"hostname":"fleet"}`, Labels: []pcpwire.Label{{Name: "hostname", Value: `"fleet"`}}}})
		case pcpwire.TypePMNSNames:
			names, _, err := pcpwire.DecodeNameList(body)
			if err != nil {
				return
			}
			ids := make([]uint32, len(names))
			found := 0
			for i, n := range names {
				ids[i] = pcpwire.PMIDNull
				if id, ok := f.pmid[n]; ok {
					ids[i] = id
					found++
				}
			}
			out = pcpwire.AppendIDList(out, pcpwire.TypePMNSIDs, from, int32(found), ids)
		case pcpwire.TypeDescIDs:
			n := int(be.Uint32(body[4:]))
			ds := make([]pcpwire.Desc, n)
			for i := range n {
				id := be.Uint32(body[8+4*i:])
				if d, ok := f.desc[id]; ok {
					ds[i] = d
				} else {
					ds[i] = pcpwire.Desc{PMID: pcpwire.PMIDNull}
				}
			}
			out = pcpwire.AppendDescs(out, from, ds)
		case pcpwire.TypeInstanceReq:
			indom := be.Uint32(body)
			out = pcpwire.AppendInstance(out, from, indom, f.indoms[indom])
		case pcpwire.TypeTextReq:
			out = pcpwire.AppendText(out, from, be.Uint32(body), "a metric of the fake fleet")
		case pcpwire.TypeFetch:
			n := int(be.Uint32(body[12:]))
			res.Time = time.Unix(1795600000+f.sec.Add(1), 5000000)
			res.Sets = res.Sets[:0]
			for i := range n {
				id := be.Uint32(body[16+4*i:])
				res.Sets = append(res.Sets, pcpwire.ValueSet{PMID: id, ValFmt: f.valFmt[id], Values: f.vals[id]})
			}
			if ch := f.change.Swap(0); ch != 0 {
				out = pcpwire.AppendError(out, from, pcpwire.Code(ch))
			}
			out = pcpwire.AppendResult(out, from, false, &res)
		default:
			out = pcpwire.AppendError(out, from, pcpwire.Code(-12351)) // PM_ERR_NYI
		}
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

// fleetProcess starts this test binary's fake server test (TestFleetProxyServe, TestFleetPMCDServe)
// in a process of its own, with env set, and returns the address it prints after prefix.
func fleetProcess(tb testing.TB, test, env, prefix string) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env)
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return u
		}
	}
	tb.Fatalf("the fake server process %s did not start: %v", test, sc.Err())
	return ""
}

// TestFleetPMCDServe is the fake pmcd's process for the native fleet benchmarks: with
// DCIMON_FLEET_PMCD=ncpu,ndisk,nif it serves a fleetPMCD on a loopback port, printing its
// address, until killed; without, there is nothing to do.
func TestFleetPMCDServe(t *testing.T) {
	spec := os.Getenv("DCIMON_FLEET_PMCD")
	if spec == "" {
		t.Skip("the fake pmcd process of BenchmarkNativeFleetSample; nothing to do on its own")
	}
	var ncpu, ndisk, nif int
	if _, err := fmt.Sscanf(spec, "%d,%d,%d", &ncpu, &ndisk, &nif); err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:0"
	if a := os.Getenv("DCIMON_FLEET_PMCD_ADDR"); a != "" {
		addr = a // scripts/soak.sh restarts it on the same address
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	f := newFleetPMCD(t, ncpu, ndisk, nif)
	fmt.Printf("FLEETPMCD %s\n", l.Addr())
	for {
		c, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		go f.serve(c)
	}
}

// nativeFleetSampler is a sampler of hosts hosts (ndisk disks each) read natively from the fake
// pmcd at addr, after two collections in which every disk of every host has its rate.
func nativeFleetSampler(tb testing.TB, addr string, hosts, ndisk int) *collect.Sampler {
	tb.Helper()
	hs := make([]Host, hosts)
	for i := range hs {
		hs[i] = Host{Name: fmt.Sprintf("web%04d", i), Spec: addr}
	}
	provs, err := Fleet(Options{}, hs)
	s := samplerOf(tb, provs, err, collect.Options{Deadline: 30 * time.Second})
	checkFleet(tb, s, hosts, ndisk)
	return s
}

// The fake pmcd of the benchmarks is read as a host: every class it maps has its values, so
// the benchmarks measure collections that work.
func TestNativeFleetFake(t *testing.T) {
	addr := fleetProcess(t, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	s := nativeFleetSampler(t, addr, 3, 16)
	snap, err := s.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"web0002/CPU/cpu7/user", "web0000/NetIf/eth3/bytes", "web0001/Mem/Real/total", "web0001/Host/load1"} {
		if v := collecttest.Value(t, s, snap, p); v.State != ns.Valid {
			t.Errorf("%s: %+v", p, v)
		}
	}
}

// BenchmarkNativeFleetSample is issue 31's budget: one collection of 100 and of 1,000 hosts (8
// processors, 16 disks, 4 interfaces each), each on its own connection to its pmcd (a fake one,
// in a process of its own), every mapped class fetched, decoded and synced into the next
// snapshot. cpu-ms/op is this process's CPU time; the budgets are 8 ms and ≤ 1,000
// allocations for 100 hosts, 80 ms for 1,000.
func BenchmarkNativeFleetSample(b *testing.B) {
	addr := fleetProcess(b, "TestFleetPMCDServe", "DCIMON_FLEET_PMCD=8,16,4", "FLEETPMCD ")
	for _, hosts := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			benchSamples(b, nativeFleetSampler(b, addr, hosts, 16))
		})
	}
}
