package linux

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

const mountinfoSample = `22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
24 22 0:22 / /dev/shm rw,nosuid,nodev shared:2 - tmpfs tmpfs rw
25 22 254:0 /srv /mnt/bind rw,relatime shared:1 - ext4 /dev/vda rw
26 22 0:40 / /mnt/my\040disk rw,relatime - nfs4 server:/export\040x rw,vers=4.2
27 22 7:0 / /snap/core/1 ro,nodev,relatime - squashfs /dev/loop0 ro
28 22 0:23 / /dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw,size=64k
`

func TestParseMountinfo(t *testing.T) {
	ms, err := parseMountinfo("mi", []byte(mountinfoSample))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 7 || ms[4].point != "/mnt/my disk" || ms[4].source != "server:/export x" || ms[4].fstype != "nfs4" ||
		ms[0].devMajor != 254 || ms[0].id != 22 || ms[3].root != "/srv" || ms[5].options != "ro,nodev,relatime" {
		t.Fatalf("%+v", ms)
	}
	// df's choice: no pseudo file systems, no squashfs images, a device once (the bind mount of
	// /srv is left out), a mount point mounted over shows its last mount.
	var points []string
	for _, m := range shown(ms, false) {
		points = append(points, m.point+"#"+uintText(m.id))
	}
	if got := strings.Join(points, " "); got != "/#22 /mnt/my disk#26 /dev/shm#28" {
		t.Fatalf("shown: %s", got)
	}
	// --show-loop shows them all but the mount that is mounted over.
	points = points[:0]
	for _, m := range shown(ms, true) {
		points = append(points, m.point+"#"+uintText(m.id))
	}
	if got := strings.Join(points, " "); got != "/#22 /proc#23 /mnt/bind#25 /mnt/my disk#26 /snap/core/1#27 /dev/shm#28" {
		t.Fatalf("shown with --show-loop: %s", got)
	}
	for _, bad := range []string{"", "22 1 254:0 / / rw shared:1 ext4 /dev/vda rw\n", "x 1 254:0 / / rw - ext4 /dev/vda rw\n",
		"22 1 254 / / rw - ext4 /dev/vda rw x\n", "22 1 254:0 / relative rw - ext4 /dev/vda rw x\n"} {
		if _, err := parseMountinfo("bad", []byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func uintText(v uint64) string { return strconv.FormatUint(v, 10) }

func FuzzParseMountinfo(f *testing.F) {
	f.Add([]byte(mountinfoSample))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := parseMountinfo("fuzz", data)
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.point == "" || m.point[0] != '/' {
				t.Fatalf("%q gave mount point %q", data, m.point)
			}
		}
		_ = shown(ms, false)
	})
}

// fsTree is an FS provider reading a mount table written by the test, with statfs answered by
// the test too.
func fsTree(t *testing.T, mountinfo string, statfs statfsFunc) (*collecttest.Harness, *fsProvider, *time.Time) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "proc", "self"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "proc", "self", "mountinfo"), []byte(mountinfo), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newFSProvider(treeRoots(dir), &bootClock{}, false)
	p.statfs = statfs
	now := time.Unix(1_800_000_000, 0)
	p.now = func() time.Time { return now }
	h := collecttest.NewHarness(t, []collect.Provider{p})
	return h, p, &now
}

// issue 19: a file system that hangs (a dead NFS server) is n/a (timed out) on its own row at
// the deadline, the others are read, and it is not asked again while its call has not returned.
func TestFSHungMount(t *testing.T) {
	release := make(chan struct{})
	var nfsCalls atomic.Int32
	statfs := func(path string) (unix.Statfs_t, error) {
		if strings.HasPrefix(path, "/mnt/my disk") {
			nfsCalls.Add(1)
			<-release
			return unix.Statfs_t{}, errors.New("stale file handle")
		}
		return unix.Statfs_t{Blocks: 1000, Bfree: 250, Bavail: 200, Frsize: 4096, Bsize: 4096, Files: 100, Ffree: 60}, nil
	}
	h, _, now := fsTree(t, mountinfoSample, statfs)
	begin := time.Now()
	h.Step(collect.Request{Static: true, Variable: true})
	if el := time.Since(begin); el > 2*fsStatDeadline {
		t.Fatalf("a hung statfs held the collection %v", el)
	}
	if v := h.Value("FS/∕mnt∕my disk/size"); v.State != ns.Unavailable || v.Reason != ns.ReasonTimeout {
		t.Fatalf("hung mount: %+v", v)
	}
	if v := h.Value("FS/∕/used"); v.State != ns.Valid || v.N != 750*4096 {
		t.Fatalf("root used %+v", v)
	}
	if v := h.Value("FS/∕/%used"); v.State != ns.Valid || v.V < 0.789 || v.V > 0.79 { // 750 / (750 + 200)
		t.Fatalf("root %%used %+v", v)
	}
	if v := h.Value("FS/∕mnt∕my disk/type"); v.State != ns.Valid || v.S != "nfs4" {
		t.Fatalf("the hung mount's attributes are still known: %+v", v)
	}
	*now = now.Add(time.Second)
	h.Step(collect.Request{})
	if n := nfsCalls.Load(); n != 1 {
		t.Fatalf("a hung statfs was started again: %d calls", n)
	}
	close(release)
	time.Sleep(20 * time.Millisecond)
	*now = now.Add(time.Second)
	h.Step(collect.Request{})
	if v := h.Value("FS/∕mnt∕my disk/size"); v.State != ns.Unavailable || v.Reason != ns.ReasonProviderError {
		t.Fatalf("after the call returned with an error: %+v", v)
	}
}

