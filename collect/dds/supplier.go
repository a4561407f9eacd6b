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
	"sync/atomic"
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
	reap      reaper  // kills the programs' process groups when dcimon ends (process.go)
	rel       release // gives memory back after large texts went (release.go)
	// clash is, by path, the family another supplier of its vendor also gives; atomic, so that
	// Warning never waits for a discovery stuck on a file that does not answer (issue 41 item 2)
	clash atomic.Pointer[map[string]string]
	// readText reads a file's text (readBounded when nil); tests put one that hangs in its place
	readText func(path string, max int) ([]byte, error)
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

// isText says a file name is a text supplier's: `*.prom` and `*.om`.
func isText(name string) bool {
	return strings.HasSuffix(name, ".prom") || strings.HasSuffix(name, ".om")
}

// skipped says a directory entry is never a supplier: files being written by a tool that renames
// them into place (`.x.prom.tmp`, `x.prom~`).
func skipped(name string) bool { return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") }

// entry says how a directory entry supplies: as text, as a program, or not at all; and, for one
// that would, why it is refused. A text file that is not a regular file (a named pipe, a link to
// /dev/zero) or cannot be read is refused with the reason, never left out without a word (issue
// 33); so is a program others could change (issue 29). Other files (a README, a directory) are
// not suppliers.
func entry(path, name string, uid uint32) (program, ok bool, refused error) {
	fi, err := os.Stat(path) // follows a symbolic link to the real file
	if isText(name) {
		switch {
		case err != nil:
			return false, true, fmt.Errorf("cannot be read: %w", err)
		case !fi.Mode().IsRegular():
			return false, true, fmt.Errorf("%w (%s): a supplier's text must be a file", regular.ErrNotRegular, kindOf(fi))
		}
		return false, true, nil
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return false, false, nil
	}
	if err := checkTrusted(path, uid); err != nil {
		return true, true, refusal(err)
	}
	return true, true, nil
}

// refusal says why a program or directory is not used, and what dcimon asks of it.
func refusal(err error) error {
	if errors.Is(err, ErrUntrusted) {
		return fmt.Errorf("refused: %w; dcimon runs nothing that anyone but root or its own user could change (as sshd's StrictModes)", err)
	}
	return fmt.Errorf("refused: %w", err)
}

// kindOf names what a file that is not a regular file is.
func kindOf(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return regular.Kind(st.Mode)
	}
	return fi.Mode().Type().String()
}

// Discover lists the suppliers there are now: the same provider for a file or program as long
// as it stays, a new one for a new file. A directory that cannot be read is an error for the
// sampler's event log; the others are still searched. A directory others could change is not
// read at all: it is listed as a supplier refused with the reason, as is each refused file or
// program in the others, so that Monitor and the events say why (issues 29 and 33).
func (d *DDS) Discover(ctx context.Context) ([]collect.Provider, error) {
	var errs []error
	seen := map[string]bool{}
	var out []collect.Provider
	uid := trustOwner()
	d.rel.maybe(d.opt.Now())
	d.reap.sweep() // orphans that came late, and the exited ones to reap (orphans.go)
	d.mu.Lock()
	defer d.mu.Unlock()
	add := func(path string, program bool, refused error) {
		seen[path] = true
		s := d.sups[path]
		if s == nil || s.program != program {
			if s != nil {
				s.stop()
			}
			d.handle++
			s = newDDSSupplier(d, path, program, d.handle)
			d.sups[path] = s
		}
		s.setRefused(refused)
		out = append(out, s)
	}
	for _, dir := range d.opt.Dirs {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs // a program is started in its own directory, by its full path
		}
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := checkTrusted(dir, uid); err != nil {
			if !seen[dir+"/"] {
				add(dir+"/", false, refusal(err))
			}
			continue
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("suppliers directory %s: %w", ns.EscapeName(dir), err))
		}
		for _, e := range ents {
			path := filepath.Join(dir, e.Name())
			if seen[path] || skipped(e.Name()) {
				continue
			}
			program, ok, refused := entry(path, e.Name(), uid)
			if !ok {
				continue
			}
			if t, gone := d.dismissed[path]; gone {
				if fi, err := os.Stat(path); err == nil && t.Equal(fi.ModTime()) {
					continue // told to go away, and not changed since
				}
				delete(d.dismissed, path)
			}
			add(path, program, refused)
		}
	}
	for path, s := range d.sups {
		if !seen[path] {
			s.stop()
			d.rel.went(s.series())
			delete(d.sups, path)
		}
	}
	clash := clashes(d.sups)
	d.clash.Store(&clash)
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
	// a file's read under way, which a collection gave up waiting for (textfile.go)
	reading   chan fileRead
	readStart time.Time
	// refused says why the file, program or directory is not used (not a regular file, or
	// others could change it); nil when it is. Discover sets it anew each time.
	refused error
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
	if strings.HasSuffix(path, "/") {
		kind, name = "directory", ns.EscapeName(filepath.Base(path))+" (directory)" // a refused directory
	}
	return &ddsSupplier{d: d, path: path, program: program, fams: map[string]*ddsFamily{}, runs: make(chan runResult, 1),
		sup: ns.Supplier{IVersion: schema.IfaceVer, Handle: handle, Type: ns.SPTGeneralSupplier, SVersion: schema.SupVer,
			Module: ns.Clip("dds:"+name, 63), Title: ns.Clip("Users' statistics: "+name, 63),
			Description: ns.Clip(fmt.Sprintf("Statistics of the %s %s (Prometheus or OpenMetrics text)", kind, ns.EscapeName(path)), 255)}}
}

