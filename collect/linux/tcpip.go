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

// snmpPair is one pair of lines of /proc/net/snmp or /proc/net/netstat, a header of field names
// and a line of values, both starting with the same "Prefix:":
//
//	Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens ...
//	Tcp: 1 200 120000 -1 6 ...
//
// head and vals are the two lines, prefix what they share, names and values the rest of each.
type snmpPair struct {
	head, vals, prefix, names, values []byte
}

// nextSNMPPair cuts the next pair of lines off data (read from src), blank lines passed over;
// *n counts the lines read, for the errors. ok is false at the end of data, and with an error
// for a pair whose lines do not share their prefix.
func nextSNMPPair(src string, data []byte, n *int) (p snmpPair, rest []byte, ok bool, err error) {
	for len(data) > 0 {
		p.head, data = cutLine(data)
		*n++
		if len(trimSpace(p.head)) == 0 {
			continue
		}
		p.vals, data = cutLine(data)
		*n++
		hp, names, ok1 := bytes.Cut(p.head, []byte(":"))
		vp, values, ok2 := bytes.Cut(p.vals, []byte(":"))
		if !ok1 || !ok2 || !bytes.Equal(hp, vp) {
			return p, data, false, fmt.Errorf("tcpip: parse %s line %d: %w: a header and its values must share their prefix (lines %q, %q)", src, *n, errTooFewFields, p.head, p.vals)
		}
		p.prefix, p.names, p.values = hp, names, values
		return p, data, true, nil
	}
	return p, data, false, nil
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
	pos          map[string][]snmpPos // snmp, netstat: each pair of lines' positions, in order
}

// snmpPos is where the fields of one pair of lines of /proc/net/snmp or netstat go (issue 38
// item 4: read by position): the header as last read, which the kernel prints the same at every
// read, its field names (in head) and, for each field, the index into vals it fills (-1: not
// wanted); last is the last wanted field's index, -1 when none is. netstat's 200 fields and
// more, of which two are wanted, were each split, parsed and looked up by name in two maps.
type snmpPos struct {
	head  []byte
	keys  [][]byte
	slots []int
	last  int
}

// learn makes pos the positions of a header line (head, whose prefix is prefix and fields
// fields), copied: the read buffer is used again.
func (p *tcpipProvider) learn(pos *snmpPos, head, prefix, fields []byte) {
	pos.head = append(pos.head[:0], head...)
	own := pos.head[len(head)-len(fields):]
	pos.keys = fieldsOf(own, pos.keys[:0])
	pos.slots, pos.last = pos.slots[:0], -1
	want := p.want[string(prefix)]
	for i, k := range pos.keys {
		slot, ok := want[string(k)]
		if !ok {
			slot = -1
		} else {
			pos.last = i
		}
		pos.slots = append(pos.slots, slot)
	}
}

// readSNMP fills p.vals with the wanted fields of file (/proc/net/snmp or netstat, read from src)
// by their positions: a header the same as at the last read is not split again, and of its
// values line only the fields up to the last wanted one are looked at, and only the wanted ones
// parsed (so only they are checked: a field nobody reads is not an error). The lines are as
// parseSNMP reads them, and a pair whose header and values do not share their prefix is the
// same error (nextSNMPPair cuts the pairs for both).
func (p *tcpipProvider) readSNMP(file, src string, data []byte) error {
	layout := p.pos[file]
	n, pair, fields := 0, 0, 0
	for {
		sp, next, ok, err := nextSNMPPair(src, data, &n)
		if err != nil {
			p.pos[file] = layout
			return err
		}
		if !ok {
			break
		}
		data = next
		if pair == len(layout) {
			layout = append(layout, snmpPos{})
		}
		pos := &layout[pair]
		pair++
		if !bytes.Equal(pos.head, sp.head) {
			p.learn(pos, sp.head, sp.prefix, sp.names)
		}
		fields += len(pos.keys)
		rest := sp.values
		for i := 0; i <= pos.last; i++ {
			var f []byte
			if f, rest = nextField(rest); len(f) == 0 {
				p.pos[file] = layout
				return fmt.Errorf("tcpip: parse %s line %d: %d names but %d values (line %q)", src, n, len(pos.keys), i, sp.vals)
			}
			if pos.slots[i] < 0 {
				continue
			}
			v, err := snmpValue(f)
			if err != nil {
				p.pos[file] = layout
				return fmt.Errorf("tcpip: parse %s line %d: %s: %w (line %q)", src, n, pos.keys[i], errNotNumber, sp.vals)
			}
			p.vals[pos.slots[i]], p.have[pos.slots[i]] = v, true
		}
	}
	p.pos[file] = layout
	if fields == 0 {
		return fmt.Errorf("tcpip: parse %s: %w", src, errNoData)
	}
	return nil
}

// snmpValue is one value of /proc/net/snmp or netstat: a signed decimal, or an unsigned one up to
// 2^63-1 (counters the kernel prints as unsigned long may exceed int64 only in theory).
func snmpValue(b []byte) (int64, error) {
	if v, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return v, nil
	}
	u, err := parseUint(b)
	if err != nil || u > 1<<63-1 {
		return 0, errNotNumber
	}
	return int64(u), nil
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
	p.pos = map[string][]snmpPos{}
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
			err = p.readSNMP(f, path, data)
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
