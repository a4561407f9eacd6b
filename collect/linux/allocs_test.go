package linux

import "testing"

// The parsers must not allocate in the steady state, when dst already has room and the names did not
// change: a sample every second for days should not feed the garbage collector. Not parallel:
// AllocsPerRun.
func TestParsersDoNotAllocate(t *testing.T) {
	stat := readFixture(t, "basic/t0/proc/stat")
	disks := readFixture(t, "basic/t0/proc/diskstats")
	nics := readFixture(t, "basic/t0/proc/net/dev")
	mem := readFixture(t, "basic/t0/proc/meminfo")
	vm := readFixture(t, "basic/t0/proc/vmstat")
	up := readFixture(t, "basic/t0/proc/uptime")
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	var mi memInfo
	var vs vmStat
	for name, f := range map[string]func(){
		"parseStat":      func() { _ = parseStat("stat", stat, &st) },
		"parseDiskstats": func() { ds, _ = parseDiskstats("diskstats", disks, ds, 0) },
		"parseNetDev":    func() { nd, _ = parseNetDev("dev", nics, nd) },
		"parseMeminfo":   func() { _ = parseMeminfo("meminfo", mem, &mi) },
		"parseVMStat":    func() { _ = parseVMStat("vmstat", vm, &vs) },
		"parseUptime":    func() { _, _ = parseUptime("uptime", up) },
	} {
		f() // first parse grows dst
		if n := testing.AllocsPerRun(50, f); n != 0 {
			t.Errorf("%s: %v allocations per steady-state parse, want 0", name, n)
		}
	}
}

// The readers allocate only to open the file (the joined path, the *os.File): a bounded handful per
// file, never per line or per device.
func TestReadersAllocateOnlyToOpen(t *testing.T) {
	ctx := fixtureCtx(t, "basic", "t0")
	var fr fileReader
	var st procStat
	var ds []diskStat
	var nd []netDevStat
	for name, f := range map[string]func(){
		"readStat":      func() { _ = readStat(ctx, &fr, &st) },
		"readDiskstats": func() { ds, _ = readDiskstats(ctx, &fr, ds, 0) },
		"readNetDev":    func() { nd, _ = readNetDev(ctx, &fr, nd) },
	} {
		f()
		if n := testing.AllocsPerRun(50, f); n > 6 {
			t.Errorf("%s: %v allocations per read, want at most 6", name, n)
		}
	}
}
