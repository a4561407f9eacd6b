package linux

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ns "dcimon/namespace"
)

// sample is everything the raw layer reads from one tree.
type sample struct {
	stat  procStat
	disks []diskStat
	nics  []netDevStat
	mem   memInfo
	vm    vmStat
	load  loadAvg
	up    uptime
	id    hostID
	self  selfStat
}

func readSample(t *testing.T, ctx context.Context) sample {
	t.Helper()
	var s sample
	var fr fileReader
	// The hand-written scenarios hold only the files their case needs: a missing file is skipped, any
	// other error fails the test.
	check := func(err error) {
		t.Helper()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	var err error
	check(readStat(ctx, &fr, &s.stat))
	s.disks, err = readDiskstats(ctx, &fr, nil, 0)
	check(err)
	s.nics, err = readNetDev(ctx, &fr, nil)
	check(err)
	check(readMeminfo(ctx, &fr, &s.mem))
	check(readVMStat(ctx, &fr, &s.vm))
	s.load, err = readLoadAvg(ctx, &fr)
	check(err)
	s.up, err = readUptime(ctx, &fr)
	check(err)
	s.id, err = readHostID(ctx, &fr)
	check(err)
	check(readSelf(ctx, &fr, &s.self))
	return s
}

func findDisk(ds []diskStat, name string) *diskStat {
	for i := range ds {
		if ds[i].name == name {
			return &ds[i]
		}
	}
	return nil
}

func findNIC(ns []netDevStat, name string) *netDevStat {
	for i := range ns {
		if ns[i].name == name {
			return &ns[i]
		}
	}
	return nil
}

func diskNames(ds []diskStat) []string {
	var names []string
	for _, d := range ds {
		names = append(names, d.name)
	}
	return names
}

func nicNames(ns []netDevStat) []string {
	var names []string
	for _, n := range ns {
		names = append(names, n.name)
	}
	return names
}

// TestFixtureBasic checks the real capture against values read by hand from the files (see
// testdata/basic/README), including rates computed by hand from t0 and t1.
func TestFixtureBasic(t *testing.T) {
	t.Parallel()
	s0 := readSample(t, fixtureCtx(t, "basic", "t0"))
	s1 := readSample(t, fixtureCtx(t, "basic", "t1"))

	// /proc/stat
	if got, want := s0.stat.total.ticks, [numCPUTimes]uint64{8565, 0, 3584, 85100, 798, 0, 38, 75, 0, 0}; got != want {
		t.Errorf("t0 cpu = %v, want %v", got, want)
	}
	if len(s1.stat.cpus) != 2 || s1.stat.cpus[1].cpu != 1 || s1.stat.cpus[1].ticks[cpuSystem] != 1934 {
		t.Errorf("t1 cpus = %+v", s1.stat.cpus)
	}
	for k, want := range map[statKey][2]uint64{statCtxt: {491645, 495025}, statIntr: {287821, 289189}, statBtime: {1795224670, 1795224670},
		statProcesses: {7276, 7821}, statProcsRunning: {1, 1}, statProcsBlocked: {0, 0}, statSoftIRQ: {91604, 93097}} {
		if got, ok := s0.stat.get(k); !ok || got != want[0] {
			t.Errorf("t0 %s = %d, %v; want %d", k, got, ok, want[0])
		}
		if got, _ := s1.stat.get(k); got != want[1] {
			t.Errorf("t1 %s = %d, want %d", k, got, want[1])
		}
	}

	// Elapsed time from the two uptimes: 494.74 - 492.85 = 1.89 s.
	if s0.up != (uptime{49285, 85104}) || s1.up != (uptime{49474, 85365}) {
		t.Errorf("uptime = %+v, %+v", s0.up, s1.up)
	}
	elapsedCs := s1.up.upCs - s0.up.upCs
	if elapsedCs != 189 {
		t.Fatalf("elapsed = %d cs, want 189", elapsedCs)
	}
	// Two CPUs for 1.89 s is 378 ticks; the captures read /proc/stat and /proc/uptime a few ms apart.
	var sum0, sum1 uint64
	for c := cpuUser; c <= cpuSteal; c++ { // guest is already in user
		sum0 += s0.stat.total.ticks[c]
		sum1 += s1.stat.total.ticks[c]
	}
	if d := sum1 - sum0; d < 370 || d > 386 {
		t.Errorf("cpu ticks over the interval = %d, want about 378", d)
	}

	// /proc/diskstats: vda wrote 952952 -> 969744 sectors = 8 597 504 bytes in 1.89 s.
	if got := diskNames(s0.disks); !slices.Equal(got, []string{"loop0", "loop0p1", "loop0p2", "loop1", "loop1p1", "loop2",
		"loop3", "loop4", "loop5", "loop6", "loop7", "vda", "zram0"}) {
		t.Errorf("t0 disks = %v", got)
	}
	vda0, vda1 := findDisk(s0.disks, "vda"), findDisk(s1.disks, "vda")
	if vda0.major != 254 || vda0.minor != 0 || vda0.columns != 17 || vda0.v[diskWriteBytes] != 952952*512 || vda0.v[diskDiscardBytes] != 145088*512 {
		t.Errorf("t0 vda = %+v", vda0)
	}
	if d := vda1.v[diskWriteBytes] - vda0.v[diskWriteBytes]; d != 8597504 {
		t.Errorf("vda bytes written = %d, want 8597504", d)
	}
	if rate := (vda1.v[diskWriteBytes] - vda0.v[diskWriteBytes]) * 100 / elapsedCs; rate != 4548943 {
		t.Errorf("vda write rate = %d B/s, want 4548943", rate)
	}
	p0, p1 := findDisk(s0.disks, "loop0p1"), findDisk(s1.disks, "loop0p1")
	if p1.v[diskWrites]-p0.v[diskWrites] != 64 || p1.v[diskWriteBytes]-p0.v[diskWriteBytes] != 4<<20 {
		t.Errorf("loop0p1 writes = %+v -> %+v, want 64 writes, 4 MiB", p0.v, p1.v)
	}
	q0, q1 := findDisk(s0.disks, "loop1p1"), findDisk(s1.disks, "loop1p1")
	if q1.v[diskReads]-q0.v[diskReads] != 32 || q1.v[diskReadBytes]-q0.v[diskReadBytes] != 2<<20 || q0.major != 259 || q0.minor != 2 {
		t.Errorf("loop1p1 = %+v -> %+v, want 32 reads, 2 MiB", q0, q1)
	}

	// /proc/net/dev: 1 MiB over TCP on lo, 3193 -> 1054031 bytes in 1.89 s.
	if got := nicNames(s0.nics); !slices.Equal(got, []string{"lo", "ifb0", "ifb1", "eth0"}) {
		t.Errorf("t0 interfaces = %v", got)
	}
	lo0, lo1 := findNIC(s0.nics, "lo"), findNIC(s1.nics, "lo")
	if lo0.v[netRxBytes] != 3193 || lo1.v[netTxBytes] != 1054031 || lo1.v[netRxPackets] != 72 {
		t.Errorf("lo = %v -> %v", lo0.v, lo1.v)
	}
	if rate := (lo1.v[netRxBytes] - lo0.v[netRxBytes]) * 100 / elapsedCs; rate != 555998 {
		t.Errorf("lo rx rate = %d B/s, want 555998", rate)
	}
	if e := findNIC(s1.nics, "eth0"); e.v[netRxBytes] != 31814958 || e.v[netTxPackets] != 2114 {
		t.Errorf("t1 eth0 = %v", e.v)
	}

	// The rest of procfs.
	if v, _ := s0.mem.get(memTotal); v != 24684096*1024 {
		t.Errorf("MemTotal = %d", v)
	}
	if v, _ := s1.mem.get(memCached); v != 229960*1024 {
		t.Errorf("t1 Cached = %d", v)
	}
	if v, ok := s0.mem.get(memSwapFree); !ok || v != 0 {
		t.Errorf("SwapFree = %d, %v (present and 0 on this swapless VM)", v, ok)
	}
	if v, _ := s1.vm.get(vmPgpgout); v != 488968*1024 {
		t.Errorf("t1 pgpgout = %d", v)
	}
	if s0.load != (loadAvg{38, 27, 15, 1, 82, 7287}) {
		t.Errorf("loadavg = %+v", s0.load)
	}
	if s0.id != (hostID{"fixturehost", "6.18.44-fc-v595"}) {
		t.Errorf("host = %+v", s0.id)
	}
	if s1.self.threads != 1 || s1.self.minflt != 119 || s1.self.rssBytes != 427*uint64(os.Getpagesize()) {
		t.Errorf("self = %+v", s1.self)
	}
}

func TestFixtureBasicSysfs(t *testing.T) {
	t.Parallel()
	ctx := fixtureCtx(t, "basic", "t0")
	var fr fileReader
	names, err := listBlockDevs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"loop0", "loop1", "loop2", "loop3", "loop4", "loop5", "loop6", "loop7", "vda", "zram0"}) {
		t.Errorf("block devices = %v", names)
	}
	devs := map[string]blockDev{}
	withParts := 0
	for _, n := range names {
		d, err := readBlockDev(ctx, &fr, n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
		}
		devs[n] = d
		if len(d.parts) > 0 {
			withParts++
		}
	}
	if withParts < 2 {
		t.Errorf("%d disks with partitions, the fixture promises at least 2", withParts)
	}
	l0 := devs["loop0"]
	wantParts := []blockPart{
		{name: "loop0p1", number: 1, major: 259, minor: 0, sizeBytes: 65536 * 512, have: blockHave{size: true, ro: true}},
		{name: "loop0p2", number: 2, major: 259, minor: 1, sizeBytes: 63488 * 512, have: blockHave{size: true, ro: true}},
	}
	if l0.major != 7 || l0.minor != 0 || l0.sizeBytes != 64<<20 || l0.removable || l0.readOnly || !slices.Equal(l0.parts, wantParts) ||
		l0.have != (blockHave{size: true, ro: true, removable: true}) {
		t.Errorf("loop0 = %+v", l0)
	}
	if v := devs["vda"]; v.serial != "FAKE-SERIAL-vda" || v.serialFrom != "sysfs serial" || v.sizeBytes != 536870912*512 || v.dmName != "" {
		t.Errorf("vda = %+v", v)
	}
	if z := devs["zram0"]; z.serial != "" || z.serialFrom != "" || z.sizeBytes != 0 {
		t.Errorf("zram0 = %+v", z)
	}
	// Every whole disk and partition in sysfs is in diskstats under the same name and numbers.
	var s []diskStat
	if s, err = readDiskstats(ctx, &fr, nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, d := range devs {
		for _, p := range append([]blockPart{{name: d.name, major: d.major, minor: d.minor}}, d.parts...) {
			if ds := findDisk(s, p.name); ds == nil || ds.major != p.major || ds.minor != p.minor {
				t.Errorf("%s %d:%d not in diskstats: %+v", p.name, p.major, p.minor, ds)
			}
		}
	}

	ifs, err := listNetIfs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ifs, []string{"eth0", "ifb0", "ifb1", "lo"}) {
		t.Errorf("interfaces = %v", ifs)
	}
	tests := map[string]netIf{
		"eth0": {name: "eth0", address: "02:dc:00:00:00:04", mtu: 1400, ifindex: 4, flags: 0x1003, operstate: "up", carrier: 1},
		"lo":   {name: "lo", address: "00:00:00:00:00:00", mtu: 65536, ifindex: 1, flags: iffUp | iffLoopback, operstate: "unknown", carrier: 1},
		"ifb0": {name: "ifb0", address: "02:dc:00:00:00:02", mtu: 1500, ifindex: 2, flags: 0x82, operstate: "down", carrier: -1},
	}
	for name, want := range tests {
		want.have.address, want.have.mtu, want.have.flags = true, true, true
		got, err := readNetIf(ctx, &fr, name)
		if err != nil || got != want {
			t.Errorf("readNetIf(%s) = %+v, %v\nwant %+v", name, got, err, want)
		}
	}
	// eth0's speed file says -1 and lo has none: both unknown, never 0 bit/s.
	eth0, _ := readNetIf(ctx, &fr, "eth0")
	if eth0.speedKnown || !eth0.running() || eth0.flags&iffRunning != 0 || eth0.flags&iffBroadcast == 0 {
		t.Errorf("eth0 speed known %v, running %v, flags %#x", eth0.speedKnown, eth0.running(), eth0.flags)
	}
	if _, err := readIPv4(ctx, "eth0"); !errors.Is(err, errNotFromTree) {
		t.Errorf("readIPv4 under a fixture = %v, want errNotFromTree", err)
	}
	if _, err := readNetIf(ctx, &fr, "nope0"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readNetIf(missing) = %v", err)
	}
	if _, err := readNetIf(ctx, &fr, "../../proc"); !errors.Is(err, errBadName) {
		t.Errorf("readNetIf(../../proc) = %v", err)
	}
	if _, err := readBlockDev(ctx, &fr, ".."); !errors.Is(err, errBadName) {
		t.Errorf("readBlockDev(..) = %v", err)
	}
}

