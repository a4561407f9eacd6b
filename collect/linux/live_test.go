package linux

import (
	"context"
	"os"
	"slices"
	"testing"
)

// TestLiveHost reads every source from the running host: the parsers must accept what this kernel
// writes today, not only the fixtures. Skipped where there is no procfs or sysfs.
func TestLiveHost(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"/proc/stat", "/proc/diskstats", "/proc/net/dev", "/sys/block", "/sys/class/net"} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no %s", p)
		}
	}
	ctx := context.Background()
	s := readSample(t, ctx) // fails on any error but a missing file
	if s.stat.total.columns < 4 || len(s.stat.cpus) == 0 || len(s.nics) == 0 || s.up.upCs == 0 || s.id.osRelease == "" {
		t.Errorf("live sample looks empty: %+v", s)
	}
	if s.self.utimeTicks+s.self.stimeTicks == 0 && s.self.rssBytes == 0 {
		t.Errorf("self = %+v", s.self)
	}
	var fr fileReader
	devs, err := listBlockDevs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range devs {
		d, err := readBlockDev(ctx, &fr, name)
		if err != nil {
			t.Errorf("readBlockDev(%s): %v", name, err)
		}
		if findDisk(s.disks, name) == nil {
			t.Errorf("%s is in /sys/block but not in /proc/diskstats", name)
		}
		for _, p := range d.parts {
			if findDisk(s.disks, p.name) == nil {
				t.Errorf("partition %s not in /proc/diskstats", p.name)
			}
		}
	}
	ifs, err := listNetIfs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ifs {
		n, err := readNetIf(ctx, &fr, name)
		if err != nil || n.ifindex == 0 || n.operstate == "" {
			t.Errorf("readNetIf(%s) = %+v, %v", name, n, err)
		}
		if findNIC(s.nics, name) == nil {
			// Not an error: a container's /sys may come from another network namespace than its /proc.
			t.Logf("%s is in /sys/class/net but not in /proc/net/dev", name)
		}
	}
	if slices.Contains(ifs, "lo") {
		addrs, err := readIPv4(ctx, "lo")
		if err != nil || !slices.Contains(addrs, "127.0.0.1/8") {
			t.Errorf("readIPv4(lo) = %v, %v", addrs, err)
		}
	}
}
