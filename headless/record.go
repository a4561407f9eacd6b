package headless

import (
	"context"
	"fmt"
	"io"
	"time"

	"dcimon/collect"
)

// RecordOptions are dcimon record's: where the archive goes, how often, for how long.
type RecordOptions struct {
	Common
	Base     string
	Interval time.Duration
	Duration time.Duration // 0: until interrupted
	Version  int
}

// Record writes what the providers read, every interval, as a PCP archive at o.Base, until the
// duration is over or ctx is cancelled (a signal): the archive is then closed whole, its index
// ending at the last sample. Each sample is written as one record as soon as it is read.
func Record(ctx context.Context, o RecordOptions, e Env, log io.Writer) error {
	s, first, err := firstReading(ctx, o.Common, e)
	if err != nil {
		return err
	}
	host := o.Host
	if host == "" {
		host = s.Registry().HostName(first)
	}
	if host == "" {
		host = "localhost"
	}
	rec, err := collect.NewRecorder(o.Base, o.Version, host, first.End.In(e.Loc))
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	linux := collect.PCPNames()
	last := first.End
	if err := rec.Record(s.Registry(), first, linux); err != nil {
		_ = rec.Close(last)
		return fmt.Errorf("record %s: %w", o.Base, err)
	}
	n := 1
	for o.Duration == 0 || last.Sub(first.End)+o.Interval <= o.Duration {
		if err := e.Sleep(ctx, o.Interval); err != nil {
			break // interrupted: close what was written
		}
		snap, err := s.Sample(ctx)
		if err != nil {
			break
		}
		if err := rec.Record(s.Registry(), snap, linux); err != nil {
			_ = rec.Close(last)
			return fmt.Errorf("record %s: %w", o.Base, err)
		}
		last = snap.End
		n++
	}
	if err := rec.Close(last); err != nil {
		return fmt.Errorf("record %s: %w", o.Base, err)
	}
	fmt.Fprintf(log, "dcimon: recorded %d samples to %s (%s to %s)\n", n, o.Base,
		first.End.In(e.Loc).Format("2006-01-02 15:04:05"), last.In(e.Loc).Format("15:04:05 MST"))
	return nil
}
