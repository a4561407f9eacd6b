package pcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// fleetProxy is a fake pmproxy for scale: every hostspec is the same host, with ncpu processors,
// ndisk disks and nif interfaces and every metric the mapping table names, its answers encoded
// once so that a benchmark measures dcimon rather than the fake. Only the fetch's timestamp
// moves, a second a fetch.
type fleetProxy struct {
	metric, indom map[string][]byte // by query
	fetch         [2][]byte         // the fetch answer around its timestamp
	sec           atomic.Int64
	contexts      atomic.Int64
}

// fleetInst and fleetDesc are an instance and a descriptor of fleetHost, as pmproxy writes them.
type fleetInst struct {
	ID   int64  `json:"instance"`
	Name string `json:"name"`
}

type fleetDesc struct {
	Name  string `json:"name"`
	InDom string `json:"indom,omitempty"`
	Type  string `json:"type"`
	Sem   string `json:"sem"`
	Units string `json:"units"`
}

// fleetModel is the one host every hostspec of the fake fleets is: every metric the mapping reads
// (order), its descriptor, the instance domains, and each value: val(k, j) of metric k's instance j.
type fleetModel struct {
	order  []string
	descs  map[string]fleetDesc
	indoms map[string][]fleetInst
}

func (m *fleetModel) val(k, j int) any {
	switch m.descs[m.order[k]].Type {
	case "string":
		return fmt.Sprintf("/mnt/%d", j)
	case "float":
		return 0.5 + float64(j)
	}
	return uint64(1000*k + 17*j)
}

// fleetHost is a host of ncpu processors, ndisk disks and nif interfaces.
func fleetHost(tb testing.TB, ncpu, ndisk, nif int) *fleetModel {
	tb.Helper()
	decl, classes := pcpMapping(ncpu, 16<<30)
	reg := ns.NewRegistry() // completes each datum's PCP units, as the sampler's does
	for _, c := range decl {
		if err := reg.RegisterClass(c); err != nil {
			tb.Fatal(err)
		}
	}
	type inst = fleetInst
	indoms := map[string][]inst{}
	for i := range ncpu {
		indoms["60.0"] = append(indoms["60.0"], inst{int64(i), fmt.Sprintf("cpu%d", i)})
	}
	for i := range ndisk {
		indoms["60.1"] = append(indoms["60.1"], inst{int64(i), fmt.Sprintf("sd%c", 'a'+i%26)})
	}
	for i := range nif {
		indoms["60.3"] = append(indoms["60.3"], inst{int64(i), fmt.Sprintf("eth%d", i)})
	}
	indoms["60.5"] = []inst{{0, "/dev/sda1"}, {1, "/dev/sdb1"}}
	indoms["60.2"] = []inst{{1, "1 minute"}, {5, "5 minute"}, {15, "15 minute"}}
	indoms["60.10"] = nil
	domOf := func(m string) string {
		switch {
		case strings.HasPrefix(m, "kernel.percpu."):
			return "60.0"
		case strings.HasPrefix(m, "disk.dev."):
			return "60.1"
		case strings.HasPrefix(m, "disk.partitions."):
			return "60.10"
		case strings.HasPrefix(m, "network.interface."):
			return "60.3"
		case strings.HasPrefix(m, "filesys."):
			return "60.5"
		case m == "kernel.all.load" || strings.HasSuffix(m, ".avg"):
			return "60.2"
		}
		return ""
	}
	type desc = fleetDesc
	descs := map[string]desc{}
	var order []string
	add := func(m string, d *ns.Datum) {
		if _, ok := descs[m]; ok || m == schema.MetricClock || m == schema.MetricConst {
			return
		}
		typ, sem := "u64", "instant"
		switch {
		case d.IsText():
			typ = "string"
		case m == "kernel.all.load" || strings.HasSuffix(m, ".avg"):
			typ = "float"
		}
		if d.IsCounter() {
			sem = "counter"
		}
		descs[m] = desc{Name: m, InDom: domOf(m), Type: typ, Sem: sem, Units: d.PCP.Units.String()}
		order = append(order, m)
	}
	for _, pc := range classes {
		rows := [][]pcpDatum{pc.Datums}
		if pc.Fixed != nil {
			rows = pc.perFixed
		}
		for _, ds := range rows {
			for _, m := range ds {
				if i := pc.Class.DatumIndex(ns.DatumID(m.Datum)); i >= 0 {
					add(m.Metric, &pc.Class.Datums[i])
				}
			}
		}
		if pc.NameMetric != "" {
			add(pc.NameMetric, &ns.Datum{Type: ns.TypeTextString})
		}
	}
	return &fleetModel{order: order, descs: descs, indoms: indoms}
}