// issue 19: a real tmpfs, mounted and filled by the test, is found first among the fullest file
// systems, as `hot FS %used` ranks them, with df's numbers.
func TestFSRealTmpfs(t *testing.T) {
	dir := t.TempDir()
	// The provider runs before the mount: the kernel's signal that the mount table changed makes
	// it read the table again and find the new file system (a mount appearing while running).
	p := newFSProvider(hostRoots(), &bootClock{}, false)
	h := collecttest.NewHarness(t, []collect.Provider{p})
	h.Step(collect.Request{Static: true, Variable: true})
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the test needs CAP_SYS_ADMIN", err)
	}
	defer unix.Unmount(dir, unix.MNT_DETACH)
	// Fill it until the kernel says it is full.
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break
		}
	}
	f.Close()
	now := time.Now().Add(mountsEvery) // at the latest after mountsEvery, whatever the kernel's mark says
	p.now = func() time.Time { return now }
	h.Step(collect.Request{})
	// A long mount point is shortened to fit an SPMI name; the description has it whole.
	name := ""
	fsRef, err := h.Reg.Lookup(nil, "FS")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range fsRef.Ctx.Children() {
		if k.Desc == "File system mounted on "+dir {
			name = k.Path()
		}
	}
	if name == "" {
		t.Fatalf("no file system mounted on %s", dir)
	}
	if v := h.Value(name + "/%used"); v.State != ns.Valid || v.V < 0.99 {
		t.Fatalf("%s %%used %+v, want full", name, v)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	if v := h.Value(name + "/size"); v.N != st.Blocks*uint64(st.Frsize) {
		t.Fatalf("size %d, statfs says %d", v.N, st.Blocks*uint64(st.Frsize))
	}
	src := ns.NewReading(nil)
	src.Publish(h.Snap)
	hs := ns.NewHotSet(h.Reg, src, nil)
	e, err := hs.Add(ns.HotSpec{Grandpa: "FS", Stat: "%used", MaxResp: 50, Feed: ns.SiHotAlways})
	if err != nil {
		t.Fatal(err)
	}
	if err := hs.Read(false); err != nil {
		t.Fatal(err)
	}
	full := false
	for _, it := range e.Items {
		if it.Val.V < 0.99 {
			break // the rest are less full
		}
		full = full || "FS/"+it.Name == name
	}
	if !full {
		t.Fatalf("the full tmpfs is not among the fullest: %+v", e.Items)
	}
}

// issue 19: mounts appearing and disappearing are instances added and removed (events), and a
// file system unmounted while it is being read (statfs fails, the table no longer has it) is
// removed too: no error in the normal case, and no value from the vanished mount.
func TestFSMountsComeAndGo(t *testing.T) {
	var mi string
	var unmountDuringRead atomic.Bool
	statfs := func(path string) (unix.Statfs_t, error) {
		if path == "/mnt/my disk" && unmountDuringRead.Load() {
			// umount runs between the read of the table and this call.
			if err := os.WriteFile(mi, []byte(strings.Replace(mountinfoSample, "26 22 0:40 / /mnt/my\\040disk rw,relatime - nfs4 server:/export\\040x rw,vers=4.2\n", "", 1)), 0o644); err != nil {
				t.Error(err)
			}
			return unix.Statfs_t{}, unix.ENOENT
		}
		return unix.Statfs_t{Blocks: 1000, Bfree: 250, Bavail: 200, Frsize: 4096, Bsize: 4096, Files: 100, Ffree: 60}, nil
	}
	base := "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	h, p, now := fsTree(t, base, statfs)
	mi = filepath.Join(p.roots.proc, "self", "mountinfo")
	step := func(text string) []ns.Event {
		t.Helper()
		if text != "" {
			if err := os.WriteFile(mi, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		n := len(h.Events)
		*now = now.Add(time.Second)
		h.Step(collect.Request{Static: true, Variable: true})
		if len(h.Errs) > 0 || h.Reading("6.2").Err != nil {
			t.Fatalf("an error in the normal case: %v %v", h.Errs, h.Reading("6.2").Err)
		}
		return h.Events[n:]
	}
	kinds := func(evs []ns.Event) (out []string) {
		for _, ev := range evs {
			if ev.Kind == ns.EvInstanceAdded || ev.Kind == ns.EvInstanceRemoved {
				out = append(out, ev.Kind.String()+" "+ev.Path)
			}
		}
		return out
	}
	step("")
	// A mount appears, then another.
	if got := kinds(step(mountinfoSample)); len(got) != 2 || !strings.Contains(got[0]+got[1], "FS/∕mnt∕my disk") || !strings.Contains(got[0]+got[1], "FS/∕dev∕shm") {
		t.Fatalf("mounted: %v", got)
	}
	// It is unmounted while being read: removed at once, no error, nothing read from it.
	unmountDuringRead.Store(true)
	got := kinds(step(""))
	if len(got) != 1 || !strings.Contains(got[0], "FS/∕mnt∕my disk") || !strings.Contains(strings.ToLower(got[0]), "remov") {
		t.Fatalf("unmounted while read: %v", got)
	}
	if _, err := h.Reg.Lookup(nil, "FS/∕mnt∕my disk"); err == nil {
		t.Fatal("the unmounted file system is still in the name space")
	}
	unmountDuringRead.Store(false)
	// The next collection reads the new table: nothing more changes.
	if got := kinds(step("")); len(got) != 0 {
		t.Fatalf("after the unmount: %v", got)
	}
	// The other goes.
	if got := kinds(step(base)); len(got) != 1 || !strings.Contains(got[0], "FS/∕dev∕shm") {
		t.Fatalf("unmounted: %v", got)
	}
}