// TestFixtureWrap32: the data for X-3's first example. The 32-bit millisecond columns wrap once between
// t0 and t1; the name space, told their width, computes (cur - prev) mod 2^32.
func TestFixtureWrap32(t *testing.T) {
	t.Parallel()
	s0 := readSample(t, fixtureCtx(t, "wrap32", "t0"))
	s1 := readSample(t, fixtureCtx(t, "wrap32", "t1"))
	if el := s1.up.upCs - s0.up.upCs; el != 100 {
		t.Fatalf("elapsed = %d cs, want 100", el)
	}
	a, b := findDisk(s0.disks, "sda"), findDisk(s1.disks, "sda")
	for c, want := range map[diskCol][3]uint64{ // t0, t1, one-wrap delta
		diskWriteMs:    {4294967000, 200, 496},
		diskIOMs:       {4294966996, 500, 800},
		diskWeightedMs: {4294967295, 700, 701},
		diskFlushMs:    {4294967290, 4, 10},
	} {
		if diskColInfo[c].bits != 32 {
			t.Errorf("%s is not declared 32-bit", c)
		}
		if a.v[c] != want[0] || b.v[c] != want[1] || b.v[c] >= a.v[c] {
			t.Errorf("%s = %d -> %d, want %d -> %d", c, a.v[c], b.v[c], want[0], want[1])
		}
		if d := uint64(uint32(b.v[c] - a.v[c])); d != want[2] {
			t.Errorf("%s one-wrap delta = %d, want %d", c, d, want[2])
		}
	}
	if b.v[diskReads]-a.v[diskReads] != 100 || diskColInfo[diskReads].bits != 64 {
		t.Errorf("reads = %d -> %d", a.v[diskReads], b.v[diskReads])
	}
}