func newFleetProxy(tb testing.TB, ncpu, ndisk, nif int) *fleetProxy {
	tb.Helper()
	model := fleetHost(tb, ncpu, ndisk, nif)
	order, descs, indoms := model.order, model.descs, model.indoms
	p := &fleetProxy{metric: map[string][]byte{}, indom: map[string][]byte{}}
	for dom, insts := range indoms {
		b, _ := json.Marshal(map[string]any{"indom": dom, "instances": insts})
		p.indom[dom] = b
	}
	// Every metric's descriptors at once, as the provider asks for them, and each alone.
	all := make([]fleetDesc, 0, len(order))
	for _, m := range order {
		all = append(all, descs[m])
		b, _ := json.Marshal(map[string]any{"metrics": []fleetDesc{descs[m]}})
		p.metric[m] = b
	}
	b, _ := json.Marshal(map[string]any{"metrics": all})
	p.metric["*"] = b
	type value struct {
		Instance *int64 `json:"instance"`
		Value    any    `json:"value"`
	}
	var values []map[string]any
	for k, m := range order {
		d := descs[m]
		var vs []value
		val := func(j int) any {
			if n, ok := model.val(k, j).(uint64); ok {
				return json.Number(fmt.Sprint(n))
			}
			return model.val(k, j)
		}
		if d.InDom == "" {
			vs = append(vs, value{Value: val(0)})
		}
		for j, in := range indoms[d.InDom] {
			id := in.ID
			vs = append(vs, value{Instance: &id, Value: val(j)})
		}
		values = append(values, map[string]any{"name": m, "instances": vs})
	}
	body, err := json.Marshal(map[string]any{"timestamp": "@TS@", "values": values})
	if err != nil {
		tb.Fatal(err)
	}
	before, after, _ := strings.Cut(string(body), `"@TS@"`)
	p.fetch = [2][]byte{[]byte(before), []byte(after)}
	return p
}

func (p *fleetProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	switch {
	case strings.HasSuffix(r.URL.Path, "/context"):
		fmt.Fprintf(w, `{"context":%d}`, p.contexts.Add(1))
	case strings.HasSuffix(r.URL.Path, "/metric"):
		names := q.Get("names")
		if b, ok := p.metric[names]; ok {
			_, _ = w.Write(b)
			return
		}
		_, _ = w.Write(p.metric["*"])
	case strings.HasSuffix(r.URL.Path, "/indom"):
		_, _ = w.Write(p.indom[q.Get("indom")])
	case strings.HasSuffix(r.URL.Path, "/fetch"):
		// As pmproxy answers: with its length, not chunked.
		ts := fmt.Sprintf("%d.%d", 1795600000+p.sec.Add(1), 5000000)
		w.Header().Set("Content-Length", fmt.Sprint(len(p.fetch[0])+len(ts)+len(p.fetch[1])))
		_, _ = w.Write(p.fetch[0])
		_, _ = io.WriteString(w, ts)
		_, _ = w.Write(p.fetch[1])
	}
}

// fleetSampler is a sampler of hosts hosts, each with the given processors, disks and
// interfaces, through one fake pmproxy, after two collections (so every rate has a reading
// before it).
func fleetSampler(tb testing.TB, hosts, ncpu, ndisk, nif int) (*collect.Sampler, *ns.Snapshot) {
	tb.Helper()
	return fleetSamplerAt(tb, fleetProxyProcess(tb, ncpu, ndisk, nif), hosts, ndisk)
}

// fleetProxyProcess runs a fleetProxy in a process of its own (this test binary, as
// TestFleetProxyServe), so that the CPU time this process spends is dcimon's alone; it is
// killed when the benchmark ends. It returns the proxy's URL.
func fleetProxyProcess(tb testing.TB, ncpu, ndisk, nif int) string {
	tb.Helper()
	return fleetProcess(tb, "TestFleetProxyServe", fmt.Sprintf("DCIMON_FLEET_PROXY=%d,%d,%d", ncpu, ndisk, nif), "FLEETPROXY ")
}

// TestFleetProxyServe is the fake pmproxy's process for the fleet benchmarks: with
// DCIMON_FLEET_PROXY=ncpu,ndisk,nif it serves a fleetProxy on a loopback port, printing its URL,
// until killed; without, there is nothing to do.
func TestFleetProxyServe(t *testing.T) {
	spec := os.Getenv("DCIMON_FLEET_PROXY")
	if spec == "" {
		t.Skip("the fake pmproxy process of BenchmarkPCPFleetSample; nothing to do on its own")
	}
	var ncpu, ndisk, nif int
	if _, err := fmt.Sscanf(spec, "%d,%d,%d", &ncpu, &ndisk, &nif); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("FLEETPROXY http://%s\n", l.Addr())
	t.Fatal(http.Serve(l, newFleetProxy(t, ncpu, ndisk, nif)))
}

