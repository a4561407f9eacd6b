package namespace

// This file states, once, every numeric value that the UMA DCI document leaves to its headers
// (uma.h, dci.h), which are not part of the specification (checklist AMB-20). The choice is
// uniform: enumerations are numbered in the order the document lists them, starting at 1 so that
// the zero value means "unset"; flags are powers of two in listed order. Values the documents do
// give (reserved datum ids, the derived-id layout, DCI4, PCP and SPMI codes) live beside their types.
// It is long on purpose (over 600 lines): one place to read every such choice beats eight short
// files.

import "fmt"

// DataType is a UMA data type (UMADataType, DCI-TYPE-1).
type DataType uint32

// UMA data types, in the document's order.
const (
	TypeInt4        DataType = iota + 1 // UMA_INT4, 4-byte signed integer
	TypeInt8                            // UMA_INT8, 8-byte signed integer
	TypeUint4                           // UMA_UINT4, 4-byte unsigned integer
	TypeUint8                           // UMA_UINT8, 8-byte unsigned integer
	TypeBoolean                         // UMA_BOOLEAN, 4 bytes, FALSE = 0, TRUE != 0
	TypeOctetString                     // UMA_OCTETSTRING, variable, uninterpreted
	TypeTextString                      // UMA_TEXTSTRING, variable, NUL-terminated
	TypeTimeval                         // UMA_TIMEVAL, seconds + microseconds
	TypeTimespec                        // UMA_TIMESPEC, seconds + nanoseconds
	TypeDerived                         // UMA_DERIVED, no data: computed by the consumer
	TypeClassData                       // UMA_CLASSDATA, variable: a whole class block
)

var dataTypeNames = [...]string{"", "UMA_INT4", "UMA_INT8", "UMA_UINT4", "UMA_UINT8", "UMA_BOOLEAN",
	"UMA_OCTETSTRING", "UMA_TEXTSTRING", "UMA_TIMEVAL", "UMA_TIMESPEC", "UMA_DERIVED", "UMA_CLASSDATA"}

// dataTypeSizes gives the size in bytes of each type; -1 is variable (DCI-TYPE-1).
var dataTypeSizes = [...]int{0, 4, 8, 4, 8, 4, -1, -1, 8, 8, 0, -1}

func (t DataType) String() string {
	if int(t) < len(dataTypeNames) && t != 0 {
		return dataTypeNames[t]
	}
	return fmt.Sprintf("UMADataType(%d)", uint32(t))
}

// Size is the fixed size of the type in bytes, or -1 for variable-length types.
func (t DataType) Size() int {
	if int(t) < len(dataTypeSizes) {
		return dataTypeSizes[t]
	}
	return -1
}

// SizeText describes the size for display, e.g. "8 bytes" or "variable".
func (t DataType) SizeText() string {
	switch s := t.Size(); {
	case s < 0:
		return "variable"
	case s == 1:
		return "1 byte"
	default:
		return fmt.Sprintf("%d bytes", s)
	}
}

// IsInteger reports whether values of the type are integers (counters must be, DCI-TYPE-1).
func (t DataType) IsInteger() bool {
	return t == TypeInt4 || t == TypeInt8 || t == TypeUint4 || t == TypeUint8
}

// IsSigned reports whether the type is a signed integer.
func (t DataType) IsSigned() bool { return t == TypeInt4 || t == TypeInt8 }

// IsNumeric reports whether a value of the type is carried in Raw.N (integers, booleans, times).
func (t DataType) IsNumeric() bool {
	return t.IsInteger() || t == TypeBoolean || t == TypeTimeval || t == TypeTimespec
}

