package linux

// Pressure stall information (/proc/pressure/{cpu,memory,io}, Linux 4.20 with CONFIG_PSI): how
// much of the time tasks waited for a resource. "some" is the share of time at least one task
// waited, "full" the share all non-idle tasks waited at once.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// psiLine is one line of a pressure file: the averages in hundredths of a percent, as printed
// ("1.23" is 123), and the total stall time in microseconds.
type psiLine struct {
	avg10, avg60, avg300, total uint64
	present                     bool
}

// psiFile is one /proc/pressure file.
type psiFile struct {
	some, full psiLine
}

// parsePressure parses a /proc/pressure file (read from src):
//
//	some avg10=0.00 avg60=0.00 avg300=0.00 total=0
//	full avg10=0.00 avg60=0.00 avg300=0.00 total=0
//
// A "full" line is absent for cpu before Linux 5.13: its datums are then not supported.
func parsePressure(src string, data []byte) (psiFile, error) {
	var p psiFile
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		kind, rest := nextField(line)
		var dst *psiLine
		switch string(kind) {
		case "some":
			dst = &p.some
		case "full":
			dst = &p.full
		default:
			return psiFile{}, fmt.Errorf("pressure: parse %s line %d: %q is neither some nor full (line %q)", src, n, kind, line)
		}
		var got [4]bool
		for len(rest) > 0 {
			var f []byte
			f, rest = nextField(rest)
			if len(f) == 0 {
				continue
			}
			k, v, ok := bytes.Cut(f, []byte("="))
			if !ok {
				return psiFile{}, fmt.Errorf("pressure: parse %s line %d: %q is not key=value (line %q)", src, n, f, line)
			}
			var err error
			switch string(k) {
			case "avg10":
				dst.avg10, err = parseCenti(v)
				got[0] = true
			case "avg60":
				dst.avg60, err = parseCenti(v)
				got[1] = true
			case "avg300":
				dst.avg300, err = parseCenti(v)
				got[2] = true
			case "total":
				dst.total, err = parseUint(v)
				got[3] = true
			}
			if err != nil {
				return psiFile{}, fmt.Errorf("pressure: parse %s line %d: %s: %w (line %q)", src, n, k, err, line)
			}
		}
		if got != [4]bool{true, true, true, true} {
			return psiFile{}, fmt.Errorf("pressure: parse %s line %d: %w: want avg10, avg60, avg300 and total (line %q)", src, n, errTooFewFields, line)
		}
		dst.present = true
	}
	if !p.some.present {
		return psiFile{}, fmt.Errorf("pressure: parse %s: no \"some\" line: %w", src, errNoData)
	}
	return p, nil
}

// pressureProvider reads /proc/pressure.
type pressureProvider struct {
	base
	top, res *ns.Class
	specs    []ns.InstanceSpec
	files    [len(schema.PSIResources)]attrFile // kept open and read with one pread each
	buf      [512]byte
}

func newPressureProvider(r roots, boot *bootClock, absent string) *pressureProvider {
	p := &pressureProvider{base: base{roots: r, now: time.Now, boot: boot}}
	p.collectLocked = p.collect
	p.top, p.res = schema.PressureClasses()
	notApplicable(absent, p.top, p.res)
	for i, name := range schema.PSIResources {
		p.specs = append(p.specs, ns.InstanceSpec{Levels: []uint64{uint64(i)}, OSName: name, ASN: uint16(i + 1)})
	}
	p.declare(schema.HandlePressure, schema.PressureModule, schema.PressureTitle,
		"Stall averages and totals of processors, memory and I/O, from /proc/pressure", ns.SPTGeneralSupplier, p.top, p.res)
	return p
}

// collect reads the three files. A kernel without PSI has none: every value is not supported,
// never 0; a file that exists and cannot be read fails its resource with the reason.
func (p *pressureProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	if p.boot.get() == 0 {
		refreshBoot(ctx, &p.fr, p.boot, p.now()) // see tcpipProvider.collect
	}
	b := p.batch(p.now())
	if !req.Wants(p.res) {
		return b, nil
	}
	nd := len(p.res.Datums)
	raw := make([]ns.Raw, len(schema.PSIResources)*nd)
	var errs []error
	absent := 0
	for i, name := range schema.PSIResources {
		row := raw[i*nd : (i+1)*nd]
		if err := ctx.Err(); err != nil {
			return collect.Batch{}, err
		}
		path := filepath.Join(rootsFrom(ctx).proc, "pressure", name)
		data, err := p.files[i].read(path, p.buf[:])
		var f psiFile
		if err == nil {
			f, err = parsePressure(path, data)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			absent++
			for k := range row {
				row[k] = ns.RawNA(ns.ReasonNotSupported) // no PSI in this kernel: n/a, never 0
			}
			continue
		case err != nil:
			errs = append(errs, err)
			for k := range row {
				row[k] = missing(err)
			}
			continue
		}
		fillPSI(row[schema.PSISomeAvg10ID-1:schema.PSISomeTotalID], f.some)
		fillPSI(row[schema.PSIFullAvg10ID-1:schema.PSIFullTotalID], f.full)
	}
	if absent == len(schema.PSIResources) {
		b.Classes = []collect.ClassReading{{Class: p.res, Specs: p.specs, Raw: raw}}
		return b, nil
	}
	b.Classes = []collect.ClassReading{{Class: p.res, Specs: p.specs, Raw: raw, Err: errors.Join(errs...)}}
	return b, nil
}

// fillPSI fills avg10, avg60, avg300 and total from one line; a line the kernel does not print
// (cpu's "full" before 5.13) is not supported.
func fillPSI(row []ns.Raw, l psiLine) {
	if !l.present {
		for k := range row {
			row[k] = ns.RawNA(ns.ReasonNotSupported)
		}
		return
	}
	row[0], row[1], row[2], row[3] = ns.RawN(l.avg10), ns.RawN(l.avg60), ns.RawN(l.avg300), ns.RawN(l.total)
}
