package collect

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A provider is collected on a goroutine of its own, kept from one collection to the next
// (issue 38 item 4). A goroutine started for each collection began on the smallest stack and
// grew it, copying it each time, as the provider's reading went deeper: in the recorder's
// profile (dcimon record, a sample every 100 ms) a fourteenth of its processor time was
// runtime.newstack and copystack. A worker idle for workerIdle ends (so a sampler that is
// dropped, or a supplier that went, leaves nothing running for long), and the next job starts
// another. While it waits, a worker holds nothing of the sampler: a job is given with what it
// needs and dropped once done.

// workerIdle is how long a provider's worker waits for its next job before it ends, in
// nanoseconds (a test shortens it while other tests' workers read it).
var workerIdle atomic.Int64

func init() { workerIdle.Store(int64(time.Minute)) }

// provJob is one collection of a provider, given to its worker.
type provJob struct {
	s   *Sampler
	ctx context.Context
	ps  *provState
	req Request
	ch  chan<- result
}

// worker is a provider's goroutine: started by give when there is none, ended when idle.
type worker struct {
	mu    sync.Mutex
	alive bool
	jobs  chan provJob // one job at a time: a provider still collecting is given none (plan)
}

// give hands j to the provider's worker, made at its first job (the caller holds Sampler.mu).
func (ps *provState) give(j provJob) {
	if ps.worker == nil {
		ps.worker = &worker{jobs: make(chan provJob, 1)}
	}
	ps.worker.give(j)
}

// give hands j to the worker, starting it when it is not running. A worker still busy (it
// never is: a provider collecting is not given another job) makes the job a goroutine of its own.
func (w *worker) give(j provJob) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.jobs <- j:
	default:
		go j.s.run(j.ctx, j.ps, j.req, j.ch)
		return
	}
	if !w.alive {
		w.alive = true
		go w.work(w.jobs)
	}
}

// work runs the jobs given, until none came for workerIdle. The decision to end is taken under
// the lock give sends under, so no job is ever left without a worker.
func (w *worker) work(jobs chan provJob) {
	wait := time.Duration(workerIdle.Load())
	idle := time.NewTimer(wait)
	defer idle.Stop()
	for {
		select {
		case j := <-jobs:
			j.s.run(j.ctx, j.ps, j.req, j.ch)
			j = provJob{} // nothing of the sampler kept while waiting
			_ = j
			idle.Reset(wait)
		case <-idle.C:
			w.mu.Lock()
			if len(jobs) > 0 {
				w.mu.Unlock()
				idle.Reset(wait)
				continue
			}
			w.alive = false
			w.mu.Unlock()
			return
		}
	}
}
