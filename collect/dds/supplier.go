package dds

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"dcimon/collect"
	"dcimon/collect/schema"
	"dcimon/internal/regular"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// DDS suppliers (issue 18): users' statistics as dynamic data suppliers under `DDS/<vendor>`
// (SPMI-DDS-1 to 6). Each `*.prom` or `*.om` file, and each executable program, in a suppliers
// directory is one DCI4 supplier; its text is Prometheus or OpenMetrics text with optional
// `# PCP5` and `# DCIMON` lines (package supply). A file is read again when its modification
// time or size changes (a stat per collection: cheaper than an inotify watch per directory, and
// it also sees files on network file systems and files replaced by rename); a program is run
// at the interval it asks for (`# DCIMON interval=10s`), else at every collection, with a
// deadline, without a shell, in its own process group, killed with the group at the deadline.

// Options say where the users' suppliers are.
type Options struct {
	// Dirs are the suppliers directories, searched in order; one that does not exist is
	// looked at again at each discovery, so creating it while dcimon runs works.
	Dirs []string
	// Limits bound one text; supply.DefaultLimits when zero.
	Limits supply.Limits
	// Timeout bounds one run of a program; 10 s when zero, and never more than the program's
	// own interval.
	Timeout time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// DDS finds the suppliers in the directories and keeps one provider per file or program; it is
// the sampler's Discoverer.
type DDS struct {
	opt       Options
	ids       *ddsIDs
	mu        sync.Mutex
	sups      map[string]*ddsSupplier
	dismissed map[string]time.Time // told to go away (SPMI-DDS-5): the modification time it had then
	handle    uint32
}

// New returns the discoverer of the suppliers in opt.Dirs.
func New(opt Options) *DDS {
	if opt.Limits == (supply.Limits{}) {
		opt.Limits = supply.DefaultLimits
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &DDS{opt: opt, ids: newDDSIDs(), sups: map[string]*ddsSupplier{}, dismissed: map[string]time.Time{}, handle: 1000}
}

// ddsKind says how a directory entry supplies: as text, as a program, or not at all. Files
// being written by a tool that renames them into place (`.x.prom.tmp`, `x.prom~`) are not read.
func ddsKind(name string, fi os.FileInfo) (program, ok bool) {
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") || !fi.Mode().IsRegular() {
		return false, false
	}
	if strings.HasSuffix(name, ".prom") || strings.HasSuffix(name, ".om") {
		return false, true
	}
	return true, fi.Mode().Perm()&0o111 != 0
}

// Discover lists the suppliers there are now: the same provider for a file or program as long
// as it stays, a new one for a new file. A directory that cannot be read is an error for the
// sampler's event log; the others are still searched.
func (d *DDS) Discover(ctx context.Context) ([]collect.Provider, error) {
	var errs []error
	seen := map[string]bool{}
	var out []collect.Provider
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dir := range d.opt.Dirs {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // a program is started in its own directory, by its full path
		}
		ents, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("suppliers directory %s: %w", ns.EscapeName(dir), err))
		}
		for _, e := range ents {
			path := filepath.Join(dir, e.Name())
			if seen[path] {
				continue
			}
			fi, err := os.Stat(path) // follows a symbolic link to the real file
			if err != nil {
				continue
			}
			program, ok := ddsKind(e.Name(), fi)
			if !ok {
				continue
			}
			if t, gone := d.dismissed[path]; gone {
				if t.Equal(fi.ModTime()) {
					continue // told to go away, and not changed since
				}
				delete(d.dismissed, path)
			}
			seen[path] = true
			s := d.sups[path]
			if s == nil || s.program != program {
				d.handle++
				s = newDDSSupplier(d, path, program, d.handle)
				d.sups[path] = s
			}
			out = append(out, s)
		}
	}
	for path, s := range d.sups {
		if !seen[path] {
			s.stop()
			delete(d.sups, path)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Supplier().Module < out[j].Supplier().Module })
	return out, errors.Join(errs...)
}

// ddsSupplier is one file or program.
type ddsSupplier struct {
	d       *DDS
	path    string
	program bool
	sup     ns.Supplier

	mu     sync.Mutex
	vendor string
	vnum   uint16
	fams   map[string]*ddsFamily
	decl   []*ns.Class
	gen    uint64 // the reset value: a new declaration is a new incarnation
	doc    *supply.Doc
	docAt  time.Time // the time the doc's values belong to
	served time.Time // the doc last handed to the sampler
	err    error     // the last read's error, kept while the file does not change

	// a file
	mtime time.Time
	size  int64
	// a program
	runs    chan runResult
	running bool
	lastRun time.Time
	cancel  context.CancelFunc
	gone    bool
}

type runResult struct {
	doc *supply.Doc
	at  time.Time
	err error
}