// CheckTime validates a UMA_TIMEVAL or UMA_TIMESPEC: seconds since the Epoch and a fraction in
// microseconds (TIMEVAL) or nanoseconds (TIMESPEC); negative parts or a fraction of a whole second
// or more are malformed (DCI-TYPE-4). Snapshots carry such values as whole seconds in Value.N.
func CheckTime(t DataType, sec, frac int64) error {
	limit := int64(1000000)
	if t == TypeTimespec {
		limit = 1000000000
	} else if t != TypeTimeval {
		return fmt.Errorf("%s is not a time type", t)
	}
	switch {
	case sec < 0:
		return fmt.Errorf("malformed %s: negative seconds %d", t, sec)
	case frac < 0:
		return fmt.Errorf("malformed %s: negative fraction %d", t, frac)
	case frac >= limit:
		return fmt.Errorf("malformed %s: fraction %d is a second or more", t, frac)
	}
	return nil
}

// InstTag is a UMA instance tag type (UMAInstTagType, DCI-NS-10).
type InstTag uint32

// Instance tag types, in the document's order.
const (
	TagSingleInst InstTag = iota + 1
	TagWorkInfo
	TagWorkID
	TagMsgQueue
	TagSemaphore
	TagShrSegment
	TagProcessor
	TagFSGroup
	TagMountPoint
	TagInode
	TagDiskID
	TagBucketNo
	TagDiskPartition
	TagAccessPort
	TagDevice
	TagKernelTables
	TagChannel
	TagIOP
	TagPath
	TagSyscall
	TagEnumeration
	TagStreams
	TagControllerID
	TagSchedClass
	TagLogicalVol
	TagRemoteFSTypes
	TagIPAddr
	TagFileServerCommand
	TagFileClientCommand
	TagServerCommand
	TagClientCommand
	TagMemObjectID
)

var instTagNames = [...][2]string{{},
	{"UMA_SINGLEINST", "single instance of value 0"},
	{"UMA_WORKINFO", "workload information"},
	{"UMA_WORKID", "data associated with DCI_WORKINFO"},
	{"UMA_MSG_QUEUE", "message queue"},
	{"UMA_SEMAPHORE", "semaphore handle"},
	{"UMA_SHR_SEGMENT", "shared segment handle"},
	{"UMA_PROCESSOR", "processor number"},
	{"UMA_FSGROUP", "file system group"},
	{"UMA_MOUNTPOINT", "mount point"},
	{"UMA_INODE", "inode number"},
	{"UMA_DISKID", "disk device number"},
	{"UMA_BUCKET_NO", "index into a histogram"},
	{"UMA_DISKPARTITION", "disk partition"},
	{"UMA_ACCESS_PORT", "access port"},
	{"UMA_DEVICE", "generic device number"},
	{"UMA_KERNEL_TABLES", "kernel tables"},
	{"UMA_CHANNEL", "channel number"},
	{"UMA_IOP", "I/O processor number"},
	{"UMA_PATH", "path"},
	{"UMA_SYSCALL", "system call number"},
	{"UMA_ENUMERATION", "enumeration"},
	{"UMA_STREAMS", "streams"},
	{"UMA_CONTROLLERID", "controller number"},
	{"UMA_SCHED_CLASS", "scheduling class type"},
	{"UMA_LOGICALVOL", "logical volume identifier"},
	{"UMA_REMOTE_FSTYPES", "remote file system types"},
	{"UMA_IPADDR", "IP address"},
	{"UMA_FILESERVER_COMMAND", "file server command"},
	{"UMA_FILECLIENT_COMMAND", "file client command"},
	{"UMA_SERVER_COMMAND", "server command"},
	{"UMA_CLIENT_COMMAND", "client command"},
	{"UMA_MEMOBJECT_ID", "memory object identifier"},
}

func (t InstTag) String() string {
	if t != 0 && int(t) < len(instTagNames) {
		return instTagNames[t][0]
	}
	return fmt.Sprintf("UMAInstTagType(%d)", uint32(t))
}

// Comment is the document's description of the tag, e.g. "disk device number".
func (t InstTag) Comment() string {
	if t != 0 && int(t) < len(instTagNames) {
		return instTagNames[t][1]
	}
	return "unknown"
}

