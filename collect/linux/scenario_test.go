package linux

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// twoStep runs the host providers over testdata/<scenario>/t0 then t1 (all data at t0, only
// volatile data at t1, as the sampler asks) and returns the harness.
func twoStep(t *testing.T, scenario string, showLoop bool) *collecttest.Harness {
	t.Helper()
	h, provs := treeHarness(t, scenario, showLoop)
	pointAt(t, provs, filepath.Join("testdata", scenario, "t1"))
	h.Step(collect.Request{})
	return h
}

// TestScenarioWrap32: the 32-bit millisecond columns wrap once between the two captures, 1.00 s
// apart; the datums are declared UMA_UINT4, so each decrease is one wrap (X-3's example).
func TestScenarioWrap32(t *testing.T) {
	t.Parallel()
	h := twoStep(t, "wrap32", false)
	for path, want := range map[string]float64{
		"Disk/sda/write_ms":    496,         // 4294967000 → 200
		"Disk/sda/io_ms":       800,         // 4294966996 → 500
		"Disk/sda/weighted_ms": 701,         // 4294967295 → 700
		"Disk/sda/flush_ms":    10,          // 4294967290 → 4
		"Disk/sda/reads":       100,         // 64-bit, 1000 → 1100
		"Disk/sda/busy":        0.8,         // 800 ms busy in 1000 ms of the collector's clock
		"Disk/sda/aqu_sz":      0.701,       // 701 weighted ms per 1000 ms
		"Disk/sda/w_await":     496.0 / 100, // 496 ms over 100 writes
	} {
		if v := h.Value(path); v.State != ns.Valid || !collecttest.Near(v.V, want) {
			t.Errorf("%s = %+v, want %v", path, v, want)
		}
	}
}

// TestScenarioDecrease64: 64-bit counters that go backwards without a reboot are a
// discontinuity (no rate); the disk's 32-bit counters are withheld for that collection, since the
// name space would take their decrease for a wrap.
func TestScenarioDecrease64(t *testing.T) {
	t.Parallel()
	h := twoStep(t, "decrease64", false)
	for _, path := range []string{"Disk/sda/reads", "Disk/sda/read_bytes", "NetIf/eth0/ibytes", "NetIf/eth0/ipackets"} {
		if v := h.Value(path); v.State != ns.NoRate || v.Reason != ns.ReasonCounterDecrease {
			t.Errorf("%s = %+v, want no rate (counter went backwards)", path, v)
		}
	}
	if v := h.Value("Disk/sda/io_ms"); v.State != ns.Unavailable || v.Reason != ns.ReasonCounterDecrease {
		t.Errorf("io_ms of a re-initialised disk = %+v, want unavailable", v)
	}
	if v := h.Value("NetIf/eth0/obytes"); v.State != ns.Valid || v.V != 0 {
		t.Errorf("eth0 obytes = %+v, want 0/s", v)
	}
	// The re-initialised disk's counters are trusted again at the next collection.
	h.Step(collect.Request{})
	if v := h.Value("Disk/sda/io_ms"); v.State != ns.NoRate || v.Reason != ns.ReasonFirstSample {
		t.Errorf("io_ms one collection later = %+v, want no rate yet (first sample)", v)
	}
}

// instanceAttrs are the attributes of the instance at path, by key.
func instanceAttrs(h *collecttest.Harness, path string) map[string]string {
	h.T.Helper()
	attrs := map[string]string{}
	for _, a := range h.Instance(path).Attrs {
		attrs[a.Key] = a.Value
	}
	return attrs
}

