package namespace

import "fmt"

// RawState says what a provider could say about one datum of one instance.
type RawState uint8

// Raw states.
const (
	RawOK          RawState = iota // the value is in N (numbers) or S (strings)
	RawInvalid                     // the datum is on the instance's invalid-data list (DCI-INV-1)
	RawUnavailable                 // no value this time; Reason says why (PCPF-7, PCPF-10)
	RawSkipped                     // not read this time (DCI4 volatility): keep the previous value
)

// Raw is one datum's value as a provider read it.
type Raw struct {
	N      uint64 // numeric payload; signed types hold the two's complement bits
	S      string // text and octet payload
	State  RawState
	Reason Reason // for RawUnavailable
}

// ValueState is the state of one value in a snapshot. Only Valid values are shown as numbers,
// ranked or used in derivations; every other state is visibly distinct from zero.
type ValueState uint8

// Value states.
const (
	Valid       ValueState = iota
	NoRate                 // a counter with no usable previous reading: shown as "—" (SPMI-SET-15, X-3)
	Invalid                // on the invalid-data list: shown as "n/a" (DCI-INV-4)
	Unavailable            // no value: shown as "n/a" with the reason (PCPF-7)
)

var valueStateNames = [...]string{"valid", "no rate", "invalid", "unavailable"}

func (s ValueState) String() string {
	if int(s) < len(valueStateNames) {
		return valueStateNames[s]
	}
	return fmt.Sprintf("ValueState(%d)", s)
}

// Reason says why a value is not Valid.
type Reason uint8

// Reasons.
const (
	ReasonNone             Reason = iota
	ReasonFirstSample             // no previous reading yet
	ReasonReset                   // the supplier re-initialised (reset value changed, DCI4-SUP-8)
	ReasonCounterDecrease         // a 64-bit counter went backwards: a discontinuity
	ReasonNewInstance             // the instance appeared since the previous reading
	ReasonNoElapsed               // the two readings carry the same time
	ReasonInvalidData             // on the instance's invalid-data list
	ReasonNotPresent              // hardware or software absent, off-line (PCPF-10)
	ReasonNoValues                // the provider returned no value, cause unknown
	ReasonNotSupported            // not supported on this host (PM_TYPE_NOSUPPORT)
	ReasonProviderError           // the provider failed this collection
	ReasonTimeout                 // the provider did not answer before the deadline
	ReasonAssumedDead             // the supplier stopped updating (SiAssumedDead)
	ReasonZeroDenominator         // a derived ratio's denominator is zero (DCI-DER-5)
	ReasonArgUnavailable          // an argument of a derived value is not valid
	ReasonNotQueryable            // the datum lacks DCI_QUERYABLE
	ReasonNotSampled              // the class has not been sampled yet
	ReasonClassUnavailable        // the class is disabled, not implemented, n/a or obsolete
	ReasonAccessDenied            // the process may not read the source
	ReasonOverflow                // the value read does not fit the datum's type
	ReasonImplausible             // the value read is impossible for the datum (a boot time before 2000)
	ReasonImpossibleJump          // a counter rose faster than the hardware can: a discontinuity
	ReasonRemoved                 // the instance has gone (SiDeleted)
	ReasonNotANumber              // the supplier gave NaN or an infinity (a user's statistic, issue 18)
	ReasonBeyondElapsed           // invariant broken: the parts of a processor's time add up to more than the time elapsed
	ReasonUsedAboveTotal          // invariant broken: a size in use is larger than the total it is part of
	ReasonShareOutOfRange         // invariant broken: a share outside 0–100%
	ReasonNotRecorded             // an archive replayed does not hold the datum's metric (issue 30)
	ReasonNever                   // it never happened: a supplier's last success when it never succeeded
	ReasonNotRecordedYet          // an archive replayed has no value of the datum's metric yet at the time read (issue 39)
	reasonCount
)

var reasonText = [reasonCount]string{
	"", "no previous sample", "supplier re-initialised", "counter went backwards", "new instance",
	"no time elapsed", "not valid for this instance", "off-line / not present", "no values",
	"not supported", "provider error", "provider timed out", "supplier assumed dead",
	"zero denominator", "argument unavailable", "not queryable", "not sampled yet",
	"class unavailable", "access denied", "value does not fit its type", "implausible value",
	"counter jumped further than the hardware can", "instance removed", "not a number (NaN or ±Inf)",
	"parts add up to more than the time elapsed (invariant)", "used is larger than the total (invariant)",
	"share outside 0–100% (invariant)", "not in the archive", "never", "not recorded yet",
}

// Invariant reports whether the reason is an invariant the numbers broke: arithmetic across
// datums that cannot hold for real readings, shown as an error, never as a value (issue 29).
func (r Reason) Invariant() bool {
	return r == ReasonBeyondElapsed || r == ReasonUsedAboveTotal || r == ReasonShareOutOfRange
}

