package linux

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/shirou/gopsutil/v3/host"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// hostProvider reads the host's identity and kernel activity.
type hostProvider struct {
	base
	cls       *ns.Class
	specs     []ns.InstanceSpec
	st        procStat
	dl        collect.Deliveries
	delivered uint64 // collection that last delivered the static datums
	static    hostStatic
}

// hostStatic are the SV_STATIC values, read once per supplier initialisation.
type hostStatic struct {
	id             hostID
	idErr          error
	os, arch       string
	osErr, archErr error
}

func newHostProvider(r roots, boot *bootClock, ncpu int) *hostProvider {
	p := &hostProvider{base: base{roots: r, now: time.Now, boot: boot}, specs: schema.SingleSpecs()}
	p.cls = schema.HostClass(ncpu)
	p.declare(schema.HandleHost, schema.HostModule, schema.HostTitle,
		"Host name, kernel, boot time, uptime, load averages and kernel event counters", ns.SPTGeneralSupplier, p.cls)
	return p
}

// Collect reads /proc/stat, /proc/loadavg and /proc/uptime every time, and the identity when the
// sampler asks for static data. A missing file makes its datums unavailable; a file with bad
// lines fails the class (its error says which lines); nothing readable at all fails the
// collection.
func (p *hostProvider) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.Start()
	ctx = p.context(ctx)
	p.st = procStat{cpus: p.st.cpus[:0]} // a read that fails before parsing must not leave the last values
	statErr := readStat(ctx, &p.fr, &p.st)
	load, loadErr := readLoadAvg(ctx, &p.fr)
	up, upErr := readUptime(ctx, &p.fr)
	t := p.now()
	statOK := statErr == nil || p.st.present != 0
	if !statOK && loadErr != nil && upErr != nil {
		return collect.Batch{}, errors.Join(statErr, loadErr, upErr)
	}
	if b, ok := p.st.get(statBtime); ok && plausibleBoot(b, t) {
		p.boot.set(b)
	}
	b := p.batch(t)
	if !req.Wants(p.cls) {
		return b, nil
	}
	static := collect.Due(req, ns.SVStatic, p.dl.Had(p.delivered))
	if static {
		p.readStatic(ctx)
	}
	raw := make([]ns.Raw, len(p.cls.Datums))
	text := func(s string, err error) ns.Raw {
		switch {
		case err != nil || s == "": // gopsutil's "" with a nil error is "no data", not a value
			return ns.RawNA(ns.ReasonNotPresent)
		}
		return ns.RawS(ns.Clip(s, schema.HostTextSize-1))
	}
	if static {
		raw[schema.HostNameID-1] = text(p.static.id.hostname, p.static.idErr)
		raw[schema.HostReleaseID-1] = text(p.static.id.osRelease, p.static.idErr)
		raw[schema.HostOSID-1] = text(p.static.os, p.static.osErr)
		raw[schema.HostArchID-1] = text(p.static.arch, p.static.archErr)
		raw[schema.HostBootID-1] = statValue(&p.st, statBtime, statOK)
		if b, ok := p.st.get(statBtime); ok && statOK && !plausibleBoot(b, t) {
			raw[schema.HostBootID-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonImplausible}
		}
		raw[schema.HostHundredID-1] = ns.RawN(100)
	} else {
		for _, id := range [...]uint8{schema.HostNameID, schema.HostReleaseID, schema.HostOSID, schema.HostArchID, schema.HostBootID, schema.HostHundredID} {
			raw[id-1] = ns.RawSkip()
		}
	}
	if upErr == nil {
		raw[schema.HostUptimeID-1] = ns.RawN(up.upCs)
	} else {
		raw[schema.HostUptimeID-1] = missing(upErr)
	}
	for i, v := range [...]uint64{load.load1, load.load5, load.load15, load.threads} {
		id := [...]uint8{schema.HostLoad1xID, schema.HostLoad5xID, schema.HostLoad15xID, schema.HostThreadsID}[i]
		if loadErr == nil {
			raw[id-1] = ns.RawN(v)
		} else {
			raw[id-1] = missing(loadErr)
		}
	}
	raw[schema.HostRunningID-1] = statValue(&p.st, statProcsRunning, statOK)
	raw[schema.HostBlockedID-1] = statValue(&p.st, statProcsBlocked, statOK)
	raw[schema.HostCtxswID-1] = statValue(&p.st, statCtxt, statOK)
	raw[schema.HostIntrID-1] = statValue(&p.st, statIntr, statOK)
	raw[schema.HostForksID-1] = statValue(&p.st, statProcesses, statOK)

	// Bad lines in a file that was read fail the class and say which; a file that is missing
	// only makes its own datums unavailable.
	var classErr error
	const hostKeys = 1<<statBtime | 1<<statProcsRunning | 1<<statProcsBlocked | 1<<statCtxt | 1<<statIntr | 1<<statProcesses
	if statErr != nil && statOK && p.st.badKeys&hostKeys != 0 {
		classErr = statErr
	}
	for _, err := range []error{loadErr, upErr} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			classErr = errors.Join(classErr, err)
		}
	}
	if classErr == nil {
		p.delivered = p.dl.Gen
	}
	b.Classes = []collect.ClassReading{{Class: p.cls, Specs: p.specs, Raw: raw, Err: classErr}}
	p.dl.Done(ctx)
	return b, nil
}

// readStatic reads the identity: our own readers for what the tree holds and, on the live host
// only, the machine architecture through gopsutil (uname has no tree).
func (p *hostProvider) readStatic(ctx context.Context) {
	p.static = hostStatic{}
	p.static.id, p.static.idErr = readHostID(ctx, &p.fr)
	p.static.os, p.static.osErr = readOSRelease(ctx, &p.fr)
	if p.roots.live() {
		p.static.arch, p.static.archErr = host.KernelArch()
	} else {
		p.static.archErr = errNotFromTree
	}
}

// statValue is one single-value line of /proc/stat: its value, or unavailable when the file or
// the line is missing (an old kernel, a partial tree) — never 0.
func statValue(st *procStat, k statKey, statOK bool) ns.Raw {
	if v, ok := st.get(k); ok && statOK {
		return ns.RawN(v)
	}
	if st.badKeys&(1<<k) != 0 {
		return ns.RawNA(ns.ReasonNoValues)
	}
	return ns.RawNA(ns.ReasonNotPresent)
}

// readFailed reports whether err holds a failure to read something that exists (a named pipe, a
// parse error, a timeout), not only files that are absent, which are "not present" and no error.
func readFailed(err error) bool {
	if err == nil {
		return false
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if readFailed(e) {
				return true
			}
		}
		return false
	}
	return !errors.Is(err, fs.ErrNotExist)
}

// missing is the raw value of a datum whose file could not be read: not present when the file
// does not exist, access denied, else a provider error (shown as "err"), whose class error says
// what happened: a named pipe, a bad line, a timeout.
func missing(err error) ns.Raw {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ns.RawNA(ns.ReasonNotPresent)
	case errors.Is(err, fs.ErrPermission):
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonAccessDenied}
	case errors.Is(err, context.DeadlineExceeded):
		return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonTimeout}
	}
	return ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonProviderError}
}