// TestScenarioDiskRemoved: sdb and its partition go between the captures; they are removed from
// the name space (partition first, as it nests under the disk) and sda keeps its rates.
func TestScenarioDiskRemoved(t *testing.T) {
	t.Parallel()
	h, provs := treeHarness(t, "disk_removed", false)
	if _, err := h.Reg.Lookup(nil, "Disk/sdb/sdb1/reads"); err != nil {
		t.Fatalf("t0: %v", err)
	}
	attrs := instanceAttrs(h, "Disk/sdb")
	if attrs["devno"] != "8:16" || attrs["serial"] != "FAKE-SERIAL-sdb" || attrs["removable"] != "yes" {
		t.Errorf("sdb attributes %v", attrs)
	}
	if p, _ := h.Reg.Lookup(nil, "Disk/sda/sda1"); p.Ctx == nil || p.Ctx.Inst.Levels[0] != mkdev(8, 0) || p.Ctx.Inst.Levels[1] != mkdev(8, 1) || p.Ctx.ASN != 257 {
		t.Errorf("sda1 = %+v", p.Ctx)
	}
	pointAt(t, provs, filepath.Join("testdata", "disk_removed", "t1"))
	removed := h.StepRemoved(collect.Request{})
	// (The registry removes a nested partition with its disk and reports the disk's removal.)
	if !slices.Contains(removed, "Disk/sdb") {
		t.Errorf("removed %q", removed)
	}
	for _, p := range []string{"Disk/sdb", "Disk/sdb/sdb1"} {
		if _, err := h.Reg.Lookup(nil, p); err == nil {
			t.Errorf("%s still in the name space", p)
		}
	}
	if n := len(h.Reg.Instances(h.Reg.Class(ns.ClassID{schema.DiskASN, 3}))); n != 1 {
		t.Errorf("%d partitions, want sda1 only", n)
	}
	if v := h.Value("Disk/sda/sda1/reads"); v.State != ns.Valid || v.V != 0 {
		t.Errorf("sda1 reads = %+v", v)
	}
}

// TestScenarioIfAdded: wg0 appears at t1, with no link-layer address and no speed. It is a new
// instance (no rate yet), its sysfs datums are read at once although the request asks only for
// volatile data, and mac and speed are invalid — n/a, never 0.
func TestScenarioIfAdded(t *testing.T) {
	t.Parallel()
	h := twoStep(t, "if_added", false)
	ref, err := h.Reg.Lookup(nil, "NetIf/wg0")
	if err != nil {
		t.Fatal(err)
	}
	if in := ref.Ctx.Inst; in.Levels[0] != 3 || ref.Ctx.ASN != 3 {
		t.Errorf("wg0: levels %v asn %d, want ifindex 3", in.Levels, ref.Ctx.ASN)
	}
	if v := h.Value("NetIf/wg0/ibytes"); v.State != ns.NoRate {
		t.Errorf("wg0 ibytes = %+v, want no rate (new instance)", v)
	}
	if v := h.Value("NetIf/wg0/mtu"); v.State != ns.Valid || v.N != 1420 {
		t.Errorf("wg0 mtu = %+v, want 1420 read at once", v)
	}
	for _, s := range []string{"mac", "speed", "ipv4"} {
		if v := h.Value("NetIf/wg0/" + s); v.State != ns.Invalid {
			t.Errorf("wg0 %s = %+v, want invalid", s, v)
		}
	}
	if v := h.Value("NetIf/wg0/running"); v.State != ns.Valid || v.N != 1 {
		t.Errorf("wg0 running = %+v (flags 0x91, operstate unknown)", v)
	}
	// eth0 was known: its slow datums were not read again (RawSkipped) and keep their values.
	cr := h.Reading("3.2")
	for k, s := range cr.Specs {
		if s.OSName == "eth0" {
			if r := cr.Raw[k*len(cr.Class.Datums)+schema.NetMTUID-1]; r.State != ns.RawSkipped {
				t.Errorf("eth0 mtu at t1 = %+v, want skipped (SV_VARIABLE, not due)", r)
			}
		}
	}
	if v := h.Value("NetIf/eth0/mtu"); v.State != ns.Valid || v.N == 0 {
		t.Errorf("eth0 mtu = %+v, want the value read at t0", v)
	}
}

