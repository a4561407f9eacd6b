package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/collect/pcp"
	ns "dcimon/namespace"
	"dcimon/pcparchive"
)

// RecordOptions are dcimon record's: where the archive goes, how often, for how long.
type RecordOptions struct {
	Common
	Base     string
	Interval time.Duration
	Duration time.Duration // 0: until interrupted
	Version  int
	// VolumeSize begins a new volume when one holds this many bytes (0: never); Keep removes the
	// volumes whose last sample is older than this (0: never; never the one being written).
	VolumeSize int64
	Keep       time.Duration
}

// ParseSize reads a size: bytes, or a number with a unit (k, M, G, T: powers of 1024 with or
// without "iB"; KB, MB, GB, TB: powers of 1000).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	mult := map[string]float64{"": 1, "B": 1, "k": 1 << 10, "K": 1 << 10, "KiB": 1 << 10, "M": 1 << 20, "MiB": 1 << 20,
		"G": 1 << 30, "GiB": 1 << 30, "T": 1 << 40, "TiB": 1 << 40, "KB": 1e3, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}[unit]
	if err != nil || mult == 0 || v <= 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("%q: want a size such as 100MiB, 1GiB or 500MB", s)
	}
	if n := int64(v * mult); n >= 4096 {
		return n, nil
	}
	return 0, fmt.Errorf("%q: a volume holds 4 KiB at least", s)
}

// ParseAge reads how long to keep something: a Go duration (36h, 90m) or days and weeks (7d, 2w).
func ParseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	for suf, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(t, suf); ok {
			if k, err := strconv.Atoi(n); err == nil && k > 0 && k < 100000 {
				return time.Duration(k) * unit, nil
			}
		}
	}
	if d, err := time.ParseDuration(t); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("%q: want an age such as 7d, 2w or 36h", s)
}

// Record writes what the providers read, every interval, as a PCP archive at o.Base, until the
// duration is over or ctx is cancelled (a signal): the archive is then closed whole, its index
// ending at the last sample. Each sample is written as one record as soon as it is read.
func Record(ctx context.Context, o RecordOptions, e Env, log io.Writer) error {
	o.Common.Interval = o.Interval
	// An archive that is there, or a directory that is not, is refused before the first reading
	// (an interval's wait) and before anything is created (issue 30 item 13).
	if err := baseNamed(o.Base); err != nil {
		return err
	}
	if err := pcparchive.Vacant(o.Base); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	defer recordOnOneProcessor(e)()
	o.Common.noSelf = true    // its Monitor class is not recorded
	o.Common.noDerived = true // nor are derived datums: not worked out
	s, first, err := firstReading(ctx, o.Common, e)
	if err != nil {
		return err
	}
	// A source none of whose providers answered (a refused password, a host that is down) has
	// nothing to record: say why, and write nothing (issue 29 item 15).
	if err := noProviderAnswered(s); err != nil {
		return fmt.Errorf("record %s: nothing of the source was read, so nothing was written: %w", o.Base, err)
	}
	host := recordedHost(o, s, first)
	rec, err := pcp.NewRecorder(o.Base, o.Version, host, first.End.In(e.Loc), recordLabels(o, host))
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	last := first.End
	if err := rec.Record(s.Registry(), first); err != nil {
		// Not one sample written: the files this attempt created go, so that the next attempt
		// (once there is room) finds the name free (issue 30 item 13).
		_ = rec.Close(last)
		removeArchive(o.Base)
		return fmt.Errorf("record %s: nothing was recorded, and the files begun are removed: %w", o.Base, err)
	}
	vols := recordVolumes{o: o, rec: rec, log: log}
	n := 1
	var empty int      // readings in which nothing was read
	var emptyErr error // the reason of the last of them
	ticks := ticksFrom(first, o.Interval, e)
	for o.Duration == 0 || last.Sub(first.End)+o.Interval <= o.Duration {
		if err := ticks.wait(ctx, e); err != nil {
			break // interrupted: close what was written
		}
		snap, err := s.Sample(ctx)
		if err != nil {
			break
		}
		// A new volume only for a record to write in it: none is left empty.
		if err := vols.rotate(last); err != nil {
			_ = rec.Close(last)
			return fmt.Errorf("record %s: %w", o.Base, err)
		}
		if err := rec.Record(s.Registry(), snap); err != nil {
			_ = rec.Close(last)
			return fmt.Errorf("record %s: %w", o.Base, err)
		}
		last = snap.End
		if err := noProviderAnswered(s); err != nil {
			if empty == 0 || emptyErr.Error() != err.Error() {
				fmt.Fprintf(log, "dcimon: record: nothing read at %s: %v\n", snap.End.In(e.Loc).Format("15:04:05"), err)
			}
			empty, emptyErr = empty+1, err
			continue
		}
		n++
	}
	if err := rec.Close(last); err != nil {
		return fmt.Errorf("record %s: %w", o.Base, err)
	}
	fmt.Fprintf(log, "dcimon: recorded %d samples to %s (%s to %s)\n", n, o.Base,
		first.End.In(e.Loc).Format("2006-01-02 15:04:05"), last.In(e.Loc).Format("15:04:05 MST"))
	if empty > 0 {
		// The archive has gaps the user must know of: an exit status that is not success.
		return fmt.Errorf("record %s: %d readings read nothing (the archive has only marks for them): %w", o.Base, empty, emptyErr)
	}
	return nil
}

