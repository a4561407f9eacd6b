package pcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"dcimon/pmcd"
	"dcimon/pmproxy"
)

// A live host's connection is made off the collection path (issue 40 item 1): a dial, its
// handshake, the names the mapping reads and the host's scales are asked for by a goroutine of
// the host's own, under the host's request deadline, and a collection only takes the connection
// when it is there. Until then the host's classes say why they have no values ("connecting",
// or the last dial's failure), at once: a host that accepts and never answers costs nobody a
// wait. A failed dial is tried again after a pause that doubles from 1 s to 30 s, each drawn
// from half to one and a half of its length, so hosts that went together do not come back all
// at once; at start, the first dials are spread over part of the first interval.

// link is the outcome of one background dial: a context ready to fetch, with the host's
// processor count and memory size read on it when it has them (probed).
type link struct {
	x      pcpContext
	ncpu   int
	mem    uint64
	probed bool
	err    error
}

// dialState is a host's schedule of dials.
type dialState struct {
	running bool      // a dial is under way
	since   time.Time // when it (or the first of the failing ones) began
	done    chan link // its outcome; room for one
	backoff time.Duration
	retryAt time.Time
	lastErr error         // the last dial's failure
	fails   int           // dials failed in a row
	spread  time.Duration // the source's start jitter (startJitter), kept for the re-dials
	// said is notConnected's last error, made again only when what it says changes: a
	// thousand hosts down read every 100 ms spent a tenth of a processor formatting it.
	said        error
	saidFor     error
	saidBackoff time.Duration
	saidSince   time.Time
}

// errNotConnected is what a native context says when asked for anything without a connection:
// the collection never dials.
var errNotConnected = errors.New("not connected")

// live says the host is read from a pmcd (natively or through pmproxy): not an archive, nor
// pmproxy's series, whose contexts are opened where they are read.
func (h *pcpHost) live() bool {
	if h.dial != nil {
		return false
	}
	if h.client != nil {
		return true
	}
	_, ok := h.x.(*nativeContext)
	return ok
}

// connected says the host has a context to fetch from now.
func (h *pcpHost) connected() bool {
	switch x := h.x.(type) {
	case nil:
		return false
	case *nativeContext:
		return x.conn != nil
	}
	return true
}

// dialDeadline bounds one background dial: the host's request deadline.
func (h *pcpHost) dialDeadline() time.Duration {
	if h.opt.Deadline > 0 {
		return h.opt.Deadline
	}
	return 2 * time.Second
}

// startDial begins a background dial after delay (the start's jitter). What the goroutine needs
// is copied here: it touches nothing the collections use.
func (h *pcpHost) startDial(now time.Time, delay time.Duration) {
	if h.dl.done == nil {
		h.dl.done = make(chan link, 1)
	}
	if !h.dl.running && h.dl.fails == 0 {
		h.dl.since = now
	}
	h.dl.running = true
	deadline := h.dialDeadline()
	names := h.names
	var dial func(ctx context.Context) link
	if h.client != nil {
		c, spec := h.client, h.opt.Hostspec
		poll := max(2*h.opt.Interval+5*time.Second, 2*h.opt.Deadline, 2*h.gap+5*time.Second)
		dial = func(ctx context.Context) link { return dialREST(ctx, c, spec, poll) }
	} else {
		old := h.x.(*nativeContext)
		spec, gen := old.spec, old.gen
		dial = func(ctx context.Context) link { return dialNative(ctx, spec, gen, names) }
	}
	done := h.dl.done
	go func() {
		if delay > 0 {
			time.Sleep(delay)
		}
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		done <- dial(ctx)
	}()
}

// dialNative connects to a pmcd, reads its labels, resolves names and reads the host's scales:
// all a first collection would ask before its fetch. gen is the generation of the context it
// replaces, so that the new one's is higher.
func dialNative(ctx context.Context, spec pmcd.Hostspec, gen uint64, names []string) link {
	x := &nativeContext{spec: spec, gen: gen}
	if err := x.connect(ctx); err != nil {
		return link{err: err}
	}
	if err := x.resolve(ctx, names); err != nil {
		x.Close()
		return link{err: err}
	}
	l := link{x: x}
	l.ncpu, l.mem, l.probed = probeScales(ctx, x)
	if x.conn == nil { // the probe broke it
		return link{err: fmt.Errorf("pmcd %s: the connection broke after it was made", spec)}
	}
	return l
}

// dialREST makes the pmproxy context of a host and reads its scales.
func dialREST(ctx context.Context, c *pmproxy.Client, spec string, poll time.Duration) link {
	x, err := c.NewContext(ctx, spec, poll)
	if err != nil {
		return link{err: err}
	}
	l := link{x: x}
	l.ncpu, l.mem, l.probed = probeScales(ctx, x)
	return l
}

// probeScales reads the processor count and memory size for the classes' scales.
func probeScales(ctx context.Context, x pcpContext) (ncpu int, mem uint64, ok bool) {
	f, err := x.Fetch(ctx, "hinv.ncpu", "mem.physmem")
	if err != nil {
		return 1, 0, false
	}
	ncpu = 1
	nv, ok1 := f.Lookup("hinv.ncpu", -1)
	mv, ok2 := f.Lookup("mem.physmem", -1)
	if !ok1 || !ok2 {
		return 1, 0, false
	}
	n, err1 := nv.Uint64()
	m, err2 := mv.Uint64()
	if err1 != nil || err2 != nil || n == 0 || n >= 1<<20 || m >= math.MaxUint64/1024 {
		return 1, 0, false
	}
	return int(n), m * 1024, true
}

