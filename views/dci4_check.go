// Checking a DCI4 description against the interface version that declares it (DCI4-SUP-11).

package views

import (
	"strconv"
	"strings"

	"dcimon/namespace"
)

// SupplierInterface is the DCI4 interface version (×100) of the supplier of class c, for
// Options.Interface: a statistic of a type newer than its supplier's interface is shown raw with
// a marker (DCI4-SUP-11). 0 when the class has no supplier record.
func SupplierInterface(c *namespace.Class) uint32 {
	if c == nil || c.Supplier == nil {
		return 0
	}
	return c.Supplier.IVersion
}

// DCI4Conformance is the describe line of a statistic's DCI4 description: "conforms", or the
// ways it departs from the document against its supplier's interface (CheckDCI4), the statistic
// still being shown (DCI4-DESC-4, DCI4-SUP-11, AMB-13).
func DCI4Conformance(c *namespace.Class, d *namespace.Datum) string {
	if w := CheckDCI4(d.DCI4, SupplierInterface(c)); len(w) > 0 {
		return strings.Join(w, "; ")
	}
	return "conforms"
}

// AddConformance puts the DCI4Conformance line of datum d into the "DCI4 description" section
// of a description, where describe and the inspector show it. The sections change in place.
func AddConformance(secs []namespace.Section, c *namespace.Class, d *namespace.Datum) {
	for i := range secs {
		if secs[i].Title == "DCI4 description" {
			secs[i].Fields = append(secs[i].Fields, namespace.Field{Key: "conformance", Value: DCI4Conformance(c, d)})
			return
		}
	}
}

// CheckDCI4 lists the ways a statistic description departs from the document, for the
// describe pane (the statistic is still shown). iversion is the supplier's interface version
// ×100, or 0 to skip the version check.
func CheckDCI4(d namespace.DCI4Desc, iversion uint32) []string {
	var w []string
	add := func(s ...string) { w = append(w, strings.Join(s, "")) }
	if d.Type == namespace.STUnused {
		if d.Size != 0 {
			add("ST_UNUSED occupies no bytes but size is ", utoa(d.Size), " (AMB-14)")
		}
		return w
	}
	if d.Size%4 != 0 {
		add("size ", utoa(d.Size), " is not a multiple of 4 (DCI4-DESC-2)")
	}
	if d.NameTag != 0 {
		add("name_tag is ", utoa(d.NameTag), ", must be 0 (DCI4-DESC-4)")
	}
	if d.Spare != 0 {
		add("spare is ", utoa(d.Spare), ", must be 0 (DCI4-DESC-4)")
	}
	if d.Volatility > namespace.SVVolatile {
		add("unknown volatility ", utoa(uint32(d.Volatility)), " (AMB-13)")
	}
	if !d.Type.Known() {
		add("unknown type ", utoa(uint32(d.Type)), " (AMB-13)")
		return w
	}
	if iversion != 0 && iversion < d.Type.MinInterface() {
		add(d.Type.String(), " is not supported by interface ", namespace.VersionText(iversion), " (DCI4-SUP-11)")
	}
	var formats, presentations uint32
	min := 0
	switch d.Type {
	case namespace.STBoolean:
		formats, presentations, min = 2, 5, 1
	case namespace.STString:
		formats, presentations, min = 1, 1, 1
	case namespace.STInteger8, namespace.STInteger16, namespace.STInteger32, namespace.STInteger64:
		formats, presentations, min = 1<<32-1, 3, d.Type.IntWidth()
		if d.Format&namespace.SIFReserved != 0 {
			add("format 0x", strconv.FormatUint(uint64(d.Format), 16), " sets reserved bits (DCI4-INT-1)")
		}
	case namespace.STAddress:
		formats, presentations = 3, 1
		min = [...]int{6, 4, 2, 0}[minU32(d.Format, 3)]
	case namespace.STTime:
		formats, presentations = 3, 2
		min = [...]int{5, 4, 4, 0}[minU32(d.Format, 3)]
	}
	if d.Format >= formats {
		add("format ", utoa(d.Format), " is not defined for ", d.Type.String(), " (AMB-13)")
	}
	if d.Presentation >= presentations {
		add("presentation ", utoa(d.Presentation), " is not defined for ", d.Type.String(), " (AMB-13)")
	}
	if uint64(d.Size) < uint64(min) {
		add("size ", utoa(d.Size), " cannot hold a ", strconv.Itoa(min), "-byte value (DCI4-DESC-2)")
	}
	return w
}

func minU32(a, b uint32) uint32 {
	if a < b {
		return a
	}
	return b
}
