package linux

import (
	"fmt"
	"strings"
	"testing"

	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// TestDeclarationsNameTheColumnsRead: the schema states, in each counter's source, the
// /proc/diskstats field and /proc/net/dev column it is, and its width; the parsers here read by
// their own column tables. They must agree, or a datum would say one column and hold another
// a 32-bit column declared 64-bit would turn a wrap into a discontinuity).
func TestDeclarationsNameTheColumnsRead(t *testing.T) {
	_, disk, _ := schema.DiskClasses()
	for i, col := range diskRawCol {
		d := datum(t, disk, uint8(i+1))
		if want := fmt.Sprintf("/proc/diskstats field %d,", int(col)+4); !strings.HasPrefix(d.Source, want) {
			t.Errorf("Disk/%s: source %q, but the parser reads field %d", d.Name, d.Source, int(col)+4)
		}
		if bits32 := diskColInfo[col].bits == 32; bits32 != (d.Type == ns.TypeUint4) {
			t.Errorf("Disk/%s: declared %v, the kernel prints %d bits", d.Name, d.Type, diskColInfo[col].bits)
		}
	}
	_, iface := schema.NetClasses()
	for i, col := range netRawCol {
		d := datum(t, iface, uint8(i+1))
		if want := "/proc/net/dev " + col.String() + " "; !strings.HasPrefix(d.Source, want) {
			t.Errorf("NetIf/%s: source %q, but the parser reads %s", d.Name, d.Source, col)
		}
	}
}

func datum(t *testing.T, c *ns.Class, low uint8) *ns.Datum {
	t.Helper()
	for i := range c.Datums {
		if c.Datums[i].ID.Low() == low {
			return &c.Datums[i]
		}
	}
	t.Fatalf("%s has no datum %d", c.Name, low)
	return nil
}
