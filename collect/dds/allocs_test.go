package dds

import (
	"context"
	"os"
	"testing"
	"time"

	"dcimon/collect"
)

// Issue 38 item 6: a supplier file's allocations are a test, not a figure nobody reads: its
// collection when the file has not changed (one stat), and when it has (1,000 series in 10
// families: read, parsed, mapped, values). The ceilings are a little above the counts measured
// when they were set (2026-11-28: 2, and 19,680: about 20 a series, most of them expfmt's; then
// 8 for the unchanged file once its stat runs off the supplier's lock under a deadline, so that
// a file that blocks holds nothing up, issue 41 item 2); lower them when the counts fall.
func TestSupplierFileAllocations(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector allocates on its own")
	}
	sup, p := collectedSupplier(t, 10, 100)
	ctx := context.Background()
	if got := testing.AllocsPerRun(50, func() {
		if _, err := sup.Collect(ctx, collect.Request{}); err != nil {
			t.Fatal(err)
		}
	}); got > 9 {
		t.Errorf("a collection of an unchanged file: %.0f allocations, the budget is 9", got)
	}
	now := time.Now()
	if got := testing.AllocsPerRun(10, func() {
		now = now.Add(time.Second)
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
		b, err := sup.Collect(ctx, collect.Request{})
		if err != nil || len(b.Classes) != 10 {
			t.Fatal(err, len(b.Classes))
		}
	}); got > 20000 {
		t.Errorf("a collection of a changed file of 1,000 series: %.0f allocations, the budget is 20,000", got)
	}
}
