package linux

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dcimon/internal/golden"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	"dcimon/collect/synthetic"
	ns "dcimon/namespace"
)

// TestGoldenBasic dumps every class, instance and raw value the host providers read from the
// real capture (t0, then t1), and at t1 every value of the snapshot: rates over the capture's
// 1.89 s, wraps, derived datums, invalid and unavailable values.
func TestGoldenBasic(t *testing.T) {
	t.Parallel()
	provs := treeProviders(t, "basic", "t0", true)
	h := collecttest.NewHarness(t, provs)
	for _, tn := range []string{"t0", "t1"} {
		pointAt(t, provs, filepath.Join("testdata", "basic", tn))
		req := collect.Request{Static: tn == "t0", Variable: tn == "t0"}
		h.Step(req)
		var b strings.Builder
		for i, p := range provs {
			var err error
			if len(h.Errs) > 0 && h.Last[i].Classes == nil {
				err = h.Errs[0]
			}
			dumpBatch(&b, p, h.Last[i], err)
		}
		if tn == "t1" {
			b.WriteString("\n# snapshot after t0 and t1\n")
			dumpSnapshot(&b, h.Reg, h.Snap)
		}
		golden.Check(t, "basic_"+tn, b.String())
	}
}

// TestClassesRegister registers the classes of the host providers (live and tree) and of the
// synthetic source in fresh registries: every class passes the registry's checks of all four
// views, every datum is documented, and the synthetic source declares exactly the same classes.
func TestClassesRegister(t *testing.T) {
	t.Parallel()
	sets := map[string][]collect.Provider{
		"host":      Providers(Options{}),
		"tree":      treeProviders(t, "basic", "t0", false),
		"synthetic": synthetic.Providers(synthetic.Options{Disks: 3, Parts: 2, NICs: 2, CPUs: 2, Seed: 1}),
	}
	for name, provs := range sets {
		h := collecttest.NewHarness(t, provs) // fails on any registration error
		for _, c := range h.Reg.Classes() {
			if c.Desc == "" || c.Help == "" || c.Supplier == nil {
				t.Errorf("%s: class %s %s lacks a description, help or supplier", name, c.ID, c.Name)
			}
			for i := range c.Datums {
				d := &c.Datums[i]
				if d.Desc == "" || d.Help == "" || d.Source == "" {
					t.Errorf("%s: %s/%s lacks a description, help or source", name, c.Name, d.Name)
				}
				if d.IsCounter() && !d.IsDerived() && d.Max <= d.Min {
					t.Errorf("%s: counter %s/%s has no SPMI scale", name, c.Name, d.Name)
				}
			}
		}
		mods := []string{}
		for _, p := range provs {
			s := p.Supplier()
			if s.IVersion != 101 || s.Module == "" || s.Title == "" || s.Description == "" || s.Features != 0 {
				t.Errorf("%s: supplier %+v", name, s)
			}
			mods = append(mods, s.Module)
		}
		// Sensors are declared only where the hardware has them (absent, not empty, issue 19).
		want := 11
		if slices.Contains(mods, schema.SensorsModule) {
			want++
		}
		if len(mods) != want {
			t.Errorf("%s: %d providers (%v), want host, mem, cpu, disk, net, pressure, tcpip, fs, numa, proc, cgroup (and sensors where there are any)", name, len(mods), mods)
		}
		// The seed's own example: CPU/cpu0/idle = 1.1.4 (SPMI-ASN-1) needs an instance.
		if name != "host" {
			h.Step(collect.Request{Static: true, Variable: true})
			ref, err := h.Reg.Lookup(nil, "CPU/cpu0/idle")
			if err != nil || ref.ASN() != "1.1.4" {
				t.Errorf("%s: CPU/cpu0/idle = %v, %v; want ASN 1.1.4", name, ref.ASN(), err)
			}
		}
	}
	// Same classes, datum by datum, for the host and the synthetic source.
	hostCls, synCls := classesOf(sets["host"]), classesOf(sets["synthetic"])
	if len(hostCls) != len(synCls) {
		t.Fatalf("host declares %d classes, synthetic %d", len(hostCls), len(synCls))
	}
	for i := range hostCls {
		a, b := hostCls[i], synCls[i]
		if !a.ID.Equal(b.ID) || a.Name != b.Name || a.Flags != b.Flags || len(a.Datums) != len(b.Datums) ||
			!slices.Equal(a.Levels, b.Levels) || a.Totals != b.Totals || !a.NestUnder.Equal(b.NestUnder) || a.InstFreq != b.InstFreq {
			t.Errorf("class %s differs between host and synthetic", a.ID)
			continue
		}
		for j := range a.Datums {
			da, db := a.Datums[j], b.Datums[j]
			da.Min, da.Max, db.Min, db.Max = 0, 0, 0, 0 // scales follow the host's size
			if da.ID != db.ID || da.Name != db.Name || da.Type != db.Type || da.Units != db.Units || da.DCI4 != db.DCI4 ||
				da.PCP != db.PCP || da.ValType != db.ValType {
				t.Errorf("%s/%s differs between host and synthetic", a.Name, da.Name)
			}
		}
	}
}

