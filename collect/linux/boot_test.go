package linux

import (
	"context"
	"testing"

	"dcimon/collect"
	"dcimon/collect/schema"
)

// Every host supplier's first reset value is the boot time, whichever provider the sampler runs
// first: the protocol and pressure providers, which read no /proc/stat at every collection, once
// reported 0 when they ran before the CPU provider, and their second reading then looked like a
// restart of the supplier, without rates for a whole interval (`get 'TCP/*'` showed "supplier
// re-initialised", DCI4-SUP-8).
func TestFirstResetIsTheBootTime(t *testing.T) {
	want := collect.ResetOf(1795224670) // testdata/basic/t0/proc/stat btime
	for _, p := range treeProviders(t, "basic", "t0", false) {
		switch p.Supplier().Module {
		case schema.TCPIPModule, schema.PressureModule:
			b, err := p.Collect(context.Background(), collect.Request{Static: true, Variable: true})
			if err != nil {
				t.Fatalf("%s: %v", p.Supplier().Module, err)
			}
			if b.Reset != want {
				t.Errorf("%s: first reset %x, want the boot time %x", p.Supplier().Module, b.Reset, want)
			}
		}
	}
}
