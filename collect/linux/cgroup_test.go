package linux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/views"
)

const fixtureContainer = "4f1c2b3a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"

// cgroupHarness reads the control groups of a tree with a clock the test sets.
func cgroupHarness(t *testing.T, dir string) (*collecttest.Harness, *cgroupProvider, *time.Time) {
	t.Helper()
	now := time.Unix(1700001000, 0)
	p := newCgroupProvider(treeRoots(dir), &bootClock{}, 4)
	p.now = func() time.Time { return now }
	return collecttest.NewHarness(t, []collect.Provider{p}), p, &now
}

// Issue 17: a v2 host's hierarchy as nested contexts, with CPU, throttling, memory, I/O per
// device, pressure, processes and the container's id and name.
func TestCgroupV2Fixture(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, filepath.Join("testdata", "cgroup2", "t0"))
	h, _, now := cgroupHarness(t, dir)
	req := collect.Request{Static: true, Variable: true}
	h.Step(req)
	if len(h.Errs) > 0 || h.Reading("14.2").Err != nil {
		t.Fatal(h.Errs, h.Reading("14.2").Err)
	}
	ctr := "CGroup/system.slice/" + ns.InstanceName("docker-"+fixtureContainer+".scope")
	for path, want := range map[string]string{
		ctr + "/container":      fixtureContainer,
		ctr + "/runtime":        "docker",
		ctr + "/container_name": "web-frontend",
		ctr + "/version":        "v2",
	} {
		if v := h.Value(path); v.S != want {
			t.Errorf("%s = %+v, want %q", path, v, want)
		}
	}
	for path, want := range map[string]float64{
		ctr + "/mem":     536870912,
		ctr + "/mem_max": 1073741824,
		ctr + "/nprocs":  2,
		"CGroup/user.slice/user-1000.slice/session-2.scope/nprocs": 3,
	} {
		if v := h.Value(path); v.State != ns.Valid || v.V != want {
			t.Errorf("%s = %+v, want %v", path, v, want)
		}
	}
	if v := h.Value(ctr + "/io_some_avg10"); v.State != ns.Valid || v.V != 1225 {
		t.Errorf("io_some_avg10 = %+v, want 12.25%% as hundredths", v)
	}
	if v := h.Value("CGroup/system.slice/mem_max"); v.State != ns.Unavailable || v.Reason != ns.ReasonNotPresent {
		t.Errorf("memory.max \"max\" = %+v, want n/a (no limit), never 0", v)
	}
	// The devices are subcontexts of the group, named by the kernel.
	if v := h.Value(ctr + "/nvme0n1/io_rbytes"); v.State != ns.NoRate || v.N != 4096 {
		t.Errorf("per-device read bytes = %+v", v)
	}
	// One second later: 0.5 s of CPU is 50% of a processor, 10 MiB written, 50 ms throttled.
	*now = now.Add(time.Second)
	rewriteFrom(t, filepath.Join("testdata", "cgroup2", "t1"), dir) // in place: the groups stay the same groups
	h.Step(req)
	cls := h.Reg.Class(ns.ClassID{schema.CGroupASN, 2})
	if got := views.FormatValue(h.Datum(ctr+"/cpu"), h.Value(ctr+"/cpu"), views.Options{Class: cls}); got != "50.0%" {
		t.Errorf("cpu shown as %q, want 50.0%%", got)
	}
	if v := h.Value(ctr + "/io_bytes"); v.State != ns.Valid || v.V != 10<<20 {
		t.Errorf("io_bytes = %+v, want 10 MiB/s", v)
	}
	if v := h.Value(ctr + "/throttled"); v.State != ns.Valid || v.V != 50000 {
		t.Errorf("throttled = %+v, want 50 ms/s", v)
	}
}