// fleetSamplerAt is a sampler of hosts hosts of ndisk disks through the fake pmproxy at url.
func fleetSamplerAt(tb testing.TB, url string, hosts, ndisk int) (*collect.Sampler, *ns.Snapshot) {
	tb.Helper()
	srv := struct{ URL string }{url}
	hs := make([]Host, hosts)
	for i := range hs {
		hs[i] = Host{Name: fmt.Sprintf("web%03d", i), Spec: fmt.Sprintf("web%03d", i)}
	}
	provs, err := Fleet(Options{URL: strings.Replace(srv.URL, "http://", "pcp://", 1)}, hs)
	s := samplerOf(tb, provs, err, collect.Options{Deadline: 10 * time.Second})
	return s, checkFleet(tb, s, hosts, ndisk)
}

// checkFleet takes two collections of a fleet of hosts hosts of ndisk disks and checks that what
// the benchmarks measure is a collection that works: every disk of every host has its rate.
func checkFleet(tb testing.TB, s *collect.Sampler, hosts, ndisk int) *ns.Snapshot {
	tb.Helper()
	var snap *ns.Snapshot
	var err error
	for range 2 {
		if snap, err = s.Sample(context.Background()); err != nil {
			tb.Fatal(err)
		}
	}
	pattern := "*/Disk/*/busy"
	if hosts == 1 {
		pattern = "Disk/*/busy" // a single host has no context of its own
	}
	refs, err := s.Registry().Glob(pattern)
	if err != nil || len(refs) != hosts*ndisk {
		tb.Fatalf("%d disks' busy, want %d: %v (%+v)", len(refs), hosts*ndisk, err, s.Status()[0])
	}
	for _, r := range refs {
		if v, _, _ := snap.Lookup(r); v.State != ns.Valid {
			tb.Fatalf("%s: %+v", r.Path(), v)
		}
	}
	return snap
}

// processCPU is this process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSamples collects s once an op, reporting its allocations and cpu-ms/op: the process's
// CPU time a collection (a fake fleet served from another process leaves it dcimon's own).
func benchSamples(b *testing.B, s *collect.Sampler) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		if _, err := s.Sample(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkPCPFleetSample is issue 14's budget: one collection of 100 hosts (8 processors, 16
// disks, 4 interfaces each) through one pmproxy, every mapped class fetched, decoded and synced
// into the next snapshot. cpu-ms/op is the process's CPU time (the fake pmproxy's included, so an
// upper bound); the budget is 20 ms.
func BenchmarkPCPFleetSample(b *testing.B) {
	for _, hosts := range []int{1, 100} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			s, _ := fleetSampler(b, hosts, 8, 16, 4)
			benchSamples(b, s)
		})
	}
}

// BenchmarkFleetHotSet is issue 14's other budget: the busiest of 100 hosts × 16 disks ranked
// together (`*/Disk busy`, max 10) at each reading; 1 ms.
func BenchmarkFleetHotSet(b *testing.B) {
	s, snap := fleetSampler(b, 100, 8, 16, 4)
	src := ns.NewReading(nil)
	h := ns.NewHotSet(s.Registry(), src, nil)
	v, err := h.Add(ns.HotSpec{Stat: "busy", Grandpa: "*/Disk", MaxResp: 10, Feed: ns.SiHotAlways})
	if err != nil {
		b.Fatal(err)
	}
	src.Publish(snap)
	if err := h.Read(false); err != nil {
		b.Fatal(err)
	}
	if got := len(v.Items); got != 10 || !v.Fleet() {
		b.Fatalf("the fleet hotset has %d items, want 10", got)
	}
	b.ReportAllocs()
	for b.Loop() {
		src.Publish(snap)
		if err := h.Read(false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFleetHTTPFloor is what net/http alone costs for one round of BenchmarkPCPFleetSample:
// 100 fetch requests to the same fake pmproxy process, one at a time, each answer read whole and
// not decoded. The collection's CPU time above this floor is dcimon's decoding and bookkeeping.
func BenchmarkFleetHTTPFloor(b *testing.B) {
	url := fleetProxyProcess(b, 8, 16, 4) + "/pmapi/1/fetch?names=x"
	c := &http.Client{Transport: &http.Transport{ReadBufferSize: 64 << 10, DisableCompression: true}}
	var buf []byte
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		for range 100 {
			resp, err := c.Get(url)
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = io.ReadAll(resp.Body); err != nil || len(buf) == 0 {
				b.Fatal(err)
			}
			resp.Body.Close()
		}
	}
	b.ReportMetric(float64(processCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(buf)), "answer-bytes")
}
