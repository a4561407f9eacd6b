package pcp

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"dcimon/collect"
	"dcimon/collect/linux"
	"dcimon/internal/archivetest"
	ns "dcimon/namespace"
)

// hostRecorder is a sampler of this host's default classes on a clock the caller moves, and a
// recorder of what it reads, as dcimon record has them.
func hostRecorder(b *testing.B, base string, t *time.Time) (*collect.Sampler, *Recorder) {
	b.Helper()
	s, err := collect.NewSampler(ns.NewRegistry(), linux.Providers(linux.Options{}), collect.Options{Now: func() time.Time { return *t }, NoDerived: true})
	if err != nil {
		b.Fatal(err)
	}
	r, err := NewRecorder(base, 2, "bench", *t, nil)
	if err != nil {
		b.Fatal(err)
	}
	return s, r
}

// recordSample is one sample read and recorded, the clock a second on.
func recordSample(b *testing.B, s *collect.Sampler, r *Recorder, t *time.Time) {
	snap, err := s.Sample(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Record(s.Registry(), snap); err != nil {
		b.Fatal(err)
	}
	*t = t.Add(time.Second)
}

// recordHost writes n samples of this host's default classes, a second apart in the archive's
// time, as dcimon record does, and returns the archive's base.
func recordHost(b *testing.B, n int) string {
	b.Helper()
	base := filepath.Join(b.TempDir(), "host")
	t := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	s, r := hostRecorder(b, base, &t)
	for range n {
		recordSample(b, s, r, &t)
	}
	if err := r.Close(t.Add(-time.Second)); err != nil {
		b.Fatal(err)
	}
	return base
}

// BenchmarkRecordSample is dcimon record's work for one sample at 1 s of this host: the
// collection of the default classes and the record written.
func BenchmarkRecordSample(b *testing.B) {
	t := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	s, r := hostRecorder(b, filepath.Join(b.TempDir(), "rec"), &t)
	defer r.Close(t)
	b.ReportAllocs()
	for b.Loop() {
		recordSample(b, s, r, &t)
	}
}

// BenchmarkReplayOpenSeek24h opens a 24-hour archive of a sample a second (86,400 records,
// archivetest's) and reads at a time drawn at random: the open, the seek through the temporal
// index and the two readings that end there (issue 15: ≤ 50 ms).
func BenchmarkReplayOpenSeek24h(b *testing.B) {
	base := archivetest.Write(b, b.TempDir(), "day", 86400, 0)
	rnd := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		provs, as, err := ArchiveProviders([]string{base}, time.Time{}, false)
		if err != nil {
			b.Fatal(err)
		}
		s, err := collect.NewSampler(ns.NewRegistry(), provs, collect.Options{Now: as.Clock})
		if err != nil {
			b.Fatal(err)
		}
		r := collect.NewReplay(s, as, archivetest.Start.Add(time.Duration(rnd.IntN(86400))*time.Second))
		if _, err := r.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayStep is one step forward in a recording of this host's default classes (one
// reading: the next sample, decoded, mapped and its rates made; issue 15: ≤ 5 ms).
func BenchmarkReplayStep(b *testing.B) {
	r := openReplay(b, time.Time{}, recordHost(b, 600))
	if _, err := r.Sample(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Step(1)
		if _, err := r.Sample(context.Background()); err != nil {
			r.Move(time.Time{}) // the end: from the start again
			if _, err := r.Sample(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReplaySeekHost is a move to a time drawn at random in the same recording: a seek
// and two readings.
func BenchmarkReplaySeekHost(b *testing.B) {
	r := openReplay(b, time.Time{}, recordHost(b, 600))
	first, _ := r.Span()
	rnd := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		r.Move(first.Add(time.Duration(rnd.IntN(600)) * time.Second))
		if _, err := r.Sample(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