// Unit is a UMA unit (UMAUnit, DCI-UNIT-*). For UMA_DERIVED datums the unit holds the derivation.
type Unit uint32

// Units, in the document's order by kind. 0..65535 are predefined (DCI-UNIT-6, AMB-33).
const (
	UnitNone Unit = iota + 1 // UMA_NOUNITS
	// Size units (base 1024, AMB-29).
	UnitBytes
	UnitKBytes
	UnitMBytes
	UnitGBytes
	UnitTBytes
	// Time units.
	UnitSecs
	UnitMillisecs
	UnitMicrosecs
	UnitNanosecs
	UnitPicosecs
	UnitTicks
	// System abstraction counts.
	UnitCount
	UnitEvent
	UnitPages
	UnitBlocks
	UnitCharacters
	UnitQLength
	UnitProcesses
	UnitTasks
	UnitThreads
	UnitJobs
	UnitUsers
	UnitTransactions
	UnitMessages
	UnitSessions
	UnitStreamsModules
	UnitStreamsHeads
	UnitStreamsMsgs
	UnitPackets
	UnitInodes
	UnitFiles
	UnitFilesystems
	// Hardware activity counts.
	UnitReads
	UnitWrites
	UnitSeeks
	UnitIoctls
	UnitConnections
	UnitRetries
	UnitMounts
	UnitRewinds
	UnitPositionings
	UnitMarks
	UnitPorts
	UnitProcessors
	UnitDisks
	UnitNets
	UnitSLines
	UnitBusses
	UnitChannels
	// Derived relationships (valid only with TypeDerived, DCI-UNIT-7, DCI-DER-2).
	DerivedSum2
	DerivedSum3
	DerivedDifference
	DerivedAverage
	DerivedPercent
	DerivedProduct
	DerivedVariance
)

// UnitExtensionBase is the first unit value available to vendor extensions (DCI-UNIT-6, AMB-33).
const UnitExtensionBase Unit = 1 << 16

// dcimon's own extension units (DCI-UNIT-6): quantities DCI has no unit for, kept as integers
// as the kernel gives them (AMB-30: no floating point in DCI data).
const (
	UnitCentiPercent Unit = UnitExtensionBase + 1 + iota // hundredths of a percent (PSI's 1.23%)
	UnitMilliCelsius                                     // thousandths of a degree Celsius (hwmon temp)
	UnitRPM                                              // revolutions per minute (hwmon fan)
	UnitMilliVolts                                       // thousandths of a volt (hwmon in)
	UnitMicroUnits                                       // millionths of one: a user's statistic given with decimals (issue 18)
)

// extUnits names dcimon's extension units.
var extUnits = map[Unit]unitInfo{
	UnitCentiPercent: {name: "DCIMON_CENTIPERCENT", desc: "hundredths of a percent", abbr: "%", kind: KindExtension},
	UnitMilliCelsius: {name: "DCIMON_MILLICELSIUS", desc: "thousandths of a degree Celsius", abbr: "°C", kind: KindExtension},
	UnitRPM:          {name: "DCIMON_RPM", desc: "revolutions per minute", abbr: "RPM", kind: KindExtension},
	UnitMilliVolts:   {name: "DCIMON_MILLIVOLTS", desc: "thousandths of a volt", abbr: "V", kind: KindExtension},
	UnitMicroUnits:   {name: "DCIMON_MICRO", desc: "millionths of one", abbr: "", kind: KindExtension},
}

// UnitKind is the kind of a unit (DCI-UNIT-1). There is no "info" kind (AMB-22).
type UnitKind uint8

// Unit kinds.
const (
	KindNone UnitKind = iota
	KindSize
	KindTime
	KindCount
	KindHardware
	KindDerived
	KindExtension
)

