package schema

import ns "dcimon/namespace"

const sensorsASN = 12

// SensorKind is a kind of sensor, each its own context under Sensors.
type SensorKind int

const (
	SensorTemp SensorKind = iota
	SensorFan
	SensorVolt
)

var SensorKinds = [...]struct {
	Prefix, ctx, class, Desc string // hwmon file prefix, context, instance class, description
	unit                     ns.Unit
	typ                      ns.DataType
	Max                      float64 // scale top where no channel has a limit, in the unit
}{
	{"temp", "Temp", "temp", "temperature", ns.UnitMilliCelsius, ns.TypeInt4, 110000},
	{"fan", "Fan", "fan", "fan speed", ns.UnitRPM, ns.TypeUint4, 5000},
	{"in", "Volt", "in", "voltage", ns.UnitMilliVolts, ns.TypeInt4, 15000},
}

// Sensor datum low bytes, the same for every kind.
const (
	SensInputID = 1 + iota
	SensCritID  // the critical limit (temp, in), the minimum (fan)
	SensMaxID   // the high limit
	SensLabelID
	SensChipID
)

// SensorScale is the SPMI scale top of each kind's readings (SPMI-VAL-3), in the kind's unit.
type SensorScale [len(SensorKinds)]float64

// SensorsClasses declares Sensors (12), a context per kind (12.k) and its instance class
// (12.k.2), each kind's readings on the scale sc.
func SensorsClasses(sc SensorScale) []*ns.Class {
	out := []*ns.Class{{ID: ns.ClassID{sensorsASN}, Name: "Sensors", Desc: "Hardware sensors", Flags: ns.ClassEnabled,
		Help: "Temperatures, fan speeds and voltages from /sys/class/hwmon, with their labels and limits."}}
	for k, kind := range SensorKinds {
		src := "/sys/class/hwmon/hwmonN/" + kind.Prefix + "K_"
		limit, limitDesc := "crit", "Critical limit"
		if SensorKind(k) == SensorFan {
			limit, limitDesc = "min", "Minimum speed"
		}
		level := func(id uint8, name, desc, file string) ns.Datum {
			return ns.Gauge(id, name, kind.typ, kind.unit, desc, src+file).WithScale(0, sc[k])
		}
		text := func(id uint8, name, desc, file, help string) ns.Datum {
			d := ns.Text(id, name, desc, file).WithHelp(help)
			d.DCI4.Size = 64
			return d
		}
		out = append(out,
			&ns.Class{ID: ns.ClassID{sensorsASN, uint32(k + 1)}, Name: kind.ctx, Desc: "Every " + kind.Desc + " sensor", Flags: ns.ClassEnabled},
			&ns.Class{ID: ns.ClassID{sensorsASN, uint32(k + 1), 2}, Name: kind.class, Desc: "One " + kind.Desc + " sensor", Flags: ns.ClassEnabled,
				Help:     "One channel of a hwmon chip. Instance value: hwmon number × 65536 + channel.",
				InstFreq: ns.SiCfgInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}},
				Datums: []ns.Datum{
					level(SensInputID, "input", "Reading", "input").
						WithHelp("The sensor's reading now; its scale tops out at the highest critical limit of the host's channels of this kind."),
					level(SensCritID, limit, limitDesc, limit).
						WithHelp("The limit the hardware acts at; n/a where the chip has none."),
					level(SensMaxID, "max", "High limit", "max").
						WithHelp("The limit past which the chip warns; n/a where it has none."),
					text(SensLabelID, "label", "Sensor label", src+"label", "What the chip calls the channel (\"Core 0\", \"Composite\"); empty where it has no label."),
					text(SensChipID, "chip", "Chip", "/sys/class/hwmon/hwmonN/name", "The hwmon driver's name: coretemp, k10temp, nvme, acpitz..."),
				}})
	}
	return out
}

const SensorsModule, SensorsTitle = "dcimon-sensors", "Hardware sensors"
