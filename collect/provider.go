package collect

import (
	"context"
	"encoding/binary"
	"time"

	"dcimon/namespace"
)

// Provider is a DCI4 supplier (checklist 2.1): it declares its classes once, with every datum fully
// described, and reads raw values when the sampler asks. It is stateless apart from what it needs
// to read (file buffers, static attributes cached per reset); rates, deltas, wraps and resets are
// computed by the name space from real timestamps (house style rule 2).
type Provider interface {
	// Supplier is the DCI4 supplier record: module, title, description, versions and type. The
	// reset value is reported by each Collect, since it can change at any time.
	Supplier() namespace.Supplier
	// Classes declares the provider's classes, parents before children. It is called once, before
	// the first Collect, and the classes must not change afterwards (DCI-CLS-5).
	Classes() []*namespace.Class
	// Collect reads the classes the request names, within ctx's deadline. The sampler has
	// finished with a returned Batch (its Specs and Raw slices) before it calls Collect on the
	// same provider again, so a provider may reuse those buffers from one call to the next.
	Collect(ctx context.Context, req Request) (Batch, error)
}

// Request says what one collection should read.
type Request struct {
	// Classes are the classes to read: those someone is subscribed to, or nil for every class
	// of the provider (nobody subscribed, or the sampler's slow read of the rest is due).
	Classes map[*namespace.Class]bool
	// Static asks for SV_STATIC datums too: after a supplier reset, and at the first collection.
	Static bool
	// Variable asks for SV_VARIABLE datums too: at most every five minutes, and on an explicit
	// refresh (DCI4-DESC-3, AMB-56). Datums not asked for come back as namespace.RawSkipped.
	Variable bool
	// Datums are, for a class of which only some datums are on screen (Sampler.SubscribeDatums),
	// the datums to read by index; a class not in it has every datum read. A provider may leave
	// out the files only datums not asked for need; those come back as not sampled (issue 38
	// item 5: the overview's process block does not show the processes' I/O at 80 columns).
	Datums map[*namespace.Class][]bool
	// every says the request covers every class the provider may be asked for: all of them, or
	// all but those DCI-CLS-2 keeps from being read (the sampler's bookkeeping of full reads).
	every bool
}

// Warner is a provider that can say what is wrong with it while it still supplies: the sampler
// shows it under Monitor (its error, while it has no failure) and in the events when it changes.
type Warner interface {
	// Warning is what is wrong with the provider though it still supplies (a user's family that
	// another supplier of its vendor gives too); nil when nothing is.
	Warning() error
}

// Describer is a provider whose descriptions may change when it re-initialises (a remote agent
// upgraded, a user's file rewritten; PCPD-13): after a reset the sampler asks for its classes as
// it now declares them and registers anew those described otherwise. The host providers'
// descriptions are fixed, and they do not implement it.
type Describer interface {
	Describe() []*namespace.Class
}

// Grower is a provider whose name space grows as it is explored (a remote host's PCP name space,
// listed a level at a time when a lazy class (namespace.Class.Lazy) is subscribed to): after
// each collection the sampler registers the classes Grown returns, those it found since it was
// last asked, parents before children. Classes are only added: one registered never changes
// (DCI-CLS-5).
type Grower interface {
	Grown() []*namespace.Class
}

// Wants reports whether the request includes class c.
func (r Request) Wants(c *namespace.Class) bool { return r.Classes == nil || r.Classes[c] }

// WantsDatum reports whether datum i of class c is to be read (Request.Datums).
func (r Request) WantsDatum(c *namespace.Class, i int) bool {
	m := r.Datums[c]
	return m == nil || (i < len(m) && m[i])
}

// Due reports whether a datum of the given volatility must be read in this request.
func (r Request) Due(v namespace.Volatility) bool {
	switch v {
	case namespace.SVStatic:
		return r.Static
	case namespace.SVVariable:
		return r.Variable || r.Static
	}
	return true
}

