package linux

// The IP, TCP and UDP counters of the network stack (netstat -s): /proc/net/snmp, its
// extensions in /proc/net/netstat, and the TCP sockets in TIME-WAIT from /proc/net/sockstat.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// snmpTable is a whole /proc/net/snmp-style file: for each prefix ("Tcp"), its keys and values.
// The provider keeps only the fields it wants (tcpipProvider.visit); the table is for tests.
type snmpTable map[string]map[string]int64

// visit adds one field to the table (a parseSNMP visitor).
func (t snmpTable) visit(prefix, key []byte, v int64) {
	m := t[string(prefix)]
	if m == nil {
		m = map[string]int64{}
		t[string(prefix)] = m
	}
	m[string(key)] = v
}

// get is the value of prefix's key, ok false when the file has no such field.
func (t snmpTable) get(prefix, key string) (int64, bool) {
	v, ok := t[prefix][key]
	return v, ok
}

// parseSNMP parses /proc/net/snmp or /proc/net/netstat (read from src): pairs of lines, a header
// of field names and a line of values, both starting with the same "Prefix:".
//
//	Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens ...
//	Tcp: 1 200 120000 -1 6 ...
//
// Every field is handed to visit, which must not keep the slices.
func parseSNMP(src string, data []byte, visit func(prefix, key []byte, v int64)) error {
	n, fields := 0, 0
	// A netstat line has over a hundred fields: room for them on the stack, not the heap.
	var keyArr, valArr [192][]byte
	keyBuf, valBuf := keyArr[:0], valArr[:0]
	for len(data) > 0 {
		var head, vals []byte
		head, data = cutLine(data)
		n++
		if len(bytes.TrimSpace(head)) == 0 {
			continue
		}
		vals, data = cutLine(data)
		n++
		hp, hrest, ok1 := bytes.Cut(head, []byte(":"))
		vp, vrest, ok2 := bytes.Cut(vals, []byte(":"))
		if !ok1 || !ok2 || !bytes.Equal(hp, vp) {
			return fmt.Errorf("tcpip: parse %s line %d: %w: a header and its values must share their prefix (lines %q, %q)", src, n, errTooFewFields, head, vals)
		}
		keys, values := fieldsOf(hrest, keyBuf[:0]), fieldsOf(vrest, valBuf[:0])
		keyBuf, valBuf = keys, values
		if len(keys) != len(values) {
			return fmt.Errorf("tcpip: parse %s line %d: %d names but %d values (line %q)", src, n, len(keys), len(values), vals)
		}
		fields += len(keys)
		for i, k := range keys {
			v, err := strconv.ParseInt(string(values[i]), 10, 64)
			if err != nil {
				// Counters the kernel prints as unsigned long may exceed int64 only in theory;
				// anything else is not a number.
				u, uerr := parseUint(values[i])
				if uerr != nil || u > 1<<63-1 {
					return fmt.Errorf("tcpip: parse %s line %d: %s: %w (line %q)", src, n, k, errNotNumber, vals)
				}
				v = int64(u)
			}
			visit(hp, k, v)
		}
	}
	if fields == 0 {
		return fmt.Errorf("tcpip: parse %s: %w", src, errNoData)
	}
	return nil
}