func newDDSSupplier(d *DDS, path string, program bool, handle uint32) *ddsSupplier {
	kind := "file"
	if program {
		kind = "program"
	}
	name := ns.EscapeName(filepath.Base(path))
	return &ddsSupplier{d: d, path: path, program: program, fams: map[string]*ddsFamily{}, runs: make(chan runResult, 1),
		sup: ns.Supplier{IVersion: schema.IfaceVer, Handle: handle, Type: ns.SPTGeneralSupplier, SVersion: schema.SupVer,
			Module: ns.Clip("dds:"+name, 63), Title: ns.Clip("Users' statistics: "+name, 63),
			Description: ns.Clip(fmt.Sprintf("Statistics of the %s %s (Prometheus or OpenMetrics text)", kind, ns.EscapeName(path)), 255)}}
}

// Supplier is the supplier record; its module is `dds:` and the file's name.
func (s *ddsSupplier) Supplier() ns.Supplier { return s.sup }

// Classes is the declaration as it stands; empty until the text has been read.
func (s *ddsSupplier) Classes() []*ns.Class {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.decl)
}

// Describe is the declaration as it stands now (Describer).
func (s *ddsSupplier) Describe() []*ns.Class { return s.Classes() }

// GoAway tells the supplier it is no longer wanted (SPMI-DDS-5): a running program is killed, and
// the file or program is not read again until it changes.
func (s *ddsSupplier) GoAway() {
	s.stop()
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	fi, err := os.Stat(s.path)
	if err == nil {
		s.d.dismissed[s.path] = fi.ModTime()
	}
	delete(s.d.sups, s.path)
}

func (s *ddsSupplier) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gone = true
	if s.cancel != nil {
		s.cancel()
	}
}

// Collect reads the text when it changed (a file) or runs the program when it is due, and
// returns the values of the text last read when they are new or the sampler asks for everything.
// Between readings the batch has no classes: the name space keeps their values and rates.
func (s *ddsSupplier) Collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.d.opt.Now()
	if s.gone {
		return collect.Batch{}, fmt.Errorf("%s: told to go away", s.sup.Module)
	}
	var fresh bool
	if s.program {
		fresh = s.collectProgram(ctx, now)
	} else {
		fresh = s.collectFile()
	}
	if s.err != nil {
		return collect.Batch{}, s.err
	}
	b := collect.Batch{}
	binary.LittleEndian.PutUint64(b.Reset[:], s.gen)
	if s.doc == nil {
		b.Time = now // a program's first run is still on its way
		if !s.program {
			b.Time = s.mtime
		}
		return b, nil
	}
	if !fresh && !req.Static && s.served.Equal(s.docAt) {
		if s.program {
			b.Time = now // a program answers as long as its runs succeed
		} else {
			b.Time = s.mtime // a file is alive as long as it changes (SPMI-DDS-4)
		}
		return b, nil
	}
	s.served = s.docAt
	b.Time = s.docAt
	for i := range s.doc.Families {
		f := &s.doc.Families[i]
		fd := s.fams[f.Name]
		if fd == nil || !req.Wants(fd.stats) {
			continue
		}
		specs, raw := fd.read(f)
		b.Classes = append(b.Classes, collect.ClassReading{Class: fd.stats, Specs: specs, Raw: raw})
	}
	return b, nil
}

// collectFile reads the file again when its time or size changed; it reports whether it did.
func (s *ddsSupplier) collectFile() bool {
	fi, err := os.Stat(s.path)
	if err != nil {
		s.err = fmt.Errorf("%s: %w", s.sup.Module, err)
		return false
	}
	if s.doc != nil || s.err != nil {
		if fi.ModTime().Equal(s.mtime) && fi.Size() == s.size {
			return false
		}
	}
	s.mtime, s.size = fi.ModTime(), fi.Size()
	data, err := readBounded(s.path, s.d.opt.Limits.MaxBytes)
	if err != nil {
		s.err = fmt.Errorf("%s: %w", s.sup.Module, err)
		return false
	}
	doc, err := supply.Parse(ns.EscapeName(filepath.Base(s.path)), data, s.d.opt.Limits)
	if err != nil {
		s.err = errors.New(ns.EscapeName(err.Error()))
		return false
	}
	s.err = nil
	s.apply(doc, s.mtime)
	return true
}

// readBounded reads a regular file, opened without blocking, and at most max bytes of it.
func readBounded(path string, max int) ([]byte, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, fmt.Errorf("larger than %d bytes: %w", max, supply.ErrLimit)
	}
	return data, nil
}

