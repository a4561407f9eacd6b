package namespace

import "fmt"

// SiErr is an SPMI error code with the number the SPMI guide gives it (SPMI-ERR-1).
type SiErr int

// SPMI error codes.
const (
	SiSuccess      SiErr = 0
	SiInvalidCx    SiErr = 180
	SiNoShmPtr     SiErr = 181
	SiShmemFailed  SiErr = 182
	SiAssumedDead  SiErr = 183
	SiInstBusy     SiErr = 184
	SiNotInst      SiErr = 185
	SiNotInit      SiErr = 186
	SiBadArgument  SiErr = 187
	SiNotFound     SiErr = 188
	SiNoValue      SiErr = 189
	SiInitFailed   SiErr = 190
	SiSmuxFailed   SiErr = 191
	SiLocked       SiErr = 192
	SiDuplicate    SiErr = 193
	SiCallocFailed SiErr = 194
	SiNoLicense    SiErr = 195
	SiDeleted      SiErr = 196
	SiOtherErr     SiErr = 197
)

var siErrText = map[SiErr][2]string{
	SiSuccess:      {"SiSuccess", "Successful execution."},
	SiInvalidCx:    {"SiInvalidCx", "The referenced context doesn't exist."},
	SiNoShmPtr:     {"SiNoShmPtr", "Unable to identify shared memory segment."},
	SiShmemFailed:  {"SiShmemFailed", "Unable to access shared memory."},
	SiAssumedDead:  {"SiAssumedDead", "A data-supplier program appears to have terminated."},
	SiInstBusy:     {"SiInstBusy", "Can't instantiate; shared memory update in progress."},
	SiNotInst:      {"SiNotInst", "Requested instantiation could not be performed."},
	SiNotInit:      {"SiNotInit", "SPMI interface not initialized."},
	SiBadArgument:  {"SiBadArgument", "One or more arguments to a subroutine call is invalid."},
	SiNotFound:     {"SiNotFound", "A requested data structure doesn't exist."},
	SiNoValue:      {"SiNoValue", "No data value returned from the SpmiGetValue subroutine."},
	SiInitFailed:   {"SiInitFailed", "Initializing of the SPMI API failed."},
	SiSmuxFailed:   {"SiSmuxFailed", "Context could not be exported to the snmpd daemon through the SMUX protocol."},
	SiLocked:       {"SiLocked", "Some other process or thread has locked the common shared memory area. Retry."},
	SiDuplicate:    {"SiDuplicate", "Attempt to add a context path that already exists."},
	SiCallocFailed: {"SiCallocFailed", "Memory allocation error."},
	SiNoLicense:    {"SiNoLicense", "No licence to use is installed and valid."},
	SiDeleted:      {"SiDeleted", "The requested context has been deleted."},
	SiOtherErr:     {"SiOtherErr", "Unspecified internal error."},
}

func (e SiErr) String() string {
	if t, ok := siErrText[e]; ok {
		return t[0]
	}
	return fmt.Sprintf("SiErr(%d)", int(e))
}

// Text is the SPMI guide's English message for the code.
func (e SiErr) Text() string {
	if t, ok := siErrText[e]; ok {
		return t[1]
	}
	return "Unknown SPMI error."
}

// Line is the status-line form `SiInvalidCx (180): The referenced context doesn't exist.`.
func (e SiErr) Line() string { return fmt.Sprintf("%s (%d): %s", e, int(e), e.Text()) }

// Retryable reports whether the code means "try again" (SPMI-ERR-3).
func (e SiErr) Retryable() bool { return e == SiLocked || e == SiInstBusy }

// InstFreq is SPMI instantiability (SiInstFreq, SPMI-INST-3).
type InstFreq int

// Instantiability kinds with the guide's numbers.
const (
	SiNoInst   InstFreq = 0 // not instantiable; subcontexts never change
	SiCfgInst  InstFreq = 1 // changes only with system (re)configuration
	SiContInst InstFreq = 2 // changes continuously during operation
)