// A group removed and created again under the same path is a new instance: its counters start
// again without a spike, and the groups under it follow it.
func TestCgroupRecreated(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, filepath.Join("testdata", "cgroup2", "t0"))
	h, p, now := cgroupHarness(t, dir)
	req := collect.Request{Static: true, Variable: true}
	h.Step(req)
	old := h.Instance("CGroup/user.slice/user-1000.slice")
	// Made beside the old one first, so the new directory has another inode.
	us := filepath.Join(dir, "sys", "fs", "cgroup", "user.slice")
	copyInto(t, filepath.Join(us, "user-1000.slice"), filepath.Join(us, "new"))
	if err := os.RemoveAll(filepath.Join(us, "user-1000.slice")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(us, "new"), filepath.Join(us, "user-1000.slice")); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(time.Second)
	p.layout = nil
	h.Step(req)
	if in := h.Instance("CGroup/user.slice/user-1000.slice"); in == old || !old.Removed() {
		t.Fatal("a re-created group is the same instance")
	}
	if v := h.Value("CGroup/user.slice/user-1000.slice/cpu"); v.State != ns.NoRate {
		t.Errorf("a re-created group's cpu = %+v, want no rate", v)
	}
	if _, err := h.Reg.Lookup(nil, "CGroup/user.slice/user-1000.slice/session-2.scope/cpu"); err != nil {
		t.Errorf("the group below was not added again: %v", err)
	}
}

// This development host is a v1/hybrid host: its real hierarchy is read (the memory
// controller's groups), merged with the unified one.
func TestCgroupLiveV1(t *testing.T) {
	t.Parallel()
	l, err := cgroupLayout("/sys/fs/cgroup")
	if err != nil || len(l) == 0 {
		t.Skipf("no control groups mounted here: %v", err)
	}
	v1 := false
	for _, hi := range l {
		v1 = v1 || !hi.v2
	}
	if !v1 {
		t.Skip("no v1 controller on this host: the v2 fixture covers it")
	}
	p := newCgroupProvider(hostRoots(), &bootClock{}, 2)
	h := collecttest.NewHarness(t, []collect.Provider{p})
	h.Step(collect.Request{Static: true, Variable: true})
	if len(h.Errs) > 0 {
		t.Fatal(h.Errs)
	}
	cv := h.Snap.Class(h.Reg.Class(ns.ClassID{schema.CGroupASN, 2}))
	if cv == nil {
		t.Fatal("no CGroup reading")
	}
	if len(cv.Insts) == 0 {
		t.Skip("the v1 hierarchies here have no group below the root")
	}
	valid := 0
	for _, in := range cv.Insts {
		v, _ := cv.Value(in, int(schema.CGMemCurrentID-1))
		if v.State == ns.Valid && v.V > 0 {
			valid++
		}
		ver, _ := cv.Value(in, int(schema.CGVersionID-1))
		if !strings.Contains(ver.S, "v1") && !strings.Contains(ver.S, "v2") {
			t.Errorf("%s: version %q", in.Path(), ver.S)
		}
	}
	if valid == 0 {
		t.Error("no v1 group has its memory read")
	}
}

func TestContainerOf(t *testing.T) {
	t.Parallel()
	id := fixtureContainer
	for in, want := range map[string][2]string{
		"/system.slice/docker-" + id + ".scope": {id, "docker"},
		"/docker/" + id:                         {id, "docker"},
		"/kubepods.slice/kubepods-pod1.slice/cri-containerd-" + id + ".scope": {id, "containerd"},
		"/machine.slice/libpod-" + id + ".scope":                              {id, "podman"},
		"/kubepods/burstable/pod1/" + id:                                      {id, "containerd"},
		"/system.slice/ssh.service":                                           {"", ""},
		"/docker/" + id[:60]:                                                  {"", ""},
	} {
		gid, rt := containerOf(in)
		if gid != want[0] || rt != want[1] {
			t.Errorf("containerOf(%q) = %q, %q; want %q", in, gid, rt, want)
		}
	}
}

// copyTree copies a fixture tree into a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	copyInto(t, src, dir)
	return dir
}

// rewriteFrom writes every file of the tree src over the same file under dst, in place.
func rewriteFrom(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyInto copies the tree src to dst (made if missing).
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