// TestFixtureDecrease64: the data for X-3's second example: 64-bit counters that go backwards.
func TestFixtureDecrease64(t *testing.T) {
	t.Parallel()
	s0 := readSample(t, fixtureCtx(t, "decrease64", "t0"))
	s1 := readSample(t, fixtureCtx(t, "decrease64", "t1"))
	a, b := findDisk(s0.disks, "sda"), findDisk(s1.disks, "sda")
	if a.v[diskReads] != 5000 || b.v[diskReads] != 100 || diskColInfo[diskReads].bits != 64 {
		t.Errorf("sda reads = %d -> %d", a.v[diskReads], b.v[diskReads])
	}
	if a.v[diskReadBytes] != 5000*8*512 || b.v[diskReadBytes] != 100*8*512 {
		t.Errorf("sda read bytes = %d -> %d", a.v[diskReadBytes], b.v[diskReadBytes])
	}
	e0, e1 := findNIC(s0.nics, "eth0"), findNIC(s1.nics, "eth0")
	if e0.v[netRxBytes] != 5000 || e1.v[netRxBytes] != 100 || e0.v[netTxBytes] != 7000 || e1.v[netTxBytes] != 7000 {
		t.Errorf("eth0 = %v -> %v", e0.v, e1.v)
	}
}