// classesOf are the classes the providers declare, Sensors left out: the host declares them only
// where it has sensors, the synthetic source never.
func classesOf(provs []collect.Provider) []*ns.Class {
	var out []*ns.Class
	for _, p := range provs {
		if p.Supplier().Module == schema.SensorsModule {
			continue
		}
		out = append(out, p.Classes()...)
	}
	return out
}

// TestDeclarations pins the layout choices the rest of dcimon and the checklist rely on.
func TestDeclarations(t *testing.T) {
	t.Parallel()
	h, _ := treeHarness(t, "basic", true)
	for path, want := range map[string]string{
		"CPU/cpu0/user": "1.1.1", "CPU/cpu0/kern": "1.1.2", "CPU/cpu0/wait": "1.1.3", "CPU/cpu0/idle": "1.1.4",
		"CPU/cpu1/busy": "1.2.15", "Disk": "2", "NetIf/eth0/ibytes": "3.4.1", "Mem/Real/%used": "4.1.7", "Host/uptime": "5.7",
		"Disk/loop0/loop0p1": "2.1.257",
	} {
		ref, err := h.Reg.Lookup(nil, path)
		if err != nil || ref.ASN() != want {
			t.Errorf("%s: ASN %q, %v; want %s", path, ref.ASN(), err, want)
		}
	}
	type vol struct {
		path string
		v    ns.Volatility
	}
	for _, c := range []vol{{"Host/hostname", ns.SVStatic}, {"Host/boottime", ns.SVStatic}, {"Mem/Real/total", ns.SVVolatile}, // a balloon (issue 29)
		{"Mem/Swap/total", ns.SVVolatile}, {"NetIf/eth0/mtu", ns.SVVariable}, {"NetIf/eth0/mac", ns.SVVariable},
		{"NetIf/eth0/ifindex", ns.SVStatic}, {"Disk/vda/size", ns.SVVariable}, {"Disk/vda/reads", ns.SVVolatile},
		{"Host/uptime", ns.SVVolatile}} {
		ref, err := h.Reg.Lookup(nil, c.path)
		if err != nil || ref.Datum.DCI4.Volatility != c.v {
			t.Errorf("%s: volatility %v, %v; want %v", c.path, ref.Datum, err, c.v)
		}
	}
	d := func(path string) *ns.Datum {
		ref, err := h.Reg.Lookup(nil, path)
		if err != nil {
			t.Fatal(err)
		}
		return ref.Datum
	}
	if x := d("Host/boottime").DCI4; x.Type != ns.STTime || x.Format != ns.STFCTime || x.Presentation != ns.STPAbsolute {
		t.Errorf("boottime DCI4 %+v", x)
	}
	if x := d("Host/uptime").DCI4; x.Type != ns.STTime || x.Format != ns.STFMonotonic || x.Presentation != ns.STPRelative {
		t.Errorf("uptime DCI4 %+v", x)
	}
	if x := d("NetIf/eth0/mac").DCI4; x.Type != ns.STAddress || x.Format != ns.SAFEthernet {
		t.Errorf("mac DCI4 %+v", x)
	}
	if x := d("NetIf/eth0/ipv4").DCI4; x.Type != ns.STAddress || x.Format != ns.SAFIP {
		t.Errorf("ipv4 DCI4 %+v", x)
	}
	if x := d("NetIf/eth0/up").DCI4; x.Type != ns.STBoolean || x.Presentation != ns.SBPYesNo {
		t.Errorf("up DCI4 %+v", x)
	}
	if x := d("NetIf/eth0/loopback").DCI4; x.Presentation != ns.SBPTrueFalse {
		t.Errorf("loopback DCI4 %+v", x)
	}
	// 32-bit kernel columns are declared 32-bit so that a wrap is one wrap.
	for _, n := range []string{"read_ms", "write_ms", "io_ms", "weighted_ms", "discard_ms", "flush_ms"} {
		if dd := d("Disk/vda/" + n); dd.Type != ns.TypeUint4 || !dd.IsCounter() {
			t.Errorf("%s: %s", n, dd.Type)
		}
	}
	for _, n := range []string{"reads", "writes", "read_bytes", "write_bytes"} {
		if dd := d("Disk/vda/" + n); dd.Type != ns.TypeUint8 {
			t.Errorf("%s: %s", n, dd.Type)
		}
	}
	for path, rel := range map[string]ns.Unit{"CPU/busy": ns.DerivedPercent, "Disk/vda/busy": ns.DerivedPercent,
		"Disk/vda/iops": ns.DerivedSum2, "Disk/vda/aqu_sz": ns.DerivedAverage, "Disk/vda/r_await": ns.DerivedAverage,
		"NetIf/eth0/bytes": ns.DerivedSum2, "Host/load1": ns.DerivedAverage} {
		if dd := d(path); !dd.IsDerived() || dd.Units != rel {
			t.Errorf("%s: %s %s", path, dd.Type, dd.Units)
		}
	}
	sup := func(path string) ns.Supplier {
		ref, _ := h.Reg.Lookup(nil, path)
		return *ref.Ctx.Class.Supplier
	}
	if sup("NetIf/eth0").Type != ns.SPTNetworkDriver || sup("Disk/vda").Type != ns.SPTGeneralSupplier {
		t.Errorf("supplier types: net %s, disk %s", sup("NetIf/eth0").Type, sup("Disk/vda").Type)
	}
	disk := h.Reg.Class(ns.ClassID{schema.DiskASN, 2})
	if disk.Flags&ns.ClassPossibleInvalidData == 0 || disk.Levels[0].Tag != ns.TagDiskID || disk.InstFreq != ns.SiContInst {
		t.Errorf("disk class %+v", disk)
	}
	in := h.Reg.Instances(disk)
	if len(in) == 0 || in[0].Levels[0] != mkdev(7, 0) || in[0].OSName != "loop0" {
		t.Errorf("first disk %+v", in)
	}
}

