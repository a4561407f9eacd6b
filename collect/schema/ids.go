package schema

import (
	"encoding/binary"

	ns "dcimon/namespace"
)

// The built-in name space (checklist §0.1, AMB-51). Top-level class ids are the SPMI ASN.1
// numbers of the top-level contexts, and stay stable: CPU 1 (`CPU/cpu0/idle` = 1.1.4), Disk 2,
// NetIf 3, Mem 4, Host 5; Monitor is 90 (the sampler's) and DDS 99 is left to extension
// suppliers. Under each instantiable top-level class, level 1 is reserved for a single-instance
// totals class (CPU's is 1.1; Disk's and NetIf's are not offered yet), level 2 holds the
// per-object class and level 3 a nested class (partitions, 2.3).
const (
	cpuASN   = 1
	DiskASN  = 2
	NetASN   = 3
	memASN   = 4
	HostASN  = 5
	IfaceVer = 101 // DCI4 interface version: statistics format 1.01 (ST_ADDRESS, ST_TIME), AMB-12
	SupVer   = 100 // the suppliers' own version, 1.00
)

// Supplier handles (DCI4 swinumber): one per built-in supplier, the same for the host and the
// synthetic source so that a gatherer sees the same suppliers either way.
const (
	HandleHost = 1 + iota
	HandleMem
	HandleCPU
	HandleDisk
	HandleNet
	HandlePressure
	HandleTCPIP
	HandleFS
	HandleNUMA
	HandleSensors
	HandleProc
	HandleCGroup
)

// variableText is a text datum of up to 256 bytes that changes now and then (SV_VARIABLE): a
// file system's device or options, a control group's container.
func variableText(id uint8, name, desc, src, help string) ns.Datum {
	d := ns.Text(id, name, desc, src).WithVolatility(ns.SVVariable).WithHelp(help)
	d.DCI4.Size = 256
	return d
}

// sourced is d with its source text src: what a derived datum is worked out from, or where an
// invalid-data list is read.
func sourced(d ns.Datum, src string) ns.Datum { d.Source = src; return d }

// consumerDerived is a derived statistic d, which the consumer works out from the interval
// deltas of its arguments, with its scale 0 to max and its help.
func consumerDerived(d ns.Datum, max float64, help string) ns.Datum {
	return sourced(d, "derived by the consumer from the interval deltas of its arguments").WithScale(0, max).WithHelp(help)
}

// Supplier builds a DCI4 supplier record for the built-in providers (DCI4-SUP-3). MaxStat is the
// highest statistic number of the supplier's flat DCI4 view: every datum of every class,
// numbered from 0 in declaration order (DCI4-SUP-5).
func Supplier(handle uint32, module, title, desc string, typ ns.SupplierType, classes []*ns.Class) ns.Supplier {
	n := 0
	for _, c := range classes {
		n += len(c.Datums)
	}
	s := ns.Supplier{IVersion: IfaceVer, Handle: handle, Type: typ, SVersion: SupVer,
		Module: module, Title: title, Description: desc}
	if n > 0 {
		s.MaxStat = uint32(n - 1)
	}
	for _, c := range classes {
		sup := s
		c.Supplier = &sup
	}
	return s
}

// SingleSpecs is the instance list of a single-instance class; providers build it once.
func SingleSpecs() []ns.InstanceSpec {
	return []ns.InstanceSpec{{Levels: []uint64{0}}}
}

// SingleLevel is the instance level of a single-instance class.
func SingleLevel() []ns.InstLevel {
	return []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagSingleInst, Size: 4}}
}

// InvalidList encodes the DCIInvalidData of one instance (DCI-INV-1): the ids of the datums not
// valid for it, 4 bytes each, little-endian; empty when every datum is valid.
func InvalidList(ids ...ns.DatumID) string {
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint32(b, uint32(id))
	}
	return string(b)
}

// ASNFor is a preferred SPMI number, or 0 (allocate) when it does not fit below the numbers the
// registry keeps for totals statistics.
func ASNFor(n uint64) uint16 {
	if n == 0 || n >= ns.TotalsASNBase {
		return 0
	}
	return uint16(n)
}

// UserHZ is the unit of the CPU times in /proc/stat and /proc/<pid>/stat: USER_HZ ticks, which the
// kernel's ABI fixes at 100 per second on every architecture Go supports on Linux (sysconf(_SC_CLK_TCK);
// only alpha and ia64 differed). CPU times stay in ticks (UMA_TICKS, checklist DCI-UNIT-3 and X-8): the
// conversion to milliseconds (×10) is exact, and the name space does it where a view needs it.
const UserHZ = 100