// Batch is one provider reading.
type Batch struct {
	// Reset is the supplier's 8-byte reset value at this reading (DCI4-SUP-8): it changes whenever
	// the source re-initialised (a reboot changes the boot time).
	Reset [8]byte
	// Time is the collector timestamp the values belong to (X-4); zero means "when Collect
	// returned".
	Time time.Time
	// Classes holds one reading per class read.
	Classes []ClassReading
	// Redeclared says the provider (a Describer) declares its classes anew since the sampler
	// last asked, though the sampler has not seen a reset value of its yet: a remote host that
	// did not answer at start, whose own processor count and memory size are now known (issue 40
	// item 3). With a reset value other than the one it had, the sampler then takes the new
	// descriptions and reads the provider again, so its first reading has every class.
	Redeclared bool
}

// ClassReading is one class's instances and raw values.
type ClassReading struct {
	Class *namespace.Class
	// Specs are the instances seen, in the provider's order. For a single-instance class, one
	// spec with level value 0.
	Specs []namespace.InstanceSpec
	// Raw holds len(Specs) rows of len(Class.Datums) values; derived datums' slots are ignored.
	Raw []namespace.Raw
	// Err, when set, fails this class only (for example a sysfs directory that cannot be read).
	Err error
	// Time, when set, is the time of the class's values, the batch's otherwise; Times, when set,
	// the time of each datum's (a replayed archive whose metrics were logged in groups of their
	// own: namespace.ClassSample.Times, issue 39).
	Time  time.Time
	Times []time.Time
}

// ReuseRawRows is reuseRaw for a writer that clears each row itself just before filling it, so
// the buffer is not swept twice.
func ReuseRawRows(buf *[]namespace.Raw, n int) []namespace.Raw {
	if cap(*buf) < n {
		c := n
		if cap(*buf) > 0 {
			c = n + n/4 // outgrown: a quarter more, so processes coming and going do not make it anew each time
		}
		*buf = make([]namespace.Raw, n, c)
	}
	return (*buf)[:n]
}

// ReuseRaw returns a zeroed slice of n raw values, reusing *buf when it is large enough, so a
// provider's steady state allocates nothing per datum (the Provider contract allows reuse).
func ReuseRaw(buf *[]namespace.Raw, n int) []namespace.Raw {
	if cap(*buf) < n {
		*buf = make([]namespace.Raw, n)
	}
	r := (*buf)[:n]
	clear(r)
	return r
}

// ResetOf is the 8-byte reset value for a boot time: the seconds, little-endian.
func ResetOf(btime uint64) [8]byte {
	var r [8]byte
	binary.LittleEndian.PutUint64(r[:], btime)
	return r
}

// Deliveries tracks which collections reached the name space, so that a slow datum is skipped
// only when the previous collection delivered it: after a collection that failed, was cancelled
// or returned after its deadline (the sampler dropped it, and the name space holds no value or an
// error for it), the next one is complete.
type Deliveries struct {
	Gen uint64 // collections started
	ok  uint64 // the last collection that returned in time without error
}

// Start counts a collection; call it first thing in Collect.
func (d *Deliveries) Start() { d.Gen++ }

// Done records that the collection returned its values in time.
func (d *Deliveries) Done(ctx context.Context) {
	if ctx.Err() == nil {
		d.ok = d.Gen
	}
}

// Had reports whether something delivered at collection g is in the name space now: it was the
// previous collection, and that one returned in time.
func (d *Deliveries) Had(g uint64) bool { return g != 0 && g == d.Gen-1 && d.ok == g }

// Due says whether a datum of volatility v is read in this collection: when the request asks for
// it, and always for an instance the provider has not delivered yet (a new instance comes with
// initial values of all its metrics, DCI-MTH-7). Otherwise the datum is namespace.RawSkipped and
// the name space keeps the previous value (DCI4-DESC-3).
func Due(req Request, v namespace.Volatility, delivered bool) bool {
	return !delivered || req.Due(v)
}