// TestBasicRatesByHand checks rates, derived datums and levels against numbers computed by hand
// from the fixture files. The two captures are 1.89 s apart by their /proc/uptime (492.85 →
// 494.74), the time every rate divides by.
func TestBasicRatesByHand(t *testing.T) {
	t.Parallel()
	h, provs := treeHarness(t, "basic", true)
	if v := h.Value("Disk/vda/reads"); v.State != ns.NoRate || v.Reason != ns.ReasonFirstSample {
		t.Errorf("first sample: reads %+v, want no rate", v)
	}
	pointAt(t, provs, filepath.Join("testdata", "basic", "t1"))
	h.Step(collect.Request{})
	const dt = 1.89
	want := map[string]float64{
		// /proc/stat cpu: user 8565 → 8611 ticks, system 3584 → 3651, idle 85100 → 85361,
		// iowait 798 → 800, softirq 38 → 38, steal 75 → 75. Ticks ×10 = ms.
		"CPU/user": 460 / dt,
		"CPU/kern": 670 / dt,
		"CPU/idle": 2610 / dt,
		"CPU/wait": 20 / dt,
		// busy = (46+67) / (46+67+261+2) ticks
		"CPU/busy": 113.0 / 376,
		// cpu1: user 4408 → 4438, system 1901 → 1934, idle 41989 → 42109, iowait 700 → 701.
		"CPU/cpu1/busy": 63.0 / (63 + 120 + 1),
		// vda: writes 2177 → 2190, sectors written 952952 → 969744, write_ms 3620 → 3632,
		// reads 26394 → 26412, read_ms 43112 → 43122, io_ms 10200 → 10212, weighted 47179 → 47201.
		"Disk/vda/writes":      13 / dt,
		"Disk/vda/write_bytes": (969744 - 952952) * 512 / dt,
		"Disk/vda/iops":        (13 + 18) / dt,
		"Disk/vda/w_await":     12.0 / 13,
		"Disk/vda/r_await":     10.0 / 18,
		"Disk/vda/await":       22.0 / 31,
		"Disk/vda/busy":        12.0 / 1890, // Δio_ms / Δclock_ms, iostat's %util as a fraction
		"Disk/vda/aqu_sz":      22.0 / 1890,
		"Disk/vda/clock_ms":    1890 / dt, // the collector's clock advances 1000 ms per second
		// loop0p1 wrote 64 requests of 8192 sectors: 4 MiB.
		"Disk/loop0/loop0p1/writes":      64 / dt,
		"Disk/loop0/loop0p1/write_bytes": 4 << 20 / dt,
		"Disk/loop1/loop1p1/read_bytes":  2 << 20 / dt,
		// lo: 3193 → 1054031 bytes each way, 29 → 72 packets.
		"NetIf/lo/ibytes":  (1054031 - 3193) / dt,
		"NetIf/lo/bytes":   2 * (1054031 - 3193) / dt,
		"NetIf/lo/packets": 2 * 43 / dt,
		"NetIf/eth0/bytes": 0,
		// /proc/stat ctxt 491645 → 495025, intr 287821 → 289189, processes 7276 → 7821.
		"Host/ctxsw": 3380 / dt,
		"Host/intr":  1368 / dt,
		"Host/forks": 545 / dt,
		// loadavg 0.38 0.27 0.15
		"Host/load1":  0.38,
		"Host/load15": 0.15,
		// meminfo t1: MemTotal 24684096 kB, MemAvailable 24364292 kB.
		"Mem/Real/used":  (24684096 - 24364292) * 1024,
		"Mem/Real/%used": (24684096.0 - 24364292) / 24684096,
		// vmstat pgpgin 667117 → 671241 KiB, pgfault 4512265 → 4595623.
		"Mem/Virt/pagein": 4124 * 1024 / dt,
		"Mem/Virt/faults": 83358 / dt,
	}
	for path, w := range want {
		v := h.Value(path)
		if v.State != ns.Valid || !collecttest.Near(v.V, w) {
			t.Errorf("%s = %v (%v, %v), want %v", path, v.V, v.State, v.Reason, w)
		}
	}
	// Levels and no-data cases.
	if v := h.Value("Host/uptime"); v.N != 49474 {
		t.Errorf("uptime %d cs, want 49474", v.N)
	}
	if v := h.Value("Host/boottime"); v.N != 1795224670 {
		t.Errorf("boottime %d", v.N) // static: read at t0, kept at t1 (RawSkipped)
	}
	if v := h.Value("Mem/Swap/%used"); v.State == ns.Valid {
		t.Errorf("swap %%used with no swap = %v, want n/a (zero denominator)", v)
	}
	if v := h.Value("NetIf/eth0/speed"); v.State != ns.Invalid {
		t.Errorf("eth0 speed (sysfs -1) = %+v, want invalid", v)
	}
	if v := h.Value("NetIf/eth0/ipv4"); v.State != ns.Invalid {
		t.Errorf("eth0 ipv4 under a tree = %+v, want invalid", v)
	}
	if v := h.Value("NetIf/eth0/mac"); v.State != ns.Valid || v.S != "\x02\xdc\x00\x00\x00\x04" {
		t.Errorf("eth0 mac = %+v", v)
	}
	if v := h.Value("Disk/vda/r_await"); v.State != ns.Valid {
		t.Errorf("r_await %+v", v)
	}
	if v := h.Value("Disk/loop2/r_await"); v.State != ns.Unavailable || v.Reason != ns.ReasonZeroDenominator {
		t.Errorf("r_await without reads = %+v, want n/a", v)
	}
	if v := h.Value("Host/arch"); v.State != ns.Unavailable {
		t.Errorf("arch under a tree = %+v, want unavailable", v)
	}
}