// collectProgram takes the result of a run that finished, and starts one when it is due; it
// reports whether a new text arrived.
func (s *ddsSupplier) collectProgram(ctx context.Context, now time.Time) bool {
	fresh := false
	take := func(r runResult) {
		s.running = false
		if r.err != nil {
			s.err = r.err
			return
		}
		s.err = nil
		s.apply(r.doc, r.at)
		fresh = true
	}
	select {
	case r := <-s.runs:
		take(r)
	default:
	}
	interval := time.Duration(0)
	if s.doc != nil {
		interval = s.doc.Interval
	}
	if !s.running && (s.lastRun.IsZero() || now.Sub(s.lastRun) >= interval) {
		s.start(now, interval)
		if s.doc == nil && s.err == nil {
			// The first run: wait for it while the sampler's deadline allows, so that a quick
			// program's statistics are there from the first collection.
			select {
			case r := <-s.runs:
				take(r)
			case <-ctx.Done():
			}
		}
	}
	return fresh
}

// start runs the program once in its own goroutine, under its deadline.
func (s *ddsSupplier) start(now time.Time, interval time.Duration) {
	timeout := s.d.opt.Timeout
	if interval > 0 && interval < timeout {
		timeout = interval
	}
	rctx, cancel := context.WithTimeout(context.Background(), timeout)
	s.running, s.lastRun, s.cancel = true, now, cancel
	go func() {
		defer cancel()
		doc, err := runProgram(rctx, s.path, s.sup.Module, timeout, s.d.opt.Limits)
		s.runs <- runResult{doc: doc, at: s.d.opt.Now(), err: err}
	}()
}

// capped is a writer that keeps at most max bytes and remembers that more came.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
	stop func()
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.buf.Write(p[:c.max-c.buf.Len()])
		if !c.over && c.stop != nil {
			c.stop() // a program that writes forever is stopped, not read forever
		}
		c.over = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// runProgram runs path with no arguments and no shell, in its own process group, and parses
// what it prints. The whole group is killed at the deadline or when it prints past the limit.
func runProgram(ctx context.Context, path, module string, timeout time.Duration, lim supply.Limits) (*supply.Doc, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Dir = filepath.Dir(path)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	out := &capped{max: lim.MaxBytes, stop: cancel}
	errOut := &capped{max: 4096}
	cmd.Stdout, cmd.Stderr = out, errOut
	err := cmd.Run()
	if out.over {
		return nil, fmt.Errorf("%s: printed more than %d bytes: %w; stopped", module, lim.MaxBytes, supply.ErrLimit)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("%s: no answer within %v: killed", module, timeout)
	}
	if err != nil {
		msg := strings.TrimSpace(errOut.buf.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return nil, fmt.Errorf("%s: %v: %s", module, err, ns.EscapeName(ns.Clip(msg, 200)))
		}
		return nil, fmt.Errorf("%s: %v", module, err)
	}
	doc, err := supply.Parse(ns.EscapeName(filepath.Base(path)), out.buf.Bytes(), lim)
	if err != nil {
		return nil, errors.New(ns.EscapeName(err.Error()))
	}
	return doc, nil
}

// apply takes a new text: the vendor and every family declared (kept when unchanged), and a new
// incarnation when the declaration changed.
func (s *ddsSupplier) apply(doc *supply.Doc, at time.Time) {
	vendor := doc.Vendor
	if vendor == "" {
		vendor = supply.VendorOf(s.path)
	}
	if vendor != s.vendor {
		s.vendor, s.vnum = vendor, s.d.ids.vendor(vendor, doc.Enterprise)
		clear(s.fams) // every class moves
	}
	src := ns.EscapeName(s.path)
	if s.program {
		src = "program " + src
	}
	fams := make(map[string]*ddsFamily, len(doc.Families))
	changed := len(s.fams) != len(doc.Families)
	constant := constantLabels(doc)
	for i := range doc.Families {
		f := &doc.Families[i]
		prev := s.fams[f.Name]
		fd := declare(prev, s.d.ids, s.vendor, s.vnum, src, f, constant)
		fams[f.Name] = fd
		changed = changed || fd != prev
	}
	s.fams, s.doc, s.docAt = fams, doc, at
	if !changed && s.decl != nil {
		return
	}
	top := &ns.Class{ID: ns.ClassID{ns.DDSASN}, Name: "DDS", Desc: "Statistics of extension suppliers", Flags: ns.ClassEnabled, Shared: true,
		Help: "Users' statistics: OpenMetrics files and programs in the suppliers directories (SPMI-DDS-1)."}
	vc := &ns.Class{ID: ns.ClassID{ns.DDSASN, uint32(s.vnum)}, Name: s.vendor, Desc: ns.Clip("Statistics of "+s.vendor, 63), Flags: ns.ClassEnabled, Shared: true}
	decl := []*ns.Class{top, vc}
	for i := range doc.Families {
		decl = append(decl, fams[doc.Families[i].Name].classes...)
	}
	s.decl = decl
	s.gen++
}