// TestScenarioMalformed: bad lines are reported on the class they concern, with their line
// numbers; the good lines still produce instances and values in the reading.
func TestScenarioMalformed(t *testing.T) {
	t.Parallel()
	h, _ := treeHarness(t, "malformed", false)
	type want struct {
		class string
		names []string
		lines []string
		bad   []string // instances whose line is there but could not be read: kept, in error
	}
	for _, w := range []want{
		{"2.2", []string{"sda", "sdb", "sdc"}, []string{"line 2", "line 3", "line 5", "line 6"}, nil},
		{"3.2", []string{"lo", "eth1"}, []string{"line 4", "line 5", "line 7", "line 8"}, nil},
		// issue 29: "cpu0 1 2" keeps cpu0, every value an error, never a processor gone.
		{"1.2", []string{"cpu0", "cpu1"}, []string{"line 2", "line 4"}, []string{"cpu0"}},
		{"1.1", nil, []string{"line 2"}, nil},
		{"5", nil, []string{"line 5", "line 7"}, nil},
	} {
		cr := h.Reading(w.class)
		if cr.Err == nil {
			t.Errorf("class %s: no error", w.class)
			continue
		}
		for _, l := range w.lines {
			if !strings.Contains(cr.Err.Error(), l) {
				t.Errorf("class %s: error does not mention %s: %v", w.class, l, cr.Err)
			}
		}
		if w.names == nil {
			continue
		}
		var got []string
		for _, s := range cr.Specs {
			got = append(got, s.OSName)
		}
		if !slices.Equal(got, w.names) {
			t.Errorf("class %s instances %q, want %q", w.class, got, w.names)
		}
		nd := len(cr.Class.Datums)
		for k, sp := range cr.Specs {
			bad := slices.Contains(w.bad, sp.OSName)
			for j, r := range cr.Raw[k*nd : k*nd+nd] {
				if d := &cr.Class.Datums[j]; d.IsDerived() || d.ID == ns.InvalidDatumID {
					continue // slots the provider does not fill
				}
				if err := r.State == ns.RawUnavailable && r.Reason == ns.ReasonProviderError; err != bad {
					t.Errorf("class %s: %s's value %+v (its line is bad: %v)", w.class, sp.OSName, r, bad)
					break
				}
			}
		}
	}
	// sdb has the 11-column pre-4.18 format: discards and flushes are not supported, not 0.
	cr := h.Reading("2.2")
	nd := len(cr.Class.Datums)
	if r := cr.Raw[1*nd+schema.DiskDiscardsID-1]; r.State != ns.RawUnavailable || r.Reason != ns.ReasonNotSupported {
		t.Errorf("sdb discards = %+v", r)
	}
	if r := cr.Raw[1*nd+schema.DiskReadsID-1]; r.N != 1 {
		t.Errorf("sdb reads = %+v", r)
	}
	// The host class keeps the good lines of /proc/stat.
	host := h.Reading("5")
	if r := host.Raw[schema.HostForksID-1]; r.State != ns.RawOK || r.N != 99 {
		t.Errorf("forks = %+v", r)
	}
	if r := host.Raw[schema.HostCtxswID-1]; r.State != ns.RawUnavailable {
		t.Errorf("ctxsw from a bad line = %+v, want unavailable", r)
	}
	// The CPU total line was good: its values are there, and busy is computable later.
	if r := h.Reading("1.1").Raw[schema.CPUUserID-1]; r.N != 100 {
		t.Errorf("cpu user = %+v, want 10 ticks = 100 ms", r)
	}
}

// hostileNICs are the interfaces of the hostile_names scenario: an escape sequence, invalid UTF-8,
// a space and a bidi override.
var hostileNICs = []string{"lo", "\x1b[31mred\x1b[0m", "caf\xe9", "my if", "\u202eevil"}

