package headless

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	ns "dcimon/namespace"
)

// Issue 39 item 7: a base name that names no file of its own is refused before anything is read
// or written (`record ""` wrote hidden .0, .meta and .index files in the current directory).
func TestRecordRefusesNoBaseName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, base := range []string{"", " ", "/tmp/", ".", "..", dir + "/"} {
		err := Record(context.Background(), RecordOptions{Base: base}, Env{}, nil)
		var u *UsageError
		if err == nil || !errors.As(err, &u) {
			t.Errorf("record %q: %v, want a usage error", base, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
}

// Issue 38 item 4: a recording that is the whole process runs on one processor (its samples' work
// is a millisecond a second: no second thread woken for each), the environment's GOMAXPROCS
// winning, and the caller's setting is back once it ends; one in a process shared with others (a
// test's) leaves it as it is.
func TestRecordOnOneProcessor(t *testing.T) {
	for _, c := range []struct {
		env     string
		process bool
	}{{"", true}, {"2", true}, {"", false}} {
		env := c.env
		was := runtime.GOMAXPROCS(2)
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		var during []int
		e := Env{Now: func() time.Time { return now }, Loc: time.UTC,
			Sleep: func(ctx context.Context, d time.Duration) error {
				during = append(during, runtime.GOMAXPROCS(0))
				now = now.Add(d)
				return ctx.Err()
			},
			Getenv: func(k string) string { return map[string]string{"HOME": "/nonexistent", "GOMAXPROCS": env}[k] }, Process: c.process}
		o := RecordOptions{Common: Common{Source: "synthetic:disks=1,nics=1,cpus=1,seed=3"}, Base: filepath.Join(t.TempDir(), "r"),
			Interval: time.Second, Duration: 3 * time.Second, Version: 2}
		err := Record(context.Background(), o, e, io.Discard)
		after := runtime.GOMAXPROCS(was)
		want := 1
		if env != "" || !c.process {
			want = 2
		}
		if err != nil || len(during) == 0 || slices.ContainsFunc(during, func(n int) bool { return n != want }) || after != 2 {
			t.Errorf("GOMAXPROCS=%q, whole process %v: %v; processors while recording %v, want %d; after %d, want 2", env, c.process, err, during, want, after)
		}
	}
}

// Issue 38 item 4: a recording's sampler does not read dcimon's own process (the Monitor class,
// which is not recorded); any other command's does.
func TestRecordReadsNoSelf(t *testing.T) {
	e := Env{Now: time.Now, Loc: time.UTC, Getenv: func(k string) string { return map[string]string{"HOME": "/nonexistent"}[k] }}
	for _, noSelf := range []bool{false, true} {
		s, err := OpenSampler(Common{Source: "synthetic:disks=1,nics=1,cpus=1,seed=3", noSelf: noSelf}, e)
		if err != nil {
			t.Fatal(err)
		}
		snap, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ref, err := s.Registry().Lookup(nil, "Monitor/rss")
		if err != nil {
			t.Fatal(err)
		}
		v, _, _ := snap.Lookup(ref)
		if read := v.State == ns.Valid; read == noSelf {
			t.Errorf("noSelf %v: Monitor/rss %v", noSelf, v)
		}
	}
}