func TestFixtureDiskRemoved(t *testing.T) {
	t.Parallel()
	var fr fileReader
	for _, tc := range []struct {
		tn        string
		devs      []string
		diskstats []string
	}{
		{"t0", []string{"sda", "sdb"}, []string{"sda", "sda1", "sdb", "sdb1"}},
		{"t1", []string{"sda"}, []string{"sda", "sda1"}},
	} {
		ctx := fixtureCtx(t, "disk_removed", tc.tn)
		devs, err := listBlockDevs(ctx)
		if err != nil || !slices.Equal(devs, tc.devs) {
			t.Errorf("%s: block devices = %v, %v; want %v", tc.tn, devs, err, tc.devs)
		}
		ds, err := readDiskstats(ctx, &fr, nil, 0)
		if err != nil || !slices.Equal(diskNames(ds), tc.diskstats) {
			t.Errorf("%s: diskstats = %v, %v; want %v", tc.tn, diskNames(ds), err, tc.diskstats)
		}
	}
	sdb, err := readBlockDev(fixtureCtx(t, "disk_removed", "t0"), &fr, "sdb")
	if err != nil || !sdb.removable || sdb.serial != "FAKE-SERIAL-sdb" || sdb.serialFrom != "sysfs device/serial" ||
		len(sdb.parts) != 1 || sdb.parts[0].name != "sdb1" || sdb.parts[0].minor != 17 {
		t.Errorf("t0 sdb = %+v, %v", sdb, err)
	}
	if _, err := readBlockDev(fixtureCtx(t, "disk_removed", "t1"), &fr, "sdb"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("t1 sdb error = %v, want ErrNotExist", err)
	}
}