// hostileNamesTree copies testdata/hostile_names/t0 and adds an interface directory under
// sys/class/net for each of nics, whose names git could not keep (see testdata/README); the i-th
// has ifindex i+1.
func hostileNamesTree(t *testing.T, nics []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "hostile_names", "t0"))); err != nil {
		t.Fatal(err)
	}
	for i, name := range nics {
		d := filepath.Join(dir, "sys", "class", "net", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for attr, v := range map[string]string{"address": fmt.Sprintf("02:dc:00:00:00:%02x", 0x10+i), "mtu": "1500",
			"ifindex": strconv.Itoa(i + 1), "flags": "0x1003", "operstate": "up"} {
			if err := os.WriteFile(filepath.Join(d, attr), []byte(v+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestScenarioHostileNames: names with escape sequences, invalid UTF-8, spaces and bidi
// overrides come out safe: SPMI names through namespace.InstanceName, descriptions and
// attributes escaped, and OSName keeps the kernel's exact bytes.
func TestScenarioHostileNames(t *testing.T) {
	t.Parallel()
	dir := hostileNamesTree(t, hostileNICs)
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true, Variable: true})
	if len(h.Errs) != 2 { // the memory and CPU providers: the tree has no meminfo, vmstat or stat
		t.Errorf("provider errors: %v", h.Errs)
	}
	check := func(class ns.ClassID, want []string) {
		t.Helper()
		got := h.Reg.Instances(h.Reg.Class(class))
		if len(got) != len(want) {
			t.Fatalf("class %s: %d instances, want %d", class, len(got), len(want))
		}
		for i, in := range got {
			if in.OSName != want[i] {
				t.Errorf("OSName %q, want %q", in.OSName, want[i])
			}
			if in.Name != ns.InstanceName(want[i]) || ns.ValidateName(in.Name) != nil {
				t.Errorf("name %q of %q is not safe", in.Name, want[i])
			}
			if strings.ContainsAny(in.Name, "\x1b\x07") || !isUTF8(in.Name) {
				t.Errorf("%q: unsafe name %q", want[i], in.Name)
			}
			for _, s := range append([]string{in.Desc}, attrValues(in)...) {
				if strings.ContainsAny(s, "\x1b\x07") || strings.ContainsRune(s, '\u202e') || !isUTF8(s) {
					t.Errorf("%q: unsafe text %q", want[i], s)
				}
			}
		}
	}
	check(ns.ClassID{schema.NetASN, 2}, hostileNICs)
	check(ns.ClassID{schema.DiskASN, 2}, []string{"dm-0", "sd\x1b[2Ja", "nvme\xff0n1"})
	attrs := instanceAttrs(h, "Disk/dm-0")
	if attrs["label"] != `my volume \x1b]0;pwned\x07 é` || attrs["serial"] != `Evil Disk \x1b[5mblink\x1b[0m 42` || attrs["serial source"] != "udev ID_SERIAL" {
		t.Errorf("dm-0 attributes %q", attrs)
	}
	if !strings.Contains(h.Instance("Disk/dm-0").Desc, `(my volume \x1b]0;pwned\x07 é)`) {
		t.Errorf("dm-0 description %q", h.Instance("Disk/dm-0").Desc)
	}
	// The host name is a value: its exact bytes travel; the views escape them when showing.
	if v := h.Value("Host/hostname"); v.S != "evil\x1b]0;owned\x07host" {
		t.Errorf("hostname %q", v.S)
	}
}

func attrValues(in *ns.Instance) []string {
	var out []string
	for _, a := range in.Attrs {
		out = append(out, a.Value)
	}
	return out
}

func isUTF8(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }

// TestReadOnlyDevice: a read-only device's write datums are on its invalid-data list (DCI-INV-1):
// n/a, never 0, and derived datums using them are n/a too (DCI-INV-4). The device provides only
// part of its class, said with invalid data, not by splitting the class (DCI-NS-8).
func TestReadOnlyDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "basic"))); err != nil {
		t.Fatal(err)
	}
	for _, tn := range []string{"t0", "t1"} {
		if err := os.WriteFile(filepath.Join(dir, tn, "sys", "block", "vda", "ro"), []byte("1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t0 := filepath.Join(dir, "t0")
	provs := Providers(Options{Procfs: filepath.Join(t0, "proc"), Sysfs: filepath.Join(t0, "sys")})
	pointAt(t, provs, t0)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true, Variable: true})
	pointAt(t, provs, filepath.Join(dir, "t1"))
	h.Step(collect.Request{})
	ref, err := h.Reg.Lookup(nil, "Disk/vda")
	if err != nil {
		t.Fatal(err)
	}
	cv := h.Snap.Class(ref.Ctx.Stats)
	got := cv.InvalidList(ref.Ctx.Inst)
	want := []ns.DatumID{schema.DiskWritesID, schema.DiskWMergedID, schema.DiskWBytesID, schema.DiskWMsID}
	if !slices.Equal(got, want) {
		t.Errorf("invalid list %v, want %v", got, want)
	}
	for _, s := range []string{"writes", "write_bytes", "w_await", "iops", "bytes"} {
		if v := h.Value("Disk/vda/" + s); v.State == ns.Valid {
			t.Errorf("%s of a read-only device = %+v, want n/a", s, v)
		}
	}
	if v := h.Value("Disk/vda/reads"); v.State != ns.Valid || !collecttest.Near(v.V, 18/1.89) {
		t.Errorf("reads = %+v", v)
	}
	if v := h.Value("Disk/vda/iops"); v.State != ns.Unavailable || v.Reason != ns.ReasonArgUnavailable {
		t.Errorf("iops = %+v, want n/a (argument invalid)", v)
	}
	if v := h.Value("Disk/vda/ro"); v.N != 1 {
		t.Errorf("ro = %+v", v)
	}
	// The list travels in the DCI_INVALIDDATUMID datum too.
	cr := h.Reading("2.2")
	for k, s := range cr.Specs {
		if s.OSName == "vda" {
			if ids := decodeInvalid(cr.Raw[(k+1)*len(cr.Class.Datums)-1].S); !slices.Equal(ids, want) {
				t.Errorf("DCI_INVALIDDATUMID = %v", ids)
			}
		}
	}
}

