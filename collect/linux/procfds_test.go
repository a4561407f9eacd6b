package linux

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"dcimon/collect"
)

// Issue 41 item 9: the cache is a quarter of the descriptor limit, at most 512 (issue 38 item
// 5: 256 left a sixth of the overview's time in opening and closing, at 146 processes).
func TestFDBudget(t *testing.T) {
	t.Parallel()
	for n, want := range map[uint64]int{16: 4, 128: 32, 1024: 256, 4096: 512, 1 << 20: 512} {
		if got := budgetOf(n); got != want {
			t.Errorf("budgetOf(%d) = %d, want %d", n, got, want)
		}
	}
}

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

// Issue 41 item 9, on this host's /proc: the descriptors kept stay within the cache's size
// however many processes there are, only processes seen twice get them, every process is read,
// and an open that finds no descriptor left sheds the cache and is tried again.
func TestProcKeptDescriptorsBounded(t *testing.T) {
	if !isProcfs("/proc") {
		t.Skip("no procfs")
	}
	h, p, now := procHarness(t, "/")
	p.roots.proc = "/proc"
	req := collect.Request{Static: true, Variable: true}
	step := func() {
		*now = now.Add(1e9)
		h.Step(req)
		if len(h.Errs) > 0 {
			t.Fatal(h.Errs)
		}
	}
	step()
	const budget = 12
	p.budget = budget
	before := openFDs(t)
	if p.keptFDs != 0 {
		t.Errorf("%d descriptors kept after one scan: a process seen once gets none", p.keptFDs)
	}
	step()
	step()
	procs := len(h.Reading("13.2").Specs)
	if procs < 10 {
		t.Skipf("only %d processes", procs)
	}
	if p.keptFDs != budget {
		t.Errorf("%d descriptors kept, want the cache's %d (of %d processes)", p.keptFDs, budget, procs)
	}
	if grown := openFDs(t) - before; grown > budget+2 {
		t.Errorf("%d more descriptors open after the scans, cache of %d", grown, budget)
	}
	// One open finds no descriptor left: the cache is shed to half, and every process is read.
	failed := false
	p.openHook = func(string) error {
		if !failed {
			failed = true
			return unix.EMFILE
		}
		return nil
	}
	p.budget = 1 << 20 // as if the limit allowed more: the next open asks for a descriptor
	step()
	if !failed {
		t.Fatal("no open was made")
	}
	if err := h.Reading("13.2").Err; err != nil {
		t.Errorf("a shed cache failed the class: %v", err)
	}
	if n := len(h.Reading("13.2").Specs); n < procs-5 {
		t.Errorf("%d processes read after the shed, %d before", n, procs)
	}
	if p.budget > budget {
		t.Errorf("cache of %d after running out of descriptors, want at most half of the %d kept", p.budget, budget)
	}
}
