package pcp

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// Damage is the damage met so far in the archives (a *pcparchive.DamageError each, joined): in
// a metadata file or index as it was opened, or in a volume, where the reading stopped. What
// was read before it has been given; a command that printed it then fails with this error
// (issue 30 item 9). nil while none was met.
func (as *Archives) Damage() error {
	var errs []error
	for _, x := range as.xs {
		if p := x.damage.Load(); p != nil {
			errs = append(errs, *p)
		}
	}
	return errors.Join(errs...)
}

// Archives are the PCP archives a source reads (one per host; several replay together as a
// fleet), through the same mapping as live hosts: their classes, each archive's whole name space
// under PCP, and each collection their next sample, or their samples up to a Replay's time.
type Archives struct {
	xs    []*archiveContext
	names []string // each archive's host, as the paths name it
}

// ArchiveProviders returns the providers of the hosts the PCP archives at bases recorded. With
// at, the first collection is the sample before at and the second the last one at or before it,
// so that rates are over the interval ending there; a time outside an archive is an error that
// says what the archive covers, unless clamp (the start of a series: from before the archive is
// from its start). Two archives of the same host are two hosts, the second named host~2.
//
// opts, at most one, says what else to show (ShowLoop: the loop disks dcimon record --show-loop
// wrote, issue 39 item 7).
func ArchiveProviders(bases []string, at time.Time, clamp bool, opts ...Options) ([]collect.Provider, *Archives, error) {
	var show Options
	if len(opts) > 0 {
		show = opts[0]
	}
	as, err := openArchives(bases)
	if err != nil {
		return nil, nil, err
	}
	series := clamp // --from: the first reading is the series' ground, its rates come after
	if at.IsZero() {
		at, clamp = as.firstRates(), true
	}
	if !at.IsZero() {
		if err := as.seek(at, clamp, series); err != nil {
			return nil, nil, err
		}
	}
	provs := make([]collect.Provider, len(as.xs))
	for i := range as.xs {
		provs[i] = as.provider(i, show)
	}
	return provs, as, nil
}

// openArchives opens the archives at bases, each named for its host; two archives of the same
// host are two hosts, the second named host~2.
func openArchives(bases []string) (*Archives, error) {
	as := &Archives{}
	seen := map[string]int{}
	for _, base := range bases {
		x, err := openArchive(base)
		if err != nil {
			return nil, err
		}
		name := x.a.Label.Host
		if seen[name]++; seen[name] > 1 {
			name += "~" + strconv.Itoa(seen[name])
		}
		as.xs, as.names = append(as.xs, x), append(as.names, name)
	}
	return as, nil
}

// firstRates is the default time: where the first rates are, every metric logged more than
// once near the start having its second value (issue 39 item 1), the latest of the archives'.
func (as *Archives) firstRates() time.Time {
	var at time.Time
	for _, x := range as.xs {
		if x.Start().After(at) {
			at = x.Start()
		}
	}
	return at
}

// seek moves every archive to at (see ArchiveProviders for clamp); with series, an archive
// read from its start keeps its first sample as the ground of the first rates.
func (as *Archives) seek(at time.Time, clamp, series bool) error {
	covered := as.covered(at)
	for _, x := range as.xs {
		t := x.seekTime(at, clamp, covered)
		if err := x.Seek(t); err != nil {
			if p := x.damage.Load(); p != nil {
				// The archive seems to end early because a damaged record stopped the reading.
				err = errors.Join(*p, err)
			}
			return err
		}
		if series && !t.After(x.first) {
			// A series from the start: its first sample is the ground of the first rates,
			// read, not printed (issue 39 item 6).
			x.phase = 1
		}
	}
	return nil
}

// covered says whether any of the archives covers at (near enough), so that those of the others
// that begin later or ended earlier are read as not yet begun or as ended rather than as errors.
func (as *Archives) covered(at time.Time) bool {
	covered := false
	for _, x := range as.xs {
		n := x.near(at)
		covered = covered || (!n.Before(x.first) && !n.After(x.last))
	}
	return covered
}

// seekTime is the time this archive is read at for at: kept within it under clamp; when another
// archive covers at, its first sample (marked not yet begun) or its last one; else at itself.
func (x *archiveContext) seekTime(at time.Time, clamp, covered bool) time.Time {
	switch n := x.near(at); {
	case clamp: // a series from before the start, or after the end
		return collect.Within(at, x.first, x.last)
	case covered && n.Before(x.first):
		// One host of several whose archive begins later: not recorded then (issue 30).
		x.notYet = true
		return x.first
	case covered && n.After(x.last):
		return x.last // one whose archive has ended: its last values, timed as they were
	}
	return at
}

// provider is the host of the i-th archive, its supplier describing the archive.
func (as *Archives) provider(i int, show Options) *pcpHost {
	x := as.xs[i]
	h := &pcpHost{opt: Options{Hostspec: as.names[i], Interval: time.Second, ShowLoop: show.ShowLoop}, now: func() time.Time { return x.now },
		dial: func() (pcpContext, error) { return x, nil }}
	h.x, h.archive, h.recorded = x, x, true
	ncpu, mem := x.scales()
	h.host, h.fleet, h.asn = Host{Name: as.names[i], Spec: x.a.Label.Host}, len(as.xs) > 1, FleetASNBase+uint32(i)
	h.start(ncpu, mem)
	spec := ns.EscapeName(as.names[i])
	h.sup = schema.Supplier(handlePCP+uint32(i), "archive:"+ns.Clip(spec, 56), ns.Clip("PCP archive of "+spec, 63),
		ns.Clip(fmt.Sprintf("The archive %s of host %s, from %s", ns.EscapeName(x.a.Base), ns.EscapeName(x.a.Label.Host),
			x.a.Label.Start.UTC().Format(time.RFC3339)), 255),
		ns.SPTGeneralSupplier, h.decl)
	return h
}

// Clock is the archives' time, the latest sample read of any: a sampler of them reads time
// from it, so that its readings are timed as the archives were, not by the wall clock.
func (as *Archives) Clock() time.Time {
	var t int64
	for _, x := range as.xs {
		if !x.notYet { // an archive not begun at the time asked for has no time of its own in it
			t = max(t, x.clock.Load())
		}
	}
	return time.Unix(0, t)
}

// Span is the time from the first archive's start to the last one's end.
func (as *Archives) Span() (first, last time.Time) {
	for i, x := range as.xs {
		f, l := x.Span()
		if i == 0 || f.Before(first) {
			first = f
		}
		if i == 0 || l.After(last) {
			last = l
		}
	}
	return first, last
}

// Hosts are the archives' hosts, as the paths name them.
func (as *Archives) Hosts() []string { return as.names }

// ArchivesEnd is the last sample of the latest of the archives at bases: the end a relative time
// (--at -5m) is read before.
func ArchivesEnd(bases []string) (time.Time, error) {
	var end time.Time
	for _, base := range bases {
		x, err := openArchive(base)
		if err != nil {
			return time.Time{}, err
		}
		if _, last := x.Span(); last.After(end) {
			end = last
		}
		x.cur.Close()
	}
	return end, nil
}