// TestDefaultHidesLoop: loop, ram and zram devices and their partitions are hidden unless
// ShowLoop is set.
func TestDefaultHidesLoop(t *testing.T) {
	t.Parallel()
	h, _ := treeHarness(t, "basic", false)
	var names []string
	for _, c := range []ns.ClassID{{schema.DiskASN, 2}, {schema.DiskASN, 3}} {
		for _, in := range h.Reg.Instances(h.Reg.Class(c)) {
			names = append(names, in.Path())
		}
	}
	if !slices.Equal(names, []string{"Disk/vda"}) {
		t.Errorf("visible devices %q, want only vda", names)
	}
	for _, n := range []string{"loop0", "loop12", "ram0", "zram0"} {
		if !schema.HiddenDisk(n) {
			t.Errorf("%s not hidden", n)
		}
	}
	for _, n := range []string{"loop", "loopback0", "sda", "nvme0n1", "dm-0", "zram0p1"} {
		if schema.HiddenDisk(n) {
			t.Errorf("%s hidden", n)
		}
	}
}

// TestHostOptionsRoots: empty options are the live host; a procfs or sysfs directory makes a
// tree whose other directories are its siblings.
func TestHostOptionsRoots(t *testing.T) {
	t.Parallel()
	if r := (Options{}).roots(); !r.live() {
		t.Errorf("empty options: %+v", r)
	}
	r := Options{Procfs: "/x/t0/proc"}.roots()
	if r.live() || r.proc != "/x/t0/proc" || r.sys != "/sys" || r.run != "/x/t0/run" || r.etc != "/x/t0/etc" {
		t.Errorf("procfs only: %+v", r)
	}
	r = Options{Sysfs: "/y/sys/"}.roots()
	if r.proc != "/proc" || r.sys != "/y/sys/" || r.run != "/y/run" {
		t.Errorf("sysfs only: %+v", r)
	}
}
