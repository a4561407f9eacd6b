package collect

import "time"

// SetWorkerIdle sets how long a provider's worker waits for a job before it ends, for a test;
// the returned func puts it back.
func SetWorkerIdle(d time.Duration) (restore func()) {
	old := workerIdle.Swap(int64(d))
	return func() { workerIdle.Store(old) }
}