// TestVolatility: static and variable datums are read at the first collection and when the
// request asks for them, and skipped otherwise (DCI4-DESC-3); volatile ones always.
func TestVolatility(t *testing.T) {
	t.Parallel()
	h, _ := treeHarness(t, "basic", false)
	h.Step(collect.Request{})
	host := h.Reading("5")
	for _, id := range []int{schema.HostNameID, schema.HostReleaseID, schema.HostBootID, schema.HostHundredID} {
		if r := host.Raw[id-1]; r.State != ns.RawSkipped {
			t.Errorf("host datum %d = %+v, want skipped", id, r)
		}
	}
	if r := host.Raw[schema.HostUptimeID-1]; r.State != ns.RawOK {
		t.Errorf("uptime = %+v", r)
	}
	// MemTotal is volatile: a memory balloon changes it (issue 29 item 4).
	if r := h.Reading("4.1").Raw[schema.RealTotalID-1]; r.State != ns.RawOK {
		t.Errorf("MemTotal = %+v, want read", r)
	}
	disk := h.Reading("2.2")
	if r := disk.Raw[schema.DiskSizeID-1]; r.State != ns.RawSkipped {
		t.Errorf("disk size = %+v, want skipped", r)
	}
	// Skipped values keep their previous value in the snapshot.
	if v := h.Value("Host/hostname"); v.S != "fixturehost" {
		t.Errorf("hostname = %+v", v)
	}
	if v := h.Value("Disk/vda/size"); v.N != 536870912*512 {
		t.Errorf("size = %+v", v)
	}
	// Asking for variable data reads it, not the static data.
	h.Step(collect.Request{Variable: true})
	if r := h.Reading("2.2").Raw[schema.DiskSizeID-1]; r.State != ns.RawOK {
		t.Errorf("variable refresh: size = %+v", r)
	}
	if r := h.Reading("5").Raw[schema.HostNameID-1]; r.State != ns.RawSkipped {
		t.Errorf("variable refresh: hostname = %+v, want skipped", r)
	}
	// A collection that was not delivered (class not requested) makes the next one complete.
	h.Step(collect.Request{Classes: map[*ns.Class]bool{}})
	h.Step(collect.Request{})
	if r := h.Reading("2.2").Raw[schema.DiskSizeID-1]; r.State != ns.RawOK {
		t.Errorf("after a gap: size = %+v, want read", r)
	}
	// So does a collection that failed: the name space holds an error, not the value, for it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range h.Provs {
		if _, err := p.Collect(ctx, collect.Request{}); err == nil {
			t.Errorf("%s: collected with a cancelled context", p.Supplier().Module)
		}
	}
	h.Step(collect.Request{})
	if r := h.Reading("2.2").Raw[schema.DiskSizeID-1]; r.State != ns.RawOK {
		t.Errorf("after a failure: size = %+v, want read", r)
	}
	if r := h.Reading("5").Raw[schema.HostNameID-1]; r.State != ns.RawOK {
		t.Errorf("after a failure: hostname = %+v, want read", r)
	}
}