// recordOnOneProcessor runs the recording on one processor (runtime.GOMAXPROCS) when it is the
// whole process (Env.Process) and the environment sets no GOMAXPROCS, and returns what puts it
// back. A sample's work is about a
// millisecond a second: its providers' goroutines then take turns on one thread instead of waking
// a second one for each sample, as pmlogger is one thread too; beside pmlogger at 1 s that is a
// fifth of the recorder's processor time (1.14-1.19 ms a sample against 1.44-1.49, issue 38 item 4).
func recordOnOneProcessor(e Env) (restore func()) {
	if !e.Process || e.Env("GOMAXPROCS") != "" {
		return func() {}
	}
	was := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(was) }
}

// recordedHost is the name the archive gives its host: the one asked for, else the source's,
// else localhost.
func recordedHost(o RecordOptions, s *collect.Sampler, first *ns.Snapshot) string {
	host := o.Host
	if host == "" {
		host = s.Registry().HostName(first)
	}
	if host == "" {
		host = "localhost"
	}
	return host
}

// recordLabels are the context's labels, as pmlogger records its pmcd's: the host's name, and
// on this host its machine id.
func recordLabels(o RecordOptions, host string) map[string]string {
	labels := map[string]string{"hostname": host}
	if o.Source == "host" && o.Procfs == "" {
		if id, err := os.ReadFile("/etc/machine-id"); err == nil && len(strings.TrimSpace(string(id))) > 0 {
			labels["machineid"] = strings.TrimSpace(string(id))
		}
	}
	return labels
}

// recordVolume is a volume written, with its last sample's time, for --keep.
type recordVolume struct {
	n    int
	last time.Time
}

// recordVolumes starts a new volume when the current one reaches --volume-size, and removes
// those older than --keep.
type recordVolumes struct {
	o    RecordOptions
	rec  *pcp.Recorder
	log  io.Writer
	done []recordVolume // the volumes closed, oldest first
}

// rotate starts a new volume at time at when the current one is full, and then removes the
// volumes whose last sample is older than --keep.
func (v *recordVolumes) rotate(at time.Time) error {
	if v.o.VolumeSize <= 0 || v.rec.VolumeSize() < v.o.VolumeSize {
		return nil
	}
	closed, err := v.rec.NewVolume()
	if err != nil {
		return err
	}
	v.done = append(v.done, recordVolume{closed, at})
	v.prune(at)
	return nil
}

// prune removes the closed volumes whose last sample is more than --keep before at.
func (v *recordVolumes) prune(at time.Time) {
	for len(v.done) > 0 && v.o.Keep > 0 && at.Sub(v.done[0].last) > v.o.Keep {
		name := fmt.Sprintf("%s.%d", v.o.Base, v.done[0].n)
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(v.log, "dcimon: record: --keep: %v\n", err)
		}
		v.done = v.done[1:]
	}
}

// removeArchive removes the files of an archive this process created and wrote nothing in.
func removeArchive(base string) {
	for _, suf := range []string{".meta", ".index", ".0"} {
		_ = os.Remove(base + suf)
	}
}

// noProviderAnswered is the failures of a reading in which no provider of the source answered, or nil
// when any did. Users' suppliers do not count: they are not the source.
func noProviderAnswered(s *collect.Sampler) error {
	var errs []error
	for _, st := range s.Status() {
		if st.Dynamic {
			continue
		}
		if st.State == "ok" || st.LastErr == nil {
			return nil
		}
		errs = append(errs, st.LastErr)
	}
	return errors.Join(errs...)
}
