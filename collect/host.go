package collect

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/shirou/gopsutil/v3/host"

	ns "dcimon/namespace"
)

// hostProvider reads the host's identity and kernel activity.
type hostProvider struct {
	base
	cls       *ns.Class
	specs     []ns.InstanceSpec
	st        procStat
	dl        deliveries
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
	p := &hostProvider{base: base{roots: r, now: time.Now, boot: boot}, specs: singleSpecs()}
	p.cls = hostClass(ncpu)
	p.decl = []*ns.Class{p.cls}
	p.sup = supplier(handleHost, hostModule, hostTitle,
		"Host name, kernel, boot time, uptime, load averages and kernel event counters", ns.SPTGeneralSupplier, p.Classes())
	return p
}

// Collect reads /proc/stat, /proc/loadavg and /proc/uptime every time, and the identity when the
// sampler asks for static data. A missing file makes its datums unavailable; a file with bad
// lines fails the class (its error says which lines); nothing readable at all fails the
// collection.
func (p *hostProvider) Collect(ctx context.Context, req Request) (Batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dl.start()
	ctx = p.context(ctx)
	p.st = procStat{cpus: p.st.cpus[:0]} // a read that fails before parsing must not leave the last values
	statErr := readStat(ctx, &p.fr, &p.st)
	load, loadErr := readLoadAvg(ctx, &p.fr)
	up, upErr := readUptime(ctx, &p.fr)
	t := p.now()
	statOK := statErr == nil || p.st.present != 0
	if !statOK && loadErr != nil && upErr != nil {
		return Batch{}, errors.Join(statErr, loadErr, upErr)
	}
	if b, ok := p.st.get(statBtime); ok && plausibleBoot(b, t) {
		p.boot.set(b)
	}
	b := Batch{Reset: resetOf(p.boot.get()), Time: t}
	if !req.Wants(p.cls) {
		return b, nil
	}
	static := due(req, ns.SVStatic, p.dl.had(p.delivered))
	if static {
		p.readStatic(ctx)
	}
	raw := make([]ns.Raw, len(p.cls.Datums))
	text := func(s string, err error) ns.Raw {
		switch {
		case err != nil || s == "": // gopsutil's "" with a nil error is "no data", not a value
			return ns.RawNA(ns.ReasonNotPresent)
		}
		return ns.RawS(ns.Clip(s, hostTextSize-1))
	}
	if static {
		raw[hostNameID-1] = text(p.static.id.hostname, p.static.idErr)
		raw[hostReleaseID-1] = text(p.static.id.osRelease, p.static.idErr)
		raw[hostOSID-1] = text(p.static.os, p.static.osErr)
		raw[hostArchID-1] = text(p.static.arch, p.static.archErr)
		raw[hostBootID-1] = statValue(&p.st, statBtime, statOK)
		if b, ok := p.st.get(statBtime); ok && statOK && !plausibleBoot(b, t) {
			raw[hostBootID-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonImplausible}
		}
		raw[hostHundredID-1] = ns.RawN(100)
	} else {
		for _, id := range [...]uint8{hostNameID, hostReleaseID, hostOSID, hostArchID, hostBootID, hostHundredID} {
			raw[id-1] = ns.RawSkip()
		}
	}
	if upErr == nil {
		raw[hostUptimeID-1] = ns.RawN(up.upCs)
	} else {
		raw[hostUptimeID-1] = missing(upErr)
	}
	for i, v := range [...]uint64{load.load1, load.load5, load.load15, load.threads} {
		id := [...]uint8{hostLoad1xID, hostLoad5xID, hostLoad15xID, hostThreadsID}[i]
		if loadErr == nil {
			raw[id-1] = ns.RawN(v)
		} else {
			raw[id-1] = missing(loadErr)
		}
	}
	raw[hostRunningID-1] = statValue(&p.st, statProcsRunning, statOK)
	raw[hostBlockedID-1] = statValue(&p.st, statProcsBlocked, statOK)
	raw[hostCtxswID-1] = statValue(&p.st, statCtxt, statOK)
	raw[hostIntrID-1] = statValue(&p.st, statIntr, statOK)
	raw[hostForksID-1] = statValue(&p.st, statProcesses, statOK)

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
		p.delivered = p.dl.gen
	}
	b.Classes = []ClassReading{{Class: p.cls, Specs: p.specs, Raw: raw, Err: classErr}}
	p.dl.done(ctx)
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
