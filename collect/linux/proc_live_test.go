package linux

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// TestProcChild is not a test: it is the body of the children TestProcHotsetsLive starts, a
// CPU-bound one (spin) and an I/O-bound one (write: rewrites 4 MiB of a file and syncs it, so
// the kernel counts write_bytes each time while the disk keeps one file).
func TestProcChild(t *testing.T) {
	switch os.Getenv("DCIMON_PROC_CHILD") {
	case "spin":
		for range runtime.NumCPU() {
			go func() {
				for x := 0; ; x++ {
					_ = x * x
				}
			}()
		}
		select {}
	case "write":
		f, err := os.Create(os.Getenv("DCIMON_PROC_FILE"))
		if err != nil {
			os.Exit(3)
		}
		buf := make([]byte, 4<<20)
		for {
			if _, err := f.WriteAt(buf, 0); err != nil {
				os.Exit(4)
			}
			_ = f.Sync()
		}
	default:
		t.Skip("the body of TestProcHotsetsLive's children")
	}
}

// liveProcSampler is a sampler of this host's process provider alone, with the Proc classes
// (on demand) subscribed.
func liveProcSampler(t *testing.T) *collect.Sampler {
	t.Helper()
	var provs []collect.Provider
	for _, p := range Providers(Options{}) {
		if p.Supplier().Module == schema.ProcModule {
			provs = append(provs, p)
		}
	}
	s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Subscribe(s.Registry().OnDemand("Proc")...)
	return s
}

// Issue 17: a real CPU-bound and a real I/O-bound process, started by the test, are first in
// the hotsets of processes by CPU and by I/O bytes, read from this host's /proc.
func TestProcHotsetsLive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts busy processes")
	}
	start := func(kind string) *exec.Cmd {
		c := exec.Command(os.Args[0], "-test.run=^TestProcChild$")
		c.Env = append(os.Environ(), "DCIMON_PROC_CHILD="+kind, "DCIMON_PROC_FILE="+filepath.Join(t.TempDir(), "f"))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	spin, write := start("spin"), start("write")
	s := liveProcSampler(t)
	src := ns.NewReading(nil)
	hs := ns.NewHotSet(s.Registry(), src, nil)
	if _, err := s.Sample(context.Background()); err != nil {
		t.Fatal(err)
	}
	byCPU, err := hs.Add(ns.HotSpec{Grandpa: "Proc", Stat: "cpu", MaxResp: 3, Feed: ns.SiHotAlways})
	if err != nil {
		t.Fatal(err)
	}
	byIO, err := hs.Add(ns.HotSpec{Grandpa: "Proc", Stat: "io_bytes", MaxResp: 3, Feed: ns.SiHotAlways})
	if err != nil {
		t.Fatal(err)
	}
	top := func(v *ns.HotVals) string {
		if len(v.Items) == 0 {
			return "(none)"
		}
		return v.Items[0].Name
	}
	// Other tests run beside this one: the children must come first at some reading of five.
	wantCPU, wantIO := strconv.Itoa(spin.Process.Pid), strconv.Itoa(write.Process.Pid)
	var seen []string
	for range 5 {
		time.Sleep(time.Second)
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		src.Publish(snap)
		if err := hs.Read(false); err != nil {
			t.Fatal(err)
		}
		if top(byCPU) == wantCPU && top(byIO) == wantIO {
			return
		}
		seen = append(seen, fmt.Sprintf("cpu %s, io %s", top(byCPU), top(byIO)))
	}
	t.Errorf("the spinning process %s and the writing one %s were never first: %v", wantCPU, wantIO, seen)
}
