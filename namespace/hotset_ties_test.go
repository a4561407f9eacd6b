package namespace

import (
	"strings"
	"testing"
	"time"
)

// Issue 40 item 7: peers of one name on several hosts that tie rank by their paths, whatever
// order the hosts were registered and read in (--series reads them in /series/sources' order,
// --archive in the archives'): the ranking is the same both ways.
func TestHotFleetTiesByPath(t *testing.T) {
	for _, order := range [][]string{{"web", "db", "app"}, {"app", "db", "web"}, {"db", "web", "app"}} {
		r := NewRegistry()
		for i, host := range order {
			h := uint32(1001 + i)
			for _, c := range []*Class{
				{ID: ClassID{h}, Name: host, Desc: "A host", Flags: ClassEnabled},
				{ID: ClassID{h, 2}, Name: "Disk", Desc: "Disks", Flags: ClassEnabled},
				{ID: ClassID{h, 2, 2}, Name: "disk", Desc: "One disk", Flags: ClassEnabled, InstFreq: SiContInst,
					Levels: []InstLevel{{TypeUint8, TagDiskID, 8}}, Datums: []Datum{Counter(1, "busy", TypeUint8, UnitMillisecs, "Time doing I/O", "test")}},
			} {
				if err := r.RegisterClass(c); err != nil {
					t.Fatal(err)
				}
			}
		}
		f := newHSFeed(t, r)
		for i, host := range order {
			f.add(ClassID{uint32(1001 + i), 2, 2}, "sda", 1)
			f.set(host+"/Disk/sda", "busy", 1000)
		}
		f.tick(0)
		for _, host := range order {
			f.set(host+"/Disk/sda", "busy", 1040) // every host's sda 40/s: a tie
		}
		f.now = f.now.Add(time.Second)
		h := NewHotSet(r, NewReading(f.take), nil)
		top := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "*/Disk", MaxResp: 2, Feed: SiHotAlways})
		all := hsAdd(t, h, HotSpec{Stat: "busy", Grandpa: "*/Disk", Feed: SiHotAlways})
		hsRead(t, h, true)
		if got := hsItems(top); got != "app/Disk/sda 40, db/Disk/sda 40" {
			t.Errorf("hosts registered %s: top 2 %q", strings.Join(order, ","), got)
		}
		if got := hsItems(all); got != "app/Disk/sda 40, db/Disk/sda 40, web/Disk/sda 40" {
			t.Errorf("hosts registered %s: all %q", strings.Join(order, ","), got)
		}
	}
}