// fieldsOf splits a line at runs of spaces into fields, appended to buf (reused from line to line
// of one file: a netstat line has a hundred fields and more).
func fieldsOf(b []byte, buf [][]byte) [][]byte {
	out := buf[:0]
	for len(b) > 0 {
		var f []byte
		f, b = nextField(b)
		if len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// parseSockstat parses the TCP line of /proc/net/sockstat for the sockets in TIME-WAIT:
// "TCP: inuse 5 orphan 0 tw 2 alloc 7 mem 1".
func parseSockstat(src string, data []byte) (tw uint64, err error) {
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		rest, ok := bytes.CutPrefix(line, []byte("TCP:"))
		if !ok {
			continue
		}
		var fa [16][]byte
		f := fieldsOf(rest, fa[:0])
		for i := 0; i+1 < len(f); i += 2 {
			if string(f[i]) == "tw" {
				v, err := parseUint(f[i+1])
				if err != nil {
					return 0, fmt.Errorf("tcpip: parse %s line %d: tw: %w (line %q)", src, n, err, line)
				}
				return v, nil
			}
		}
		return 0, fmt.Errorf("tcpip: parse %s line %d: no tw field (line %q)", src, n, line)
	}
	return 0, fmt.Errorf("tcpip: parse %s: no TCP line: %w", src, errNoData)
}

// tcpipProvider reads /proc/net/snmp, /proc/net/netstat and /proc/net/sockstat.
type tcpipProvider struct {
	base
	ip, tcp, udp *ns.Class
	specs        []ns.InstanceSpec
	want         map[string]map[string]int // prefix → key → index into vals
	vals         []int64
	have         []bool
	files        map[string]*attrFile // snmp, netstat, sockstat: kept open, one pread each
	buf          []byte
}

func newTCPIPProvider(r roots, boot *bootClock) *tcpipProvider {
	p := &tcpipProvider{base: base{roots: r, now: time.Now, boot: boot}, specs: schema.SingleSpecs(), want: map[string]map[string]int{}}
	p.collectLocked = p.collect
	for _, stats := range [][]schema.StackStat{schema.IPStats, schema.TCPStats, schema.UDPStats} {
		for _, s := range stats {
			if s.File == "sockstat" {
				continue
			}
			if p.want[s.Prefix] == nil {
				p.want[s.Prefix] = map[string]int{}
			}
			p.want[s.Prefix][s.Key] = len(p.vals)
			p.vals = append(p.vals, 0)
		}
	}
	p.have = make([]bool, len(p.vals))
	p.files = map[string]*attrFile{"snmp": {}, "netstat": {}, "sockstat": {}}
	p.buf = make([]byte, 64<<10)
	p.ip, p.tcp, p.udp = schema.TCPIPClasses()
	p.declare(schema.HandleTCPIP, schema.TCPIPModule, schema.TCPIPTitle,
		"IP, TCP and UDP counters of the network stack, from /proc/net/snmp, netstat and sockstat", ns.SPTNetworkProtocol, p.ip, p.tcp, p.udp)
	return p
}

// collect reads the three files; a file that cannot be read fails the statistics it feeds, a
// field the kernel does not print is not supported.
func (p *tcpipProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	clear(p.have)
	dir := filepath.Join(rootsFrom(ctx).proc, "net")
	read := func(name string) ([]byte, string, error) {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		path := filepath.Join(dir, name)
		data, err := p.files[name].read(path, p.buf)
		if err != nil {
			return nil, path, fmt.Errorf("tcpip: %w", err)
		}
		if len(data) == len(p.buf) {
			return nil, path, fmt.Errorf("tcpip: %s is larger than %d bytes", path, len(p.buf))
		}
		return data, path, nil
	}
	errs := map[string]error{}
	for _, f := range []string{"snmp", "netstat"} {
		data, path, err := read(f)
		if err == nil {
			err = parseSNMP(path, data, p.visit)
		}
		errs[f] = err
	}
	var tw uint64
	if data, path, err := read("sockstat"); err != nil {
		errs["sockstat"] = err
	} else {
		tw, errs["sockstat"] = parseSockstat(path, data)
	}
	failed := 0
	for _, err := range errs {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			failed++
		}
	}
	if failed == len(errs) {
		return collect.Batch{}, errors.Join(errs["snmp"], errs["netstat"], errs["sockstat"])
	}
	if p.boot.get() == 0 {
		// Collected before (or without) the providers that read /proc/stat: its own reading, so
		// the first reset value is the boot time, not 0, and the second reading is not taken
		// for a restart of the supplier (no rate for a whole interval).
		refreshBoot(ctx, &p.fr, p.boot, p.now())
	}
	b := p.batch(p.now())
	for _, cs := range []struct {
		c     *ns.Class
		stats []schema.StackStat
	}{{p.ip, schema.IPStats}, {p.tcp, schema.TCPStats}, {p.udp, schema.UDPStats}} {
		if !req.Wants(cs.c) {
			continue
		}
		raw := make([]ns.Raw, len(cs.c.Datums))
		var cerr []error
		for _, s := range cs.stats {
			var r ns.Raw
			switch {
			case errors.Is(errs[s.File], fs.ErrNotExist):
				r = ns.RawNA(ns.ReasonNotSupported) // a kernel (or a tree) without the file
			case errs[s.File] != nil:
				r = missing(errs[s.File])
				cerr = append(cerr, errs[s.File])
			case s.File == "sockstat":
				r = ns.RawN(tw)
			default:
				i := p.want[s.Prefix][s.Key]
				v, ok := p.vals[i], p.have[i]
				switch {
				case !ok:
					r = ns.RawNA(ns.ReasonNotSupported)
				case v < 0:
					r = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonImplausible}
				default:
					r = ns.RawN(uint64(v))
				}
			}
			raw[s.ID-1] = r
		}
		b.Classes = append(b.Classes, collect.ClassReading{Class: cs.c, Specs: p.specs, Raw: raw, Err: errors.Join(dedupe(cerr)...)})
	}
	return b, nil
}

// visit keeps the fields the statistics want; map lookups by string(bytes) do not allocate.
func (p *tcpipProvider) visit(prefix, key []byte, v int64) {
	if m := p.want[string(prefix)]; m != nil {
		if i, ok := m[string(key)]; ok {
			p.vals[i], p.have[i] = v, true
		}
	}
}

// dedupe drops repeated errors (one file failing many statistics is one error).
func dedupe(errs []error) []error {
	var out []error
	for _, e := range errs {
		seen := false
		for _, o := range out {
			seen = seen || o == e
		}
		if !seen {
			out = append(out, e)
		}
	}
	return out
}
