package linux

// Hardware sensors (/sys/class/hwmon): temperatures, fan speeds and voltages with their labels
// and limits. A host without any is left without the Sensors class: absent, not empty.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// sensor is one channel of one chip: hwmonN/tempK_*.
type sensor struct {
	kind            schema.SensorKind
	hwmon, ch       int
	chip, label     string
	input           int64
	crit, max       int64
	hasCrit, hasMax bool
	err             error
}

// sensorName is a channel's name in the tree: chip, then its label or the channel
// (`coretemp Core 0`, `nvme Composite`, `acpitz temp1`), unique within the kind.
func (s *sensor) name() string {
	l := s.label
	if l == "" {
		l = schema.SensorKinds[s.kind].Prefix + strconv.Itoa(s.ch)
	}
	return s.chip + " " + l
}

// instance value: hwmon number and channel.
func (s *sensor) value() uint64 { return uint64(s.hwmon)<<16 | uint64(s.ch) }

// listSensors finds every channel with an input under dir (<sys>/class/hwmon), in hwmon and
// channel order. A channel whose input cannot be read keeps its error.
func listSensors(ctx context.Context, fr *fileReader, dir string) ([]sensor, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []sensor
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hw, ok := numbered(e.Name(), "hwmon", "")
		if !ok {
			continue
		}
		base := filepath.Join(dir, e.Name())
		files, err := os.ReadDir(base)
		if err != nil {
			continue
		}
		chip := sensorAttr(fr, filepath.Join(base, "name"))
		if chip == "" {
			chip = e.Name()
		}
		for _, f := range files {
			for k, kind := range schema.SensorKinds {
				ch, ok := numbered(f.Name(), kind.Prefix, "_input")
				if !ok {
					continue
				}
				s := sensor{kind: schema.SensorKind(k), hwmon: hw, ch: ch, chip: chip}
				if readSensor(fr, filepath.Join(base, strings.TrimSuffix(f.Name(), "_input")), &s) {
					out = append(out, s)
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b sensor) int {
		if a.hwmon != b.hwmon {
			return a.hwmon - b.hwmon
		}
		return a.ch - b.ch
	})
	return out, nil
}

// readSensor reads a channel's files (stem is its path without "_input"): its input, label and
// limits. False when the channel vanished after it was listed (a module unloaded, a drive
// removed); an input that cannot be read otherwise is kept as s.err.
func readSensor(fr *fileReader, stem string, s *sensor) bool {
	s.label = sensorAttr(fr, stem+"_label")
	s.input, s.err = readInt(fr, stem+"_input")
	if errors.Is(s.err, fs.ErrNotExist) {
		return false
	}
	limit := "_crit"
	if s.kind == schema.SensorFan {
		limit = "_min"
	}
	if v, err := readInt(fr, stem+limit); err == nil {
		s.crit, s.hasCrit = v, true
	}
	if v, err := readInt(fr, stem+"_max"); err == nil {
		s.max, s.hasMax = v, true
	}
	return true
}

// numbered is n of a sysfs name prefix+n+suffix ("hwmon3", "temp1_input", "node0"), a decimal
// number up to 0xffff.
func numbered(name, prefix, suffix string) (int, bool) {
	n, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	if n, ok = strings.CutSuffix(n, suffix); !ok {
		return 0, false
	}
	v, err := strconv.ParseUint(n, 10, 16)
	return int(v), err == nil
}

// sensorAttr is a text attribute, "" when it cannot be read.
func sensorAttr(fr *fileReader, path string) string {
	data, err := fr.read(path)
	if err != nil {
		return ""
	}
	return string(trimNewline(data))
}

// readInt reads a decimal attribute (hwmon values may be negative: −5 °C is -5000).
func readInt(fr *fileReader, path string) (int64, error) {
	data, err := fr.read(path)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(string(trimNewline(data)), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("sensors: parse %s: %w: %q", path, errNotNumber, trimNewline(data))
	}
	return v, nil
}

// sensorRaw is a reading as a 4-byte DCI value: two's complement in the low 32 bits, which a
// UMA_INT4 reads back as the negative number (−5 °C is -5000).
func sensorRaw(v int64) uint64 { return uint64(uint32(int32(v))) }

// probeSensors lists dir (<sys>/class/hwmon) once at start-up. Where there is no channel with
// an input it is nil: the Sensors class is not declared at all. Otherwise each kind's scale tops
// out at the highest critical limit of its channels (the high limit where none has a critical
// one, and the kind's default where none has either), so a bar is full where the hardware acts.
func probeSensors(dir string) *schema.SensorScale {
	var fr fileReader
	ss, err := listSensors(context.Background(), &fr, dir)
	if err != nil || len(ss) == 0 {
		return nil
	}
	return scaleOf(ss)
}

func scaleOf(ss []sensor) *schema.SensorScale {
	var crit, high, sc schema.SensorScale
	for _, s := range ss {
		if s.kind == schema.SensorFan {
			continue // a fan's limit is its minimum: no top
		}
		if s.hasCrit {
			crit[s.kind] = max(crit[s.kind], float64(s.crit))
		}
		if s.hasMax {
			high[s.kind] = max(high[s.kind], float64(s.max))
		}
	}
	for k := range sc {
		switch {
		case crit[k] > 0:
			sc[k] = crit[k]
		case high[k] > 0:
			sc[k] = high[k]
		default:
			sc[k] = schema.SensorKinds[k].Max
		}
	}
	return &sc
}

// sensorsProvider reads /sys/class/hwmon.
type sensorsProvider struct {
	base
	kinds [len(schema.SensorKinds)]*ns.Class
	specs [len(schema.SensorKinds)][]ns.InstanceSpec
}

func newSensorsProvider(r roots, boot *bootClock, sc schema.SensorScale) *sensorsProvider {
	p := &sensorsProvider{base: base{roots: r, now: time.Now, boot: boot}}
	p.collectLocked = p.collect
	p.decl = schema.SensorsClasses(sc)
	for k := range schema.SensorKinds {
		p.kinds[k] = p.decl[2+2*k]
	}
	p.declare(schema.HandleSensors, schema.SensorsModule, schema.SensorsTitle, "Temperatures, fan speeds and voltages, from /sys/class/hwmon",
		ns.SPTGeneralSupplier, p.decl...)
	return p
}

// collect lists and reads every channel.
func (p *sensorsProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	dir := filepath.Join(rootsFrom(ctx).sys, "class", "hwmon")
	ss, err := listSensors(ctx, &p.fr, dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return collect.Batch{}, fmt.Errorf("sensors: %w", err)
	}
	b := p.batch(p.now())
	for k, c := range p.kinds {
		if !req.Wants(c) {
			continue
		}
		nd := len(c.Datums)
		var raw []ns.Raw
		p.specs[k] = p.specs[k][:0]
		var errs []error
		for i := range ss {
			s := &ss[i]
			if int(s.kind) != k {
				continue
			}
			row := make([]ns.Raw, nd)
			if s.err != nil {
				row[schema.SensInputID-1] = missing(s.err)
				errs = append(errs, s.err)
			} else {
				row[schema.SensInputID-1] = ns.RawN(sensorRaw(s.input))
			}
			row[schema.SensCritID-1], row[schema.SensMaxID-1] = ns.RawNA(ns.ReasonNotSupported), ns.RawNA(ns.ReasonNotSupported)
			if s.hasCrit {
				row[schema.SensCritID-1] = ns.RawN(sensorRaw(s.crit))
			}
			if s.hasMax {
				row[schema.SensMaxID-1] = ns.RawN(sensorRaw(s.max))
			}
			row[schema.SensLabelID-1], row[schema.SensChipID-1] = ns.RawS(s.label), ns.RawS(s.chip)
			raw = append(raw, row...)
			p.specs[k] = append(p.specs[k], ns.InstanceSpec{Levels: []uint64{s.value()}, OSName: s.name(),
				Desc: schema.SensorKinds[k].Desc + " " + ns.EscapeName(s.name())})
		}
		b.Classes = append(b.Classes, collect.ClassReading{Class: c, Specs: p.specs[k], Raw: raw, Err: errors.Join(errs...)})
	}
	return b, nil
}
