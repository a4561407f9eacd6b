package archivetest

import (
	"strings"
	"testing"

	"dcimon/internal/pcptest"
)

// The fleet's archives are archives PCP's own tools read: pmlogcheck passes them, and pmdumplog
// shows the values written (host 1, disk sdb, the busy time after its first step).
func TestWriteFleetPCPReads(t *testing.T) {
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	bases, err := WriteFleet(t.TempDir(), Fleet{Hosts: 2, Disks: 3, Samples: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bases {
		pcptest.Run(t, "pmlogcheck", b)
	}
	// Host 1's sdb: 2,001,000 ms at first, then FleetBusy(1, 1, 1) = 55 % of 10 s more.
	out := pcptest.Run(t, "pmdumplog", bases[1], "disk.dev.avactive")
	if !strings.Contains(out, "2001000") || !strings.Contains(out, "2006500") || FleetBusy(1, 1, 1) != 55 {
		t.Errorf("pmdumplog of host 1's busy time:\n%s", out)
	}
	if out := pcptest.Run(t, "pmdumplog", "-L", bases[1]); !strings.Contains(out, "node001") {
		t.Errorf("pmdumplog -L:\n%s", out)
	}
}