func TestFixtureIfAdded(t *testing.T) {
	t.Parallel()
	var fr fileReader
	for tn, want := range map[string][]string{"t0": {"lo", "eth0"}, "t1": {"lo", "eth0", "wg0"}} {
		ctx := fixtureCtx(t, "if_added", tn)
		nics, err := readNetDev(ctx, &fr, nil)
		if err != nil || !slices.Equal(nicNames(nics), want) {
			t.Errorf("%s: net/dev = %v, %v; want %v", tn, nicNames(nics), err, want)
		}
		ifs, err := listNetIfs(ctx)
		slices.Sort(want)
		if err != nil || !slices.Equal(ifs, want) {
			t.Errorf("%s: sysfs = %v, %v; want %v", tn, ifs, err, want)
		}
	}
	wg, err := readNetIf(fixtureCtx(t, "if_added", "t1"), &fr, "wg0")
	want := netIf{name: "wg0", mtu: 1420, ifindex: 3, flags: 0x91, operstate: "unknown", carrier: -1}
	want.have.address, want.have.mtu, want.have.flags = true, true, true
	if err != nil || wg != want || !wg.running() {
		t.Errorf("wg0 = %+v, %v\nwant %+v", wg, err, want)
	}
}

func TestFixtureMalformed(t *testing.T) {
	t.Parallel()
	var fr fileReader
	for _, tn := range []string{"t0", "t1"} {
		ctx := fixtureCtx(t, "malformed", tn)
		root := filepath.Join("testdata", "malformed", tn, "proc")

		ds, err := readDiskstats(ctx, &fr, nil, 0)
		if got := diskNames(ds); !slices.Equal(got, []string{"sda", "sdb", "sdc"}) {
			t.Errorf("%s: good disks = %v", tn, got)
		}
		wantErrs := []string{
			"disk: parse " + filepath.Join(root, "diskstats") + " line 2: too few fields",
			"line 3: major/minor: not a decimal number",
			"line 5: field 3: not a decimal number",
			"line 6: major/minor: number out of range",
		}
		if tn == "t1" {
			wantErrs = append(wantErrs, "line 8: too few fields: got 4 statistics")
		}
		checkLineErrs(t, err, wantErrs)
		if sdb := findDisk(ds, "sdb"); sdb.columns != 11 || sdb.has(diskDiscards) {
			t.Errorf("%s: sdb columns = %d", tn, sdb.columns)
		}

		nics, err := readNetDev(ctx, &fr, nil)
		if got := nicNames(nics); !slices.Equal(got, []string{"lo", "eth1"}) {
			t.Errorf("%s: good interfaces = %v", tn, got)
		}
		checkLineErrs(t, err, []string{
			"net: parse " + filepath.Join(root, "net", "dev") + " line 4: too few fields",
			`line 5: too few fields: no "name:"`,
			`line 7: too few fields: no "name:"`,
			"line 8: field 9: number out of range",
		})

		var st procStat
		err = readStat(ctx, &fr, &st)
		checkLineErrs(t, err, []string{
			"cpu: parse " + filepath.Join(root, "stat") + " line 2: too few fields",
			`line 4: bad CPU name "cpuX"`,
			"line 5: too few fields: ctxt has no value",
			"line 7: not a decimal number",
		})
		// cpu0's line is there but cannot be read: it stays, marked bad (issue 29).
		if st.total.ticks[cpuIdle] != 300 || len(st.cpus) != 2 || !st.cpus[0].bad || st.cpus[0].cpu != 0 || st.cpus[1].cpu != 1 {
			t.Errorf("%s: stat = %+v", tn, st)
		}
		if _, ok := st.get(statCtxt); ok {
			t.Errorf("%s: ctxt present", tn)
		}
		if _, ok := st.get(statBtime); ok {
			t.Errorf("%s: btime present", tn)
		}
		if v, ok := st.get(statProcesses); !ok || v != 99 {
			t.Errorf("%s: processes = %d, %v", tn, v, ok)
		}
	}
}