var unitKindNames = [...]string{"no units", "size", "time", "system abstraction count", "hardware activity count", "derived", "extension"}

func (k UnitKind) String() string {
	if int(k) < len(unitKindNames) {
		return unitKindNames[k]
	}
	return fmt.Sprintf("UnitKind(%d)", k)
}

type unitInfo struct {
	name, desc, abbr string
	kind             UnitKind
}

var unitTable = [...]unitInfo{{},
	{"UMA_NOUNITS", "no units", "", KindNone},
	{"UMA_BYTES", "bytes", "B", KindSize},
	{"UMA_KBYTES", "kilobytes", "KiB", KindSize},
	{"UMA_MBYTES", "megabytes", "MiB", KindSize},
	{"UMA_GBYTES", "gigabytes", "GiB", KindSize},
	{"UMA_TBYTES", "terabytes", "TiB", KindSize},
	{"UMA_SECS", "seconds", "s", KindTime},
	{"UMA_MILLISECS", "milliseconds", "ms", KindTime},
	{"UMA_MICROSECS", "microseconds", "µs", KindTime},
	{"UMA_NANOSECS", "nanoseconds", "ns", KindTime},
	{"UMA_PICOSECS", "picoseconds", "ps", KindTime},
	{"UMA_TICKS", "machine clock ticks", "ticks", KindTime},
	{"UMA_COUNT", "unspecified count", "", KindCount},
	{"UMA_EVENT", "unspecified event", "events", KindCount},
	{"UMA_PAGES", "memory pages", "pages", KindCount},
	{"UMA_BLOCKS", "disk blocks", "blocks", KindCount},
	{"UMA_CHARACTERS", "characters", "chars", KindCount},
	{"UMA_QLENGTH", "queue length", "", KindCount},
	{"UMA_PROCESSES", "processes", "procs", KindCount},
	{"UMA_TASKS", "tasks", "tasks", KindCount},
	{"UMA_THREADS", "threads", "threads", KindCount},
	{"UMA_JOBS", "jobs", "jobs", KindCount},
	{"UMA_USERS", "users", "users", KindCount},
	{"UMA_TRANSACTIONS", "transactions", "trans", KindCount},
	{"UMA_MESSAGES", "messages", "msgs", KindCount},
	{"UMA_SESSIONS", "sessions", "sessions", KindCount},
	{"UMA_STREAMSMODULES", "streams modules", "modules", KindCount},
	{"UMA_STREAMSHEADS", "streams heads", "heads", KindCount},
	{"UMA_STREAMSMSGS", "message blocks", "msg blocks", KindCount},
	{"UMA_PACKETS", "packets", "pkts", KindCount},
	{"UMA_INODES", "inodes", "inodes", KindCount},
	{"UMA_FILES", "files", "files", KindCount},
	{"UMA_FILESYSTEMS", "file systems", "fs", KindCount},
	{"UMA_READS", "reads", "reads", KindHardware},
	{"UMA_WRITES", "writes", "writes", KindHardware},
	{"UMA_SEEKS", "seeks", "seeks", KindHardware},
	{"UMA_IOCTLS", "ioctls", "ioctls", KindHardware},
	{"UMA_CONNECTIONS", "connections", "conns", KindHardware},
	{"UMA_RETRIES", "retries", "retries", KindHardware},
	{"UMA_MOUNTS", "mounts", "mounts", KindHardware},
	{"UMA_REWINDS", "rewinds", "rewinds", KindHardware},
	{"UMA_POSITIONINGS", "positionings", "positionings", KindHardware},
	{"UMA_MARKS", "tape marks", "marks", KindHardware},
	{"UMA_PORTS", "ports", "ports", KindHardware},
	{"UMA_PROCESSORS", "processors", "cpus", KindHardware},
	{"UMA_DISKS", "disks", "disks", KindHardware},
	{"UMA_NETS", "networks", "nets", KindHardware},
	{"UMA_SLINES", "serial lines", "lines", KindHardware},
	{"UMA_BUSSES", "busses", "busses", KindHardware},
	{"UMA_CHANNELS", "I/O channels", "channels", KindHardware},
	{"UMA_DERIVED_SUM2", "arg1 + arg2", "", KindDerived},
	{"UMA_DERIVED_SUM3", "arg1 + arg2 + arg3", "", KindDerived},
	{"UMA_DERIVED_DIFFERENCE", "arg1 - arg2", "", KindDerived},
	{"UMA_DERIVED_AVERAGE", "arg1 / arg2", "", KindDerived},
	{"UMA_DERIVED_PERCENT", "arg1 / (arg1 + arg2)", "%", KindDerived},
	{"UMA_DERIVED_PRODUCT", "arg1 * arg2", "", KindDerived},
	{"UMA_DERIVED_VARIANCE", "arg3/arg1 - (arg2/arg1)^2", "", KindDerived},
}