func TestDeliveries(t *testing.T) {
	t.Parallel()
	var d collect.Deliveries
	ctx := context.Background()
	d.Start()
	g := d.Gen
	d.Done(ctx)
	d.Start()
	if !d.Had(g) {
		t.Errorf("delivered by the previous collection: not had")
	}
	late, cancel := context.WithCancel(ctx)
	cancel()
	d.Done(late) // the second collection returned too late
	d.Start()
	if d.Had(d.Gen - 1) {
		t.Errorf("a late collection counts as delivered")
	}
	if d.Had(0) {
		t.Errorf("never delivered counts as delivered")
	}
}

// TestReadSelfUsage reads a process's CPU time and resident size: the captured `cat` of the
// basic fixture, then dcimon's own test process.
func TestReadSelfUsage(t *testing.T) {
	t.Parallel()
	var fr fileReader
	cpu, rss, err := readSelfUsage(fixtureCtx(t, "basic", "t0"), &fr)
	if err != nil || cpu != 0 || rss != 409*uint64(os.Getpagesize()) {
		t.Errorf("fixture: %d ms, %d bytes, %v", cpu, rss, err)
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	cpu, rss, err = readSelfUsage(context.Background(), &fr)
	if err != nil || rss == 0 || cpu%msPerTick != 0 {
		t.Errorf("live: %d ms, %d bytes, %v", cpu, rss, err)
	}
}

// TestHostLive collects every host provider on the running host.
func TestHostLive(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc")
	}
	t.Parallel()
	h := collecttest.NewHarness(t, Providers(Options{}))
	h.Step(collect.Request{Static: true, Variable: true})
	time.Sleep(50 * time.Millisecond) // /proc/stat counts in 10 ms ticks
	h.Step(collect.Request{})
	if len(h.Errs) > 0 {
		t.Fatalf("errors: %v", h.Errs)
	}
	for _, p := range []string{"CPU/busy", "Host/uptime", "Mem/Real/total"} {
		if v := h.Value(p); v.State != ns.Valid {
			t.Errorf("%s = %+v", p, v)
		}
	}
	if v := h.Value("Host/arch"); v.State != ns.Valid || v.S == "" {
		t.Errorf("arch on the live host = %+v", v)
	}
	if len(h.Reg.Instances(h.Reg.Class(ns.ClassID{schema.NetASN, 2}))) == 0 {
		t.Errorf("no network interface")
	}
}

