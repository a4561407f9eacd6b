package namespace

import (
	"sync"
	"time"
)

// Meaning says in a few words what an event of kind k means.
func (k EventKind) Meaning() string {
	switch k {
	case EvInstanceAdded:
		return "an instance appeared (a disk, an interface, a processor)"
	case EvInstanceRemoved:
		return "an instance went away"
	case EvSupplierReset:
		return "a supplier started again: its counters restart, no rate across it"
	case EvSupplierDead:
		return "a supplier sent nothing for longer than the liveness timeout"
	case EvSupplierAlive:
		return "a failing or dead supplier answers again"
	case EvProviderError:
		return "a provider could not read its data; its values are err"
	case EvHotException:
		return "a hotset peer crossed its threshold"
	case EvHotTrap:
		return "a hotset trap (recorded only, no SNMP is sent)"
	case EvDataChanged:
		return "a class's description changed"
	case EvDiscontinuity:
		return "a counter rose further than its hardware can: no rate for that interval"
	case EvSupplierAdded:
		return "an extension supplier appeared (a user's file or program)"
	case EvSupplierGone:
		return "an extension supplier went away: removed, or told to go away"
	case EvArchiveNote:
		return "an archive is compressed (and what a seek costs), or something in it was passed over (an index entry, an overlap)"
	}
	return ""
}

// EventKind classifies what an Event reports.
type EventKind uint8

// Event kinds.
const (
	EvInstanceAdded   EventKind = iota + 1 // DCI_INSTANCEADDED (DCI-EVT-3)
	EvInstanceRemoved                      // DCI_INSTANCEREMOVED (DCI-EVT-3)
	EvSupplierReset                        // a supplier's reset value changed (DCI4-SUP-8)
	EvSupplierDead                         // SiAssumedDead (SPMI-DDS-4)
	EvSupplierAlive                        // a supplier that was failing or dead answers again
	EvProviderError                        // a provider failed one collection
	EvHotException                         // a hotset exception (SPMI-HOT-12)
	EvHotTrap                              // a hotset trap, recorded only: no SNMP is sent
	EvDataChanged                          // DCI_DATACHANGED (DCI-EVT-5)
	EvDiscontinuity                        // a counter rose further than its hardware can: no rate
	EvSupplierAdded                        // an extension supplier was found (issue 18)
	EvSupplierGone                         // an extension supplier went away or was told to (SPMI-DDS-5)
	EvArchiveNote                          // what an archive says of itself: compressed, an entry passed over (issue 39)
)

var eventKindNames = [...]string{"", "INSTANCEADDED", "INSTANCEREMOVED", "SUPPLIERRESET", "SUPPLIERDEAD",
	"SUPPLIERALIVE", "PROVIDERERROR", "EXCEPTION", "TRAP", "DATACHANGED", "DISCONTINUITY", "SUPPLIERADDED", "SUPPLIERGONE", "ARCHIVENOTE"}

func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && k != 0 {
		return eventKindNames[k]
	}
	return "EVENT"
}

// DatumID is the DCI event datum id of the kind, where DCI defines one.
func (k EventKind) DatumID() DatumID {
	switch k {
	case EvInstanceAdded:
		return InstanceAddedEvt
	case EvInstanceRemoved:
		return InstanceRemovedEvt
	case EvDataChanged:
		return DataChangedEvt
	}
	return 0
}

// Event is one entry of the event log.
type Event struct {
	Time     time.Time
	Kind     EventKind
	Path     string // SPMI path of the class, instance or statistic concerned
	Class    ClassID
	Inst     InstanceID
	Text     string // one line for people
	Severity int    // hotset exceptions (SPMI-HOT-15)
	TrapNo   int    // hotset traps
}

// EventLog is a bounded, concurrency-safe log of events, newest first when read.
type EventLog struct {
	mu   sync.Mutex
	buf  []Event
	next int
	full bool
	seq  uint64
}

// NewEventLog returns a log keeping the last n events.
func NewEventLog(n int) *EventLog {
	if n < 1 {
		n = 1
	}
	return &EventLog{buf: make([]Event, n)}
}

// Add appends events.
func (l *EventLog) Add(evs ...Event) {
	if l == nil || len(evs) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range evs {
		l.buf[l.next] = e
		l.next = (l.next + 1) % len(l.buf)
		if l.next == 0 {
			l.full = true
		}
		l.seq++
	}
}

// Seq counts every event ever added, so readers can tell whether anything is new.
func (l *EventLog) Seq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// Events returns the kept events, newest first.
func (l *EventLog) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.next
	if l.full {
		n = len(l.buf)
	}
	out := make([]Event, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, l.buf[(l.next-i+len(l.buf))%len(l.buf)])
	}
	return out
}