func (u Unit) info() (unitInfo, bool) {
	if u != 0 && int(u) < len(unitTable) {
		return unitTable[u], true
	}
	if i, ok := extUnits[u]; ok {
		return i, true
	}
	return unitInfo{}, false
}

func (u Unit) String() string {
	if i, ok := u.info(); ok {
		return i.name
	}
	if u >= UnitExtensionBase {
		return fmt.Sprintf("unit %d (extension)", uint32(u))
	}
	return fmt.Sprintf("unit %d (unknown)", uint32(u))
}

// Description is the document's text for the unit ("tape marks", "I/O channels").
func (u Unit) Description() string {
	if i, ok := u.info(); ok {
		return i.desc
	}
	return u.String()
}

// Abbrev is the short suffix shown after values ("B", "ms", "reads"); empty for plain counts.
func (u Unit) Abbrev() string {
	i, _ := u.info()
	return i.abbr
}

// Kind is the unit's kind (DCI-UNIT-1).
func (u Unit) Kind() UnitKind {
	if i, ok := u.info(); ok {
		return i.kind
	}
	if u >= UnitExtensionBase {
		return KindExtension
	}
	return KindNone
}

// IsDerivation reports whether the unit encodes a derived relationship.
func (u Unit) IsDerivation() bool { return u >= DerivedSum2 && u <= DerivedVariance }

// Args is the number of arguments a derived relationship uses.
func (u Unit) Args() int {
	switch u {
	case DerivedSum3, DerivedVariance:
		return 3
	case DerivedSum2, DerivedDifference, DerivedAverage, DerivedPercent, DerivedProduct:
		return 2
	}
	return 0
}

// ClassFlags are DCI class attribute flags (DCI-CLS-2).
type ClassFlags uint32

// Class flags, powers of two in the document's order.
const (
	ClassEnabled             ClassFlags = 1 << iota // DCI_ENABLED
	ClassNotImplemented                             // DCI_NOTIMPLEMENTED
	ClassNotApplicable                              // DCI_NOTAPPLICABLE
	ClassObsolete                                   // DCI_OBSOLETE
	ClassProviderInstance                           // DCI_PROVIDER_INSTANCE
	ClassPersistent                                 // DCI_PERSISTENT_CLASS
	ClassPossibleInvalidData                        // DCI_POSSIBLEINVALIDDATA
)

var classFlagNames = []string{"DCI_ENABLED", "DCI_NOTIMPLEMENTED", "DCI_NOTAPPLICABLE", "DCI_OBSOLETE",
	"DCI_PROVIDER_INSTANCE", "DCI_PERSISTENT_CLASS", "DCI_POSSIBLEINVALIDDATA"}

func (f ClassFlags) String() string { return flagString(uint32(f), classFlagNames) }

// Names lists the symbolic names of the set flags.
func (f ClassFlags) Names() []string { return flagNames(uint32(f), classFlagNames) }

