package linux

import (
	"context"

	"dcimon/collect"
)

// readSelfUsage reads dcimon's own cost for the Monitor class: CPU time (user + system) in
// milliseconds, converted from USER_HZ ticks, and resident memory in bytes. It reads
// <proc>/self from the roots in ctx; the sampler passes the live host's, since dcimon's cost is
// never in a fixture tree.
func readSelfUsage(ctx context.Context, fr *fileReader) (cpuMs, rssBytes uint64, err error) {
	var st selfStat
	err = readSelf(ctx, fr, &st)
	return (st.utimeTicks + st.stimeTicks) * msPerTick, st.rssBytes, err
}

// SelfReader reads dcimon's own process for the sampler's Monitor class (collect.Options.Self):
// always the real /proc/self, whatever tree the providers read.
type SelfReader struct{ fr fileReader }

// Read reads /proc/self/stat and statm.
func (r *SelfReader) Read(ctx context.Context) (collect.SelfUsage, error) {
	var st selfStat
	err := readSelf(withRoots(ctx, hostRoots()), &r.fr, &st)
	return collect.SelfUsage{RSS: st.rssBytes, VM: st.vmBytes, Threads: st.threads}, err
}