// takeLink adopts a background dial that has finished, if one has: its context becomes the
// host's, and the host's scales, when they are not those its classes were declared with,
// declare them again before this reading (redeclared: the sampler takes the new descriptions
// and reads the host again). A failed dial schedules the next one.
func (h *pcpHost) takeLink(now time.Time) {
	if !h.dl.running {
		return
	}
	var l link
	select {
	case l = <-h.dl.done:
	default:
		return
	}
	h.dl.running = false
	if l.err != nil {
		h.dl.fails++
		h.dl.lastErr = l.err
		h.dl.backoff = min(max(2*h.dl.backoff, time.Second), 30*time.Second)
		h.dl.retryAt = now.Add(h.dl.backoff/2 + rand.N(h.dl.backoff))
		return
	}
	h.dl.fails, h.dl.backoff, h.dl.retryAt, h.dl.lastErr = 0, 0, time.Time{}, nil
	if old, ok := h.x.(*nativeContext); ok && old != l.x {
		old.Close()
	}
	h.x = l.x
	h.descs = nil // read again (from what the dial resolved, natively)
	if l.probed && !h.scaled {
		h.scaled = true
		if uint64(l.ncpu) != h.scale[0] || l.mem != h.scale[1] {
			h.declare(l.ncpu, l.mem)
			h.scaleGen++
			h.redeclared = true
		}
	}
}

// ensureLink takes a finished dial, and when the host has no connection starts one (when its
// pause is over) and says why there is none.
func (h *pcpHost) ensureLink(now time.Time) error {
	h.takeLink(now)
	if h.connected() {
		return nil
	}
	if !h.dl.running && !now.Before(h.dl.retryAt) {
		// A lost connection is dialled again at once, give or take the start's spread: hosts
		// that a network lost together do not all dial in the same millisecond.
		var delay time.Duration
		if h.dl.spread > 0 {
			delay = rand.N(h.dl.spread)
		}
		h.startDial(now, delay)
	}
	return h.notConnected()
}

// notConnected says why the host has no connection: the last dial's failure, and what is being
// done about it.
func (h *pcpHost) notConnected() error {
	d := &h.dl
	if d.said != nil && d.saidFor == d.lastErr && d.saidBackoff == d.backoff && d.saidSince.Equal(d.since) {
		return d.said
	}
	d.saidFor, d.saidBackoff, d.saidSince = d.lastErr, d.backoff, d.since
	if d.lastErr != nil {
		// The same words while the pauses stay as long: the events say it once, not at every
		// reading.
		d.said = fmt.Errorf("%w (trying again every %s or so)", d.lastErr, d.backoff)
	} else {
		d.said = fmt.Errorf("%s: connecting (since %s): %w", h.opt.Hostspec, d.since.Format("15:04:05.000"), errConnecting)
	}
	return d.said
}

// errConnecting is wrapped by the error of a host whose first dial has not finished.
var errConnecting = errors.New("no answer yet")

// startJitter is how far apart a source's first dials are spread: over up to half the interval,
// a millisecond a host at most (a thousand hosts at 1 s: half a second; two hosts: 2 ms).
func startJitter(n int, interval time.Duration) time.Duration {
	return min(interval/2, time.Duration(n)*time.Millisecond)
}

// CollectDeadline is the collection's deadline for live hosts read every interval, whose own
// requests may take up to request: nine tenths of the interval (at least 250 ms), never more
// than request. A host that has not answered by then is marked with why and read again at a
// later collection: the readings of the others keep their time (issue 40 items 1 and 2).
func CollectDeadline(interval, request time.Duration) time.Duration {
	if interval <= 0 {
		return request
	}
	return min(request, max(interval*9/10, 250*time.Millisecond))
}

// requestContexts hands the hosts of a fleet the context of their requests: a deadline of the
// host's own, apart from the collection's (a request the collection gave up on goes on, so a
// slow answer costs a reading, not the connection), made once for the hosts that ask within
// a collection rather than once a host.
type requestContexts struct {
	mu   sync.Mutex
	ctx  context.Context
	made time.Time
	// cancel is ctx's: never called early, as requests of the collection may still run under
	// it; its timer ends it at its deadline.
	cancel context.CancelFunc
}

// shareWithin is how long after it was made a context is given to other hosts: they lose at
// most that much of their deadline.
func shareWithin(d time.Duration) time.Duration { return min(d/10, 100*time.Millisecond) }

// get is a context whose deadline falls d from now, or less by at most shareWithin(d). It reads
// the wall clock, not the host's (which tests may skip ahead): deadlines are real time.
func (r *requestContexts) get(d time.Duration) context.Context {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx != nil && !now.Before(r.made) && now.Sub(r.made) < shareWithin(d) {
		return r.ctx
	}
	r.ctx, r.cancel = context.WithDeadline(context.Background(), now.Add(d))
	r.made = now
	return r.ctx
}