func (r Reason) String() string {
	if r < reasonCount {
		return reasonText[r]
	}
	return fmt.Sprintf("reason %d", r)
}

// SiErr is the SPMI per-value error code for the reason (SPMI-SET-8); 0 for none.
func (r Reason) SiErr() SiErr {
	switch r {
	case ReasonNone:
		return SiSuccess
	case ReasonAssumedDead:
		return SiAssumedDead
	case ReasonFirstSample, ReasonNotSampled, ReasonNoValues, ReasonNotPresent, ReasonInvalidData, ReasonNotRecorded, ReasonNotRecordedYet,
		ReasonZeroDenominator, ReasonArgUnavailable, ReasonReset, ReasonCounterDecrease, ReasonNewInstance, ReasonNoElapsed:
		return SiNoValue
	case ReasonTimeout:
		return SiInstBusy
	case ReasonImpossibleJump, ReasonOverflow, ReasonImplausible, ReasonNotANumber,
		ReasonBeyondElapsed, ReasonUsedAboveTotal, ReasonShareOutOfRange, ReasonNever:
		return SiNoValue
	case ReasonRemoved:
		return SiDeleted
	}
	return SiOtherErr
}

// ValueStatus is the DCI status of one value read through a request (DCI-RET-1): success for a
// valid value or a counter that has no rate yet; for an invalid value DCI_INVALIDDATA when the
// request named its datum exactly (DCI-INV-3), DCI_INVALIDDATAPRESENT, a warning, when a wildcard
// reached it; otherwise the status of its reason. Fetch and the get command share it.
func ValueStatus(v Value, explicit bool) Status {
	switch v.State {
	case Valid, NoRate:
		return StatusSuccess
	case Invalid:
		if explicit {
			return StatusInvalidData
		}
		return StatusInvalidDataPresent
	}
	return v.Reason.Status()
}

// PMErr is the PCP error a fetch gives for a value that is not there (PCPF-7, PCPD-15):
// PM_ERR_NOAGENT when its supplier failed, timed out or is assumed dead, PM_ERR_VALUE otherwise;
// 0 for a valid value.
func (v Value) PMErr() PMErr {
	switch {
	case v.State == Valid || v.State == NoRate:
		return 0
	case v.Reason == ReasonProviderError || v.Reason == ReasonTimeout || v.Reason == ReasonAssumedDead:
		return PMErrNoAgent
	}
	return PMErrValue
}

// Status is the DCI per-metric status for the reason (DCI-RET-1).
func (r Reason) Status() Status {
	switch r {
	case ReasonNone, ReasonFirstSample, ReasonReset, ReasonCounterDecrease, ReasonNewInstance, ReasonNoElapsed,
		ReasonImpossibleJump:
		return StatusSuccess
	case ReasonOverflow, ReasonImplausible, ReasonBeyondElapsed, ReasonUsedAboveTotal, ReasonShareOutOfRange:
		return StatusInvalidData
	case ReasonRemoved:
		return StatusNotPresent
	case ReasonInvalidData:
		return StatusInvalidData
	case ReasonNotPresent, ReasonAssumedDead, ReasonClassUnavailable, ReasonNotRecorded, ReasonNotRecordedYet, ReasonNever:
		return StatusNotPresent
	case ReasonNotSupported:
		return StatusNoImplementation
	case ReasonNotQueryable:
		return StatusMethodOpUnavailable
	case ReasonZeroDenominator, ReasonArgUnavailable:
		return StatusInvalidData
	}
	return StatusSysError
}

// Value is one datum of one instance in a snapshot.
type Value struct {
	N      uint64  // val: the raw numeric reading (two's complement for signed types)
	S      string  // val for text and octet strings
	Change float64 // val_change: for counters the interval delta, wraps resolved (SPMI-SET-7)
	V      float64 // the decoded value: rate per second for counters, level for quantities, result for derived (SPMI-SET-9)
	State  ValueState
	Reason Reason
}

// Int returns the raw value as a signed integer (for signed types).
func (v Value) Int() int64 { return int64(v.N) }

// RawN is a valid numeric raw value, as a provider reads it.
func RawN(v uint64) Raw { return Raw{N: v} }

// RawS is a valid string or octet raw value.
func RawS(s string) Raw { return Raw{S: s} }

// RawNA is a raw value that is not available this time, and why (PCPF-7: never a 0).
func RawNA(r Reason) Raw { return Raw{State: RawUnavailable, Reason: r} }

// RawSkip is a datum not read this time (DCI4 volatility): the name space keeps its previous value.
func RawSkip() Raw { return Raw{State: RawSkipped} }

// RawInvalidData is a datum on its instance's invalid-data list (DCI-INV-1).
func RawInvalidData() Raw { return Raw{State: RawInvalid} }