func (f InstFreq) String() string {
	switch f {
	case SiNoInst:
		return "SiNoInst"
	case SiCfgInst:
		return "SiCfgInst"
	case SiContInst:
		return "SiContInst"
	}
	return fmt.Sprintf("SiInstFreq(%d)", int(f))
}

// ValType says whether an SPMI statistic is a counter or a level (SPMI-VAL-1).
type ValType int

// Value types with the guide's numbers.
const (
	SiCounter  ValType = 0
	SiQuantity ValType = 1
)

func (v ValType) String() string {
	switch v {
	case SiCounter:
		return "SiCounter"
	case SiQuantity:
		return "SiQuantity"
	}
	return fmt.Sprintf("SiValType(%d)", int(v))
}

// Word is the xmpeek listing word: "Counter" or "Quantity" (SPMI-OUT-2).
func (v ValType) Word() string {
	if v == SiCounter {
		return "Counter"
	}
	return "Quantity"
}

// SiDataType is an SPMI data type (SPMI-VAL-2). Only SiLong and SiFloat are presented.
type SiDataType int

// SPMI data types with the guide's numbers.
const (
	SiULong   SiDataType = 0
	SiLong    SiDataType = 1
	SiUInt    SiDataType = 2
	SiInt     SiDataType = 3
	SiUShort  SiDataType = 4
	SiShort   SiDataType = 5
	SiChar    SiDataType = 6
	SiAddr    SiDataType = 7
	SiTimeval SiDataType = 8
	SiFloat   SiDataType = 9
	SiDouble  SiDataType = 10
	SiPtr     SiDataType = 11
	SiUnsign  SiDataType = 12
)

var siDataTypeNames = [...]string{"SiULong", "SiLong", "SiUInt", "SiInt", "SiUShort", "SiShort", "SiChar",
	"SiAddr", "SiTimeval", "SiFloat", "SiDouble", "SiPtr", "SiUnsign"}

func (t SiDataType) String() string {
	if t >= 0 && int(t) < len(siDataTypeNames) {
		return siDataTypeNames[t]
	}
	return fmt.Sprintf("SiDataType(%d)", int(t))
}

// Word is the xmpeek listing word: "Long" or "Float" (SPMI-OUT-2).
func (t SiDataType) Word() string {
	if t == SiFloat {
		return "Float"
	}
	return "Long"
}

// Presentable reports whether the SPMI API may present a value of this type (SiLong, SiFloat).
func (t SiDataType) Presentable() bool { return t == SiLong || t == SiFloat }

// HotFeed is a hotset feed type (SPMI-HOT-9).
type HotFeed int

// Feed types with the guide's numbers.
const (
	SiHotNoFeed    HotFeed = 0
	SiHotThreshold HotFeed = 1
	SiHotAlways    HotFeed = 2
)

func (f HotFeed) String() string {
	switch f {
	case SiHotNoFeed:
		return "SiHotNoFeed"
	case SiHotThreshold:
		return "SiHotThreshold"
	case SiHotAlways:
		return "SiHotAlways"
	}
	return fmt.Sprintf("HotFeed(%d)", int(f))
}

// HotExcept is a hotset exception type (SPMI-HOT-12).
type HotExcept int

// Exception types with the guide's numbers.
const (
	SiHotNoException HotExcept = 0
	SiHotException   HotExcept = 1
	SiHotTrap        HotExcept = 2
	SiHotBoth        HotExcept = 3
)

func (e HotExcept) String() string {
	switch e {
	case SiHotNoException:
		return "SiHotNoException"
	case SiHotException:
		return "SiHotException"
	case SiHotTrap:
		return "SiHotTrap"
	case SiHotBoth:
		return "SiHotBoth"
	}
	return fmt.Sprintf("HotExcept(%d)", int(e))
}

// Exceptions reports whether the type generates exceptions.
func (e HotExcept) Exceptions() bool { return e == SiHotException || e == SiHotBoth }

// Traps reports whether the type generates traps.
func (e HotExcept) Traps() bool { return e == SiHotTrap || e == SiHotBoth }

// SPMI name limits (SPMI-HIER-3): C strings of 32 and 64 bytes, so 31 and 63 visible characters.
const (
	SiMaxName  = 32
	SiMaxLName = 64
)