// setRefused records why the supplier is not used now, or nil; a program refused is stopped.
func (s *ddsSupplier) setRefused(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused = err
	if err != nil && s.cancel != nil {
		s.cancel()
	}
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
	s.d.rel.went(s.series())
	delete(s.d.sups, s.path)
}

// clashes finds the families two suppliers of one vendor both give (issue 33 item 8): the
// sampler registers the first and refuses the second (SiDuplicate, SPMI-DDS-2), and each of the
// two says so (Warning), not only the one refused.
func clashes(sups map[string]*ddsSupplier) map[string]string {
	by := map[string][]*ddsSupplier{}
	for _, s := range sups {
		s.mu.Lock()
		for name := range s.fams {
			k := s.vendor + "\x00" + name
			by[k] = append(by[k], s)
		}
		s.mu.Unlock()
	}
	out := map[string]string{}
	for k, ss := range by {
		if len(ss) < 2 {
			continue
		}
		vendor, fam, _ := strings.Cut(k, "\x00")
		for _, s := range ss {
			var others []string
			for _, o := range ss {
				if o != s {
					others = append(others, o.sup.Module)
				}
			}
			slices.Sort(others)
			msg := fmt.Sprintf("%s (%d): family %s of DDS/%s is also given by %s", ns.SiDuplicate, int(ns.SiDuplicate),
				ns.EscapeName(fam), vendor, strings.Join(others, ", "))
			if prev, ok := out[s.path]; !ok || msg < prev {
				out[s.path] = msg // one clash said, the same one each time
			}
		}
	}
	return out
}

// Warning says what is wrong with a supplier that still supplies: a family another supplier of
// its vendor gives too; nil when nothing is. The sampler's Monitor shows it (collect.Warner).
func (s *ddsSupplier) Warning() error {
	if c := s.d.clash.Load(); c != nil {
		if msg, ok := (*c)[s.path]; ok {
			return errors.New(msg)
		}
	}
	return nil
}

