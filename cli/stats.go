package cli

import (
	"fmt"
	"os"
	"os/signal"
	"runtime/metrics"
	"runtime/pprof"
	"syscall"
	"time"
)

// statsEvery is how often DCIMON_STATS writes a line.
const statsEvery = 10 * time.Second

// startStats writes, when path is set (DCIMON_STATS, for scripts/soak.sh), a line every
// statsEvery with what a long run must keep flat: the Go heap live after the last collection,
// the heap's bytes in use, the goroutines and the open descriptors (issue 41 item 10). The
// runtime's metrics are read without stopping the program; SIGUSR1 writes every goroutine's
// stack to PATH.goroutines. It returns the function that stops it.
func startStats(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "dcimon: DCIMON_STATS: %v\n", err)
		return func() {}
	}
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}, {Name: "/sched/goroutines:goroutines"}}
	write := func() {
		metrics.Read(samples)
		fds := -1
		if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
			fds = len(ents) - 1 // the directory's own descriptor while it is read
		}
		fmt.Fprintf(f, "%d live_heap=%d heap_objects=%d goroutines=%d fds=%d\n", time.Now().Unix(),
			samples[0].Value.Uint64(), samples[1].Value.Uint64(), samples[2].Value.Uint64(), fds)
	}
	stop := make(chan struct{})
	// SIGUSR1 writes every goroutine's stack to PATH.goroutines: what a soak that found a
	// monitor stalled looks at.
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	go func() {
		t := time.NewTicker(statsEvery)
		defer t.Stop()
		write()
		for {
			select {
			case <-t.C:
				write()
			case <-usr1:
				if g, err := os.Create(path + ".goroutines"); err == nil {
					_ = pprof.Lookup("goroutine").WriteTo(g, 2)
					g.Close()
				}
			case <-stop:
				signal.Stop(usr1)
				return
			}
		}
	}()
	return func() { close(stop); f.Close() }
}