// Unavailable explains why a class must not be sampled, or "" when it may be (DCI-CLS-2).
func (f ClassFlags) Unavailable() string {
	switch {
	case f&ClassEnabled == 0:
		return "disabled"
	case f&ClassNotImplemented != 0:
		return "not implemented"
	case f&ClassNotApplicable != 0:
		return "n/a on this host"
	case f&ClassObsolete != 0:
		return "obsolete"
	}
	return ""
}

// InstFlags are DCI instance attribute flags (DCI-INST-2).
type InstFlags uint32

// Instance flags.
const (
	InstPersistent InstFlags = 1 << iota // DCI_PERSISTENT_INSTANCE
)

var instFlagNames = []string{"DCI_PERSISTENT_INSTANCE"}

func (f InstFlags) String() string { return flagString(uint32(f), instFlagNames) }

// DatumFlags are DCI datum attribute flags (DCI-DATA-2).
type DatumFlags uint32

// Datum flags.
const (
	DatumQueryable  DatumFlags = 1 << iota // DCI_QUERYABLE: DCI_OP_GETDATA
	DatumSettable                          // DCI_SETTABLE: DCI_OP_SETDATA
	DatumReservable                        // DCI_RESERVABLE: DCI_OP_RESERVEDATA / DCI_OP_RELEASEDATA
)

var datumFlagNames = []string{"DCI_QUERYABLE", "DCI_SETTABLE", "DCI_RESERVABLE"}

func (f DatumFlags) String() string { return flagString(uint32(f), datumFlagNames) }

// EventHdrFlags are DCI event header flags (DCI-EVT-2).
type EventHdrFlags uint32

// Event header flags.
const (
	EventHdr EventHdrFlags = 1 << iota
	EventHdrClassID
	EventHdrInstanceID
	EventHdrTimestamp
	EventHdrVendorTimestamp
	EventHdrCompTimestamp
	EventHdrStreamID
	EventHdrData
)

var eventHdrNames = []string{"DCI_EVENTHDR", "DCI_EVENTHDRCLASSID", "DCI_EVENTHDRINSTANCEID",
	"DCI_EVENTHDRTIMESTAMP", "DCI_EVENTHDRVENDORTIMESTAMP", "DCI_EVENTHDRCOMPTIMESTAMP",
	"DCI_EVENTHDRSTREAMID", "DCI_EVENTHDRDATA"}

func (f EventHdrFlags) String() string { return flagString(uint32(f), eventHdrNames) }

// MethodType is how a provider delivers data (DCI-MTH-1).
type MethodType uint32

// Method types.
const (
	MethodNone     MethodType = iota // size-0 method descriptor: no method (DCI-CLS-6)
	MethodWait                       // DCI_WAIT: provider blocks waiting for requests
	MethodStore                      // DCI_STORE: server stores posted data
	MethodAddress                    // DCI_ADDRESS: server reads provider memory
	MethodCallback                   // DCI_CALLBACK: server calls a provider routine
)

var methodNames = [...]string{"none", "DCI_WAIT", "DCI_STORE", "DCI_ADDRESS", "DCI_CALLBACK"}

func (m MethodType) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("DCIMethod(%d)", uint32(m))
}

// Operation is a DCI server/provider operation (DCI-MTH-2).
type Operation uint32

// Operations, powers of two so a set of them is a mask.
const (
	OpGetData Operation = 1 << iota
	OpConfigure
	OpListInstances
	OpGetInstAttr
	OpSetData
	OpReserveData
	OpReleaseData
)

// AllOps is every operation.
const AllOps = OpGetData | OpConfigure | OpListInstances | OpGetInstAttr | OpSetData | OpReserveData | OpReleaseData

var opNames = []string{"DCI_OP_GETDATA", "DCI_OP_CONFIGURE", "DCI_OP_LISTINSTANCES", "DCI_OP_GETINSTATTR",
	"DCI_OP_SETDATA", "DCI_OP_RESERVEDATA", "DCI_OP_RELEASEDATA"}