// series is how many series the supplier's text has now.
func (s *ddsSupplier) series() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return seriesOf(s.doc)
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
	var file fileRead
	if !s.program {
		var ok bool
		if file, ok = s.readFile(ctx); !ok { // off the lock, under a deadline (textfile.go)
			file.same = true // not read: gone or refused, said below
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.d.opt.Now()
	if s.gone {
		return collect.Batch{}, fmt.Errorf("%s: told to go away", s.sup.Module)
	}
	if s.refused != nil {
		return collect.Batch{}, fmt.Errorf("%s: %s", s.sup.Module, ns.EscapeName(s.refused.Error()))
	}
	var fresh bool
	if s.program {
		fresh = s.collectProgram(ctx, now)
	} else {
		fresh = s.collectFile(file)
	}
	if s.err != nil {
		return collect.Batch{}, s.err
	}
	b := collect.Batch{}
	binary.LittleEndian.PutUint64(b.Reset[:], s.gen)
	if s.doc == nil {
		if s.program && s.running {
			// Its first run is still on its way: not an answer, though it may come at a later
			// collection (a command waits for it: headless.awaitSuppliers).
			return collect.Batch{}, fmt.Errorf("%s: %w within the deadline: its first run is still going", s.sup.Module, collect.ErrNoAnswer)
		}
		b.Time = now
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
		doc, err := runProgram(rctx, &s.d.reap, s.path, s.sup.Module, timeout, s.d.opt.Limits)
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

// outputs are the read ends of a program's standard output and error, copied into their writers.
type outputs struct {
	r, w [2]*os.File
	done chan struct{}
}

// pipeTo gives cmd pipes for its standard output and error, to be copied into out and errOut.
func pipeTo(cmd *exec.Cmd, out, errOut io.Writer) (*outputs, error) {
	o := &outputs{done: make(chan struct{}, 2)}
	for i := range 2 {
		r, w, err := os.Pipe()
		if err != nil {
			o.close()
			return o, err
		}
		o.r[i], o.w[i] = r, w
	}
	cmd.Stdout, cmd.Stderr = o.w[0], o.w[1]
	for i, dst := range []io.Writer{out, errOut} {
		go func(r *os.File, dst io.Writer) {
			_, _ = io.Copy(dst, r)
			o.done <- struct{}{}
		}(o.r[i], dst)
	}
	return o, nil
}

// started closes the write ends once the program has them.
func (o *outputs) started() {
	for i, w := range o.w {
		if w != nil {
			_ = w.Close()
			o.w[i] = nil
		}
	}
}

// wait waits for both copies to end, at most d; then the read ends are closed, which ends them
// (a process outside the program's group that still holds a pipe cannot hold the run).
func (o *outputs) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	n, late := 0, false
	for n < 2 && !late {
		select {
		case <-o.done:
			n++
		case <-t.C:
			late = true
		}
	}
	o.close()
	for ; n < 2; n++ {
		<-o.done // a read of a closed pipe ends at once
	}
}

func (o *outputs) close() {
	for _, f := range append(o.r[:], o.w[:]...) {
		if f != nil {
			_ = f.Close()
		}
	}
}

// runProgram runs path with no arguments and no shell, in its own directory and process group,
// with the minimal environment (minimalEnv), and parses what it prints. It is refused when others
// could change it (checked again at each run, not only when it was found). The whole group is
// killed at the deadline, when it prints past the limit, and when the run is over, so that
// nothing it started stays; the reaper kills it if dcimon ends first.
func runProgram(ctx context.Context, reap *reaper, path, module string, timeout time.Duration, lim supply.Limits) (*supply.Doc, error) {
	if err := checkTrusted(path, trustOwner()); err != nil {
		return nil, fmt.Errorf("%s: %s", module, ns.EscapeName(refusal(err).Error()))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Dir = filepath.Dir(path)
	cmd.Env = minimalEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out := &capped{max: lim.MaxBytes, stop: cancel}
	errOut := &capped{max: 4096}
	// The output comes through pipes of ours, read until their end: the run is over when the
	// program itself ends, and then its group is killed, so that a child it left in the
	// background (holding the pipe) cannot keep the run going.
	reap.ready() // dcimon a subreaper before the program can fork (orphans.go)
	read, err := pipeTo(cmd, out, errOut)
	if err == nil {
		err = spawn(cmd)
		read.started()
	}
	if err == nil {
		pgid := cmd.Process.Pid
		reap.tell('+', pgid)
		err = cmd.Wait()
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // what it left running in the background
		reap.tell('-', pgid)
		read.wait(time.Second)
		reap.sweep() // a daemon it left in a session of its own (orphans.go)
	} else {
		read.close()
	}
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
		fd.learn(f)
		fams[f.Name] = fd
		changed = changed || fd != prev
	}
	s.d.rel.went(seriesOf(s.doc) - seriesOf(doc))
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
