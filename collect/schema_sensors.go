package collect

import ns "dcimon/namespace"

const sensorsASN = 12

// The kinds of sensor, each its own context under Sensors.
type sensorKind int

const (
	sensorTemp sensorKind = iota
	sensorFan
	sensorVolt
)

var sensorKinds = [...]struct {
	prefix, ctx, class, desc string // hwmon file prefix, context, instance class, description
	unit                     ns.Unit
	typ                      ns.DataType
	max                      float64 // scale top where no channel has a limit, in the unit
}{
	{"temp", "Temp", "temp", "temperature", ns.UnitMilliCelsius, ns.TypeInt4, 110000},
	{"fan", "Fan", "fan", "fan speed", ns.UnitRPM, ns.TypeUint4, 5000},
	{"in", "Volt", "in", "voltage", ns.UnitMilliVolts, ns.TypeInt4, 15000},
}

// Sensor datum low bytes, the same for every kind.
const (
	sensInputID = 1 + iota
	sensCritID  // the critical limit (temp, in), the minimum (fan)
	sensMaxID   // the high limit
	sensLabelID
	sensChipID
)

// sensorScale is the SPMI scale top of each kind's readings (SPMI-VAL-3), in the kind's unit.
type sensorScale [len(sensorKinds)]float64

// sensorsClasses declares Sensors (12), a context per kind (12.k) and its instance class
// (12.k.2), each kind's readings on the scale sc.
func sensorsClasses(sc sensorScale) []*ns.Class {
	out := []*ns.Class{{ID: ns.ClassID{sensorsASN}, Name: "Sensors", Desc: "Hardware sensors", Flags: ns.ClassEnabled,
		Help: "Temperatures, fan speeds and voltages from /sys/class/hwmon, with their labels and limits."}}
	for k, kind := range sensorKinds {
		src := "/sys/class/hwmon/hwmonN/" + kind.prefix + "K_"
		limit, limitDesc := "crit", "Critical limit"
		if sensorKind(k) == sensorFan {
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
			&ns.Class{ID: ns.ClassID{sensorsASN, uint32(k + 1)}, Name: kind.ctx, Desc: "Every " + kind.desc + " sensor", Flags: ns.ClassEnabled},
			&ns.Class{ID: ns.ClassID{sensorsASN, uint32(k + 1), 2}, Name: kind.class, Desc: "One " + kind.desc + " sensor", Flags: ns.ClassEnabled,
				Help:     "One channel of a hwmon chip. Instance value: hwmon number × 65536 + channel.",
				InstFreq: ns.SiCfgInst, Levels: []ns.InstLevel{{Type: ns.TypeUint4, Tag: ns.TagEnumeration, Size: 4}},
				Datums: []ns.Datum{
					level(sensInputID, "input", "Reading", "input").
						WithHelp("The sensor's reading now; its scale tops out at the highest critical limit of the host's channels of this kind."),
					level(sensCritID, limit, limitDesc, limit).
						WithHelp("The limit the hardware acts at; n/a where the chip has none."),
					level(sensMaxID, "max", "High limit", "max").
						WithHelp("The limit past which the chip warns; n/a where it has none."),
					text(sensLabelID, "label", "Sensor label", src+"label", "What the chip calls the channel (\"Core 0\", \"Composite\"); empty where it has no label."),
					text(sensChipID, "chip", "Chip", "/sys/class/hwmon/hwmonN/name", "The hwmon driver's name: coretemp, k10temp, nvme, acpitz..."),
				}})
	}
	return out
}

const sensorsModule, sensorsTitle = "dcimon-sensors", "Hardware sensors"