// TestNetIfReappears: an interface that disappears and comes back is a new instance; one
// re-created between two collections (its counters went backwards) is re-read from sysfs at
// once, and its new ifindex makes it a new instance too, one collection later (the registry
// adds before it removes, so the old instance must go first).
func TestNetIfReappears(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "if_added", "t1"))); err != nil {
		t.Fatal(err)
	}
	devPath := filepath.Join(dir, "proc", "net", "dev")
	orig, err := os.ReadFile(devPath)
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wg0 := filepath.Join(dir, "sys", "class", "net", "wg0")
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	h := collecttest.NewHarness(t, provs)
	ifindex := func() uint64 {
		t.Helper()
		ref, err := h.Reg.Lookup(nil, "NetIf/wg0")
		if err != nil {
			return 0
		}
		return ref.Ctx.Inst.Levels[0]
	}
	h.Step(collect.Request{Static: true, Variable: true})
	if ifindex() != 3 {
		t.Fatalf("wg0 ifindex %d", ifindex())
	}
	// Gone for one collection.
	var kept []string
	for _, l := range strings.Split(string(orig), "\n") {
		if !strings.Contains(l, "wg0:") {
			kept = append(kept, l)
		}
	}
	base := strings.TrimRight(strings.Join(kept, "\n"), "\n") + "\n"
	write(devPath, base)
	h.Step(collect.Request{})
	if ifindex() != 0 {
		t.Errorf("wg0 still there")
	}
	// Back, with a new ifindex.
	write(devPath, base+"   wg0: 900 9 0 0 0 0 0 0 900 9 0 0 0 0 0 0\n")
	write(filepath.Join(wg0, "ifindex"), "5\n")
	h.Step(collect.Request{})
	if ifindex() != 5 {
		t.Errorf("wg0 back: ifindex %d, want 5", ifindex())
	}
	if v := h.Value("NetIf/wg0/ibytes"); v.State != ns.NoRate {
		t.Errorf("wg0 back: ibytes %+v, want no rate", v)
	}
	// Re-created between two collections: counters lower, new ifindex.
	write(devPath, base+"   wg0: 10 1 0 0 0 0 0 0 10 1 0 0 0 0 0 0\n")
	write(filepath.Join(wg0, "ifindex"), "6\n")
	h.Step(collect.Request{})
	if ifindex() != 0 {
		t.Errorf("wg0 re-created: ifindex %d, want it left out once (the old one is removed first)", ifindex())
	}
	h.Step(collect.Request{})
	if ifindex() != 6 {
		t.Errorf("wg0 re-created: ifindex %d, want 6", ifindex())
	}
	if v := h.Value("NetIf/wg0/ifindex"); v.State != ns.Valid || v.N != 6 {
		t.Errorf("wg0 re-created: ifindex datum %+v", v)
	}
}

// TestDiskReplaced: a disk whose name comes back with another device number between two
// collections is left out once, then is a new instance with the new number and fresh sysfs
// attributes.
func TestDiskReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "disk_removed", "t0"))); err != nil {
		t.Fatal(err)
	}
	provs := Providers(Options{Procfs: filepath.Join(dir, "proc"), Sysfs: filepath.Join(dir, "sys")})
	pointAt(t, provs, dir)
	h := collecttest.NewHarness(t, provs)
	devno := func() uint64 {
		ref, err := h.Reg.Lookup(nil, "Disk/sdb")
		if err != nil {
			return 0
		}
		return ref.Ctx.Inst.Levels[0]
	}
	h.Step(collect.Request{Static: true, Variable: true})
	if devno() != mkdev(8, 16) {
		t.Fatalf("sdb %d", devno())
	}
	ds := filepath.Join(dir, "proc", "diskstats")
	data, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.NewReplacer("   8      16 sdb ", "   8      32 sdb ", "   8      17 sdb1 ", "   8      33 sdb1 ").Replace(string(data)))
	for path, v := range map[string]string{ds: string(data), filepath.Join(dir, "sys", "block", "sdb", "dev"): "8:32\n",
		filepath.Join(dir, "sys", "block", "sdb", "sdb1", "dev"): "8:33\n", filepath.Join(dir, "sys", "block", "sdb", "size"): "2048\n"} {
		if err := os.WriteFile(path, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.Step(collect.Request{})
	if devno() != 0 {
		t.Errorf("replaced sdb: %d, want it left out once", devno())
	}
	h.Step(collect.Request{})
	if devno() != mkdev(8, 32) {
		t.Errorf("replaced sdb: %d, want 8:32", devno())
	}
	if v := h.Value("Disk/sdb/size"); v.N != 2048*512 {
		t.Errorf("replaced sdb size %+v, want the new disk's", v)
	}
	if v := h.Value("Disk/sdb/sdb1/reads"); v.State != ns.NoRate {
		t.Errorf("replaced sdb1 reads %+v, want no rate (new instance)", v)
	}
}
