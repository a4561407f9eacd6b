package pcp

import (
	"context"
	"testing"
	"time"
)

func TestZZOpen(t *testing.T) {
	t0 := time.Now()
	s, err := OpenSeries(context.Background(), SeriesOptions{URL: "pcp://127.0.0.1:56763"})
	t.Log(time.Since(t0), err)
	if err == nil {
		t.Log(len(s.xs))
	}
}