func TestFixtureHostileNames(t *testing.T) {
	t.Parallel()
	var fr fileReader
	ctx := fixtureCtx(t, "hostile_names", "t0")
	s := readSample(t, ctx)
	if got := nicNames(s.nics); !slices.Equal(got, hostileNICs) {
		t.Errorf("interfaces = %q", got)
	}
	if got := diskNames(s.disks); !slices.Equal(got, []string{"dm-0", "sd\x1b[2Ja", "nvme\xff0n1"}) {
		t.Errorf("disks = %q", got)
	}
	if s.id.hostname != "evil\x1b]0;owned\x07host" {
		t.Errorf("hostname = %q", s.id.hostname)
	}
	dm, err := readBlockDev(ctx, &fr, "dm-0")
	if err != nil {
		t.Fatal(err)
	}
	if dm.dmName != "my volume \x1b]0;pwned\x07 é" || dm.serial != "Evil Disk \x1b[5mblink\x1b[0m 42" || dm.serialFrom != "udev ID_SERIAL" {
		t.Errorf("dm-0 = %+v", dm)
	}
	// What the display shows.
	for in, want := range map[string]string{
		s.id.hostname:   `evil\x1b]0;owned\x07host`,
		dm.dmName:       `my volume \x1b]0;pwned\x07 é`,
		dm.serial:       `Evil Disk \x1b[5mblink\x1b[0m 42`,
		s.nics[1].name:  `\x1b[31mred\x1b[0m`,
		s.nics[2].name:  `caf\xe9`,
		s.nics[3].name:  "my if",
		s.nics[4].name:  `\u202eevil`,
		s.disks[2].name: `nvme\xff0n1`,
	} {
		if got := ns.EscapeName(in); got != want {
			t.Errorf("ns.EscapeName(%q) = %q, want %q", in, got, want)
		}
	}

	dir := hostileNamesTree(t, hostileNICs)
	hctx := withRoots(context.Background(), treeRoots(dir))
	ifs, err := listNetIfs(hctx)
	if err != nil || len(ifs) != len(hostileNICs) {
		t.Errorf("listNetIfs = %q, %v", ifs, err)
	}
	for i, name := range hostileNICs {
		n, err := readNetIf(hctx, &fr, name)
		if err != nil || n.name != name || n.ifindex != uint64(i+1) || !strings.HasPrefix(n.address, "02:dc") {
			t.Errorf("readNetIf(%q) = %+v, %v", name, n, err)
		}
	}
}
