package collect_test

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	ns "dcimon/namespace"
)

// goroutineID is the calling goroutine's number, from its stack's first line ("goroutine 7 [").
func goroutineID() uint64 {
	var buf [64]byte
	b := bytes.TrimPrefix(buf[:runtime.Stack(buf[:], false)], []byte("goroutine "))
	id, _ := strconv.ParseUint(string(b[:bytes.IndexByte(b, ' ')]), 10, 64)
	return id
}

// onGoroutine is a fake provider that says which goroutine each collection ran on.
type onGoroutine struct {
	*fakeProv
	mu  sync.Mutex
	ids []uint64
}

func (p *onGoroutine) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	p.ids = append(p.ids, goroutineID())
	p.mu.Unlock()
	return p.fakeProv.Collect(ctx, req)
}

// A provider is collected on the same goroutine from one collection to the next, which keeps
// the stack it grew (issue 38 item 4: a goroutine a collection grew a stack anew each time),
// and that goroutine ends once idle (a dropped sampler leaves nothing running for long).
func TestProviderKeepsItsGoroutine(t *testing.T) {
	defer collect.SetWorkerIdle(50 * time.Millisecond)()
	clock := &collecttest.FakeClock{T: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
	p := &onGoroutine{fakeProv: newFake("worker", 1, clock, "a", "b")}
	s, err := collect.NewSampler(ns.NewRegistry(), []collect.Provider{p}, collect.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Second)
	}
	p.mu.Lock()
	ids := append([]uint64(nil), p.ids...)
	p.mu.Unlock()
	if len(ids) != 4 {
		t.Fatalf("%d collections, want 4", len(ids))
	}
	for _, id := range ids[1:] {
		if id != ids[0] || id == goroutineID() {
			t.Fatalf("collected on goroutines %v, want one of its own throughout", ids)
		}
	}
	// Idle, the worker ends; the next collection starts another (each poll waits six times the
	// idle time, so the worker it finds has had time to end).
	var last uint64
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
		if _, err := s.Sample(context.Background()); err != nil {
			t.Fatal(err)
		}
		p.mu.Lock()
		last = p.ids[len(p.ids)-1]
		p.mu.Unlock()
		if last != ids[0] {
			return
		}
	}
	t.Errorf("collections on goroutine %d after the worker was idle, want a new one", last)
}