func (o Operation) String() string { return flagString(uint32(o), opNames) }

// ValidOps is the set of operations a method type supports (DCI-MTH-3).
func (m MethodType) ValidOps() Operation {
	switch m {
	case MethodWait, MethodCallback:
		return AllOps
	case MethodStore, MethodAddress:
		return OpGetData | OpSetData | OpReserveData | OpReleaseData
	}
	return 0
}

// Status is a DCI return status (DCIReturn, DCI-MTH-10, DCI-RET-1).
type Status uint32

// DCI status codes.
const (
	StatusSuccess             Status = iota // DCI_SUCCESS
	StatusNotPresent                        // DCI_NOTPRESENT
	StatusNoImplementation                  // DCI_NOIMPLEMENTATION
	StatusNotInitialized                    // DCI_NOTINITIALIZED
	StatusSysError                          // DCI_SYSERROR
	StatusAllocationFailure                 // DCI_ALLOCATIONFAILURE
	StatusInvalidArg                        // DCI_INVALIDARG
	StatusInterrupted                       // DCI_INTERRUPTED
	StatusInvalidData                       // DCI_INVALIDDATA
	StatusInvalidDataPresent                // DCI_INVALIDDATAPRESENT (informational)
	StatusMethodOpUnavailable               // DCI_METHODOPUNAVAILABLE
	StatusNoInstances                       // local: a wildcard matched no instance (DCI-WC-5)
	StatusUnknownClass                      // local: the class id is not registered
	StatusUnknownDatum                      // local: the datum id is not in the class
	StatusDuplicate                         // local: the class, datum or instance already exists
)

var statusText = [...][2]string{
	{"DCI_SUCCESS", "success"},
	{"DCI_NOTPRESENT", "the DCI service is not available"},
	{"DCI_NOIMPLEMENTATION", "routine not in this implementation's subset"},
	{"DCI_NOTINITIALIZED", "the DCI service has not been initialised"},
	{"DCI_SYSERROR", "internal or resource error"},
	{"DCI_ALLOCATIONFAILURE", "memory allocation failed"},
	{"DCI_INVALIDARG", "invalid argument"},
	{"DCI_INTERRUPTED", "interrupted by a signal"},
	{"DCI_INVALIDDATA", "the datum is not valid for this instance"},
	{"DCI_INVALIDDATAPRESENT", "some data returned are invalid; check the invalid-data list"},
	{"DCI_METHODOPUNAVAILABLE", "operation not available for this method"},
	{"DCI_NOINSTANCES", "no instances match"},
	{"DCI_UNKNOWNCLASS", "no such class"},
	{"DCI_UNKNOWNDATUM", "no such datum in the class"},
	{"DCI_DUPLICATE", "already registered"},
}

func (s Status) String() string {
	if int(s) < len(statusText) {
		return statusText[s][0]
	}
	return fmt.Sprintf("DCIStatus(%d)", uint32(s))
}

// Text is a one-line English explanation of the status.
func (s Status) Text() string {
	if int(s) < len(statusText) {
		return statusText[s][1]
	}
	return "unknown status"
}

// IsError reports whether the status is an error rather than success or information.
func (s Status) IsError() bool { return s != StatusSuccess && s != StatusInvalidDataPresent }

func flagString(v uint32, names []string) string {
	if v == 0 {
		return "0"
	}
	s := ""
	for i, n := range names {
		if v&(1<<i) != 0 {
			if s != "" {
				s += "|"
			}
			s += n
			v &^= 1 << i
		}
	}
	if v != 0 {
		if s != "" {
			s += "|"
		}
		s += fmt.Sprintf("0x%x", v)
	}
	return s
}

func flagNames(v uint32, names []string) []string {
	var out []string
	for i, n := range names {
		if v&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}
