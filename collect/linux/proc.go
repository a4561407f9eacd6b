package linux

// Processes (issue 17): one instance per process, read from /proc/PID/stat, status and io with
// parsers of our own into buffers kept from one collection to the next. The class is read only
// while someone subscribes to it (ns.Class.OnDemand): a host's processes cost milliseconds.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
)

// procEntry is one process known from an earlier scan, with what is kept of it.
type procEntry struct {
	pid      uint64
	start    uint64
	levels   []uint64
	name     string // the PID in decimal: the instance's name
	desc     string
	dir      string // <proc>/PID
	stat     pathZ  // <proc>/PID/stat, status, io, cmdline, cgroup: built once per process
	status   pathZ
	io       pathZ
	cmdPath  pathZ
	cgPath   pathZ
	statS    string // the same paths as strings, for error messages (made once, not per scan)
	statusS  string
	ioS      string
	comm     string
	cmdline  string
	cgroup   string
	kthread  bool
	seen     uint64
	statBuf  pidStat
	statusV  procStatus
	ioV      procIO
	ioErr    ns.Raw // the raw value of io's datums when io could not be read
	ioFailed bool
	// ioSkipped says io was not read: no datum of it was asked for (Request.Datums); cgRead
	// that cgroup was read in this process's life, and since it was last not asked for.
	ioSkipped bool
	cgRead    bool
	// ctxStale says a kernel thread's status was not read: its context switches are not known.
	ctxStale bool
	// fds are stat, io, statm and schedstat kept open on a live procfs (-1: not open), read
	// again with one pread each at every scan instead of open, read and close, for as many
	// processes as the cache has room for (procfds.go). A kept descriptor reads its own process
	// only: once it exits, reads fail with ESRCH, and a process given its PID has a new entry.
	fds [4]int
	// scans counts the scans that read the process (up to 2): the cache is for those seen twice.
	scans uint8
	// statm and schedstat, read at every scan: the resident size, and whether the main thread
	// ran since the last scan (status is read again only then: its context switches and user
	// are the main thread's, and they cannot change while it does not run).
	statm, sched pathZ
	rssPages     uint64
	statmOK      bool
	lastRun      uint64
	haveRun      bool
	statusRead   bool
}

// The kept descriptors of an entry, by file.
const (
	fdStat = iota
	fdIO
	fdStatm
	fdSched
)

// procProvider reads every process.
type procProvider struct {
	base
	top, cls *ns.Class
	pageSize uint64
	procs    map[uint64]*procEntry
	order    []*procEntry
	gen      uint64
	dir      *os.File // <proc>, kept open: listed with getdents into dents
	dents    []byte
	specs    []ns.InstanceSpec
	raw      []ns.Raw
	users    userNames
	fbuf     []byte
	pids     []uint64
	newStat  pathZ // the stat path of a PID not yet known, kept for its entry
	// openHook, when set (tests), is asked before each file is opened; an error it returns is
	// the open's (an unreadable file where the test runs as root).
	openHook func(path string) error
	// keep says the proc root is a live procfs, whose files are kept open and read again with
	// pread; a fixture tree (rewritten between readings) is opened at every read. keptFDs counts
	// the descriptors kept, at most budget (procfds.go).
	keep      bool
	keepKnown bool
	keptFDs   int
	budget    int
	// noSched says /proc/PID/schedstat is not there (a kernel without scheduler statistics):
	// status is then read at every scan.
	noSched bool
	noStatm bool
}

func newProcProvider(r roots, boot *bootClock, ncpu int, memTotal uint64) *procProvider {
	p := &procProvider{base: base{roots: r, now: time.Now, boot: boot}, pageSize: uint64(os.Getpagesize()),
		procs: map[uint64]*procEntry{}}
	p.collectLocked = p.collect
	p.top, p.cls = schema.ProcClasses(ncpu, memTotal)
	p.decl = []*ns.Class{p.top, p.cls}
	p.users.path = filepath.Join(r.etc, "passwd")
	p.declare(schema.HandleProc, schema.ProcModule, schema.ProcTitle, "Every process: CPU, memory, I/O and context switches, from /proc/PID",
		ns.SPTGeneralSupplier, p.decl...)
	return p
}

// pathZ is a path with a NUL byte after it, made once per process, so opening it does not copy
// it at every scan (unix.Open does, three times a process).
type pathZ []byte

func makePathZ(s string) pathZ { return append([]byte(s), 0) }

func (z pathZ) String() string { return string(z[:len(z)-1]) }

// isProcfs says dir is a live procfs: its files can be kept open and read again.
func isProcfs(dir string) bool {
	var st unix.Statfs_t
	return unix.Statfs(dir, &st) == nil && st.Type == unix.PROC_SUPER_MAGIC
}

// gone reports whether a read failed because the process exited meanwhile: the normal race of
// a process table, never an error (issue 17).
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH)
}

// list returns the PIDs under <proc>, into pids (reused).
func (p *procProvider) list(dir string, pids []uint64) ([]uint64, error) {
	if p.dir == nil {
		f, err := os.Open(dir)
		if err != nil {
			return nil, err
		}
		p.dir = f
		p.dents = make([]byte, 32<<10)
	} else if _, err := p.dir.Seek(0, 0); err != nil {
		p.dir.Close()
		p.dir = nil
		return nil, err
	}
	fd := int(p.dir.Fd())
	for {
		n, err := unix.Getdents(fd, p.dents)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
		if n <= 0 {
			return pids, nil
		}
		pids = appendPIDs(pids, p.dents[:n])
	}
}

// appendPIDs appends the numeric names of a getdents64 buffer (struct linux_dirent64: ino 8,
// off 8, reclen 2, type 1, name NUL-terminated).
func appendPIDs(pids []uint64, b []byte) []uint64 {
	for len(b) >= 19 {
		reclen := int(b[16]) | int(b[17])<<8
		if reclen < 19 || reclen > len(b) {
			return pids
		}
		name := b[19:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if pid, ok := pidOf(name); ok {
			pids = append(pids, pid)
		}
		b = b[reclen:]
	}
	return pids
}

// pidOf parses a directory name that is a PID (digits only, no leading zero).
func pidOf(name []byte) (uint64, bool) {
	if len(name) == 0 || len(name) > 10 || name[0] == '0' {
		return 0, false
	}
	var v uint64
	for _, c := range name {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, v <= 1<<32
}

// collect scans the processes when the Proc class is asked for.
func (p *procProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	b := p.batch(time.Time{})
	if !req.Wants(p.cls) {
		b.Time = p.now()
		return b, nil
	}
	if p.boot.get() == 0 || req.Static {
		refreshBoot(ctx, &p.fr, p.boot, p.now())
		b.Reset = collect.ResetOf(p.boot.get())
	}
	cr, err := p.scan(ctx, req)
	if err != nil {
		return collect.Batch{}, err
	}
	b.Time = p.now()
	b.Classes = []collect.ClassReading{cr}
	return b, nil
}

// scan lists the processes and reads each; a process that exits meanwhile is left out without
// an error (the normal race of a process table).
func (p *procProvider) scan(ctx context.Context, req collect.Request) (collect.ClassReading, error) {
	dir := p.roots.proc
	if !p.keepKnown {
		p.keep, p.keepKnown, p.budget = isProcfs(dir), true, fdBudget()
	}
	pids, err := p.list(dir, p.pidScratch())
	if err != nil {
		return collect.ClassReading{}, fmt.Errorf("proc: %w", err)
	}
	p.pids = pids
	p.gen++
	p.users.refresh(p.now())
	btime := p.boot.get()
	nd := len(p.cls.Datums)
	p.order = p.order[:0]
	var errs []error
	need := procNeed{io: p.needIO(req), cgroup: req.WantsDatum(p.cls, schema.ProcCgroupID-1),
		ctx: req.WantsDatum(p.cls, schema.ProcVCtxID-1) || req.WantsDatum(p.cls, schema.ProcNVCtxID-1)}
	for _, pid := range pids {
		if err := ctx.Err(); err != nil {
			return collect.ClassReading{}, err
		}
		e, err := p.read(pid, req.Variable, need)
		if err != nil {
			if !gone(err) && len(errs) < 3 { // a few are enough to say what is wrong
				errs = append(errs, err)
			}
			continue
		}
		if e != nil {
			e.seen = p.gen
			if e.scans < 2 {
				e.scans++
			}
			p.order = append(p.order, e)
		}
	}
	for pid, e := range p.procs {
		if e.seen != p.gen {
			p.closeFDs(e)
			delete(p.procs, pid)
		}
	}
	slices.SortFunc(p.order, func(a, b *procEntry) int { return cmp.Compare(a.pid, b.pid) })
	p.specs = p.specs[:0]
	raw := collect.ReuseRawRows(&p.raw, len(p.order)*nd)
	for i, e := range p.order {
		p.specs = append(p.specs, ns.InstanceSpec{Levels: e.levels, OSName: e.name, Desc: e.desc, Label: e.comm})
		p.fill(raw[i*nd:(i+1)*nd], e, btime)
	}
	return collect.ClassReading{Class: p.cls, Specs: p.specs, Raw: raw, Err: errors.Join(errs...)}, nil
}

// pidScratch is the PID list's buffer, reused.
func (p *procProvider) pidScratch() []uint64 { return p.pids[:0] }

// read reads one process: stat, status and io, and for a new process (or when variable data is
// due) its command line and control group. A nil entry and nil error: skipped (a thread group
// that is not a process never shows here; kept for clarity).
func (p *procProvider) read(pid uint64, variable bool, need procNeed) (*procEntry, error) {
	e := p.procs[pid]
	var statPath pathZ
	var statS string
	if e != nil {
		statPath, statS = e.stat, e.statS
	} else {
		statS = filepath.Join(p.roots.proc, strconv.FormatUint(pid, 10), "stat")
		p.newStat = makePathZ(statS)
		statPath = p.newStat
	}
	var data []byte
	var err error
	if e != nil {
		data, err = p.readKept(e, fdStat, statPath, 4096)
	} else {
		data, err = p.readInto(statPath, 4096)
	}
	if err != nil {
		if e != nil && gone(err) {
			p.closeFDs(e) // exited: its entry goes at the end of the scan
		}
		return nil, &os.PathError{Op: "read", Path: statS, Err: err}
	}
	var st pidStat
	if err := parsePIDStat(statS, data, &st); err != nil {
		return nil, fmt.Errorf("proc: %w", err)
	}
	fresh := e == nil || e.start != st.start
	if fresh {
		// A new process, or a PID the kernel gave to another one: a new instance.
		if e != nil {
			p.closeFDs(e)
		}
		e = p.newEntry(pid, st.start)
		p.procs[pid] = e
	}
	execd := false
	if string(st.comm) != e.comm { // compared in place: no allocation while it stays the same
		e.comm, execd = string(st.comm), !fresh // a new name: the process ran another program
	}
	e.kthread = st.flags&pfKthread != 0
	st.comm = nil
	e.statBuf = st
	// The resident size from statm, at every scan: it moves while the process sleeps (another
	// thread, reclaim). A kernel thread has no memory of its own: the kernel writes its statm
	// as zeros (get_task_mm is nil for PF_KTHREAD) and fill shows 0 without reading it (issue 38
	// item 5: half of a host's processes are kernel threads).
	e.statmOK = false
	if e.kthread && !p.noStatm {
		e.rssPages, e.statmOK = 0, true
	} else if !p.noStatm {
		data, err := p.readKept(e, fdStatm, e.statm, 256)
		switch {
		case err == nil:
			if pages, err := parseStatmResident(e.dir, data); err == nil {
				e.rssPages, e.statmOK = pages, true
			}
		case p.exited(e, err):
			return nil, err
		case gone(err):
			p.noStatm = true // a tree without statm: status's VmRSS then
		}
	}
	if err := p.readStatus(e, fresh || execd, need.ctx); err != nil {
		return nil, err
	}
	e.ioFailed, e.ioSkipped = false, !need.io
	if !need.io {
		p.closeFD(e, fdIO) // its place in the cache goes to another process's file
	} else if data, err = p.readKept(e, fdIO, e.io, 1024); err != nil {
		if p.exited(e, err) {
			return nil, err
		}
		e.ioFailed, e.ioErr = true, missing(&os.PathError{Op: "read", Path: e.ioS, Err: err})
	} else if err := parseProcIO(e.ioS, data, &e.ioV); err != nil {
		return nil, err
	}
	p.readCmdlineCgroup(e, fresh || variable || execd, need.cgroup)
	if e.cmdline == "" {
		e.cmdline = "[" + e.comm + "]" // a kernel thread, or a zombie: as ps shows it
	}
	return e, nil
}

// readStatus reads status (user, context switches) when due (a new process, a program run) or
// when the main thread ran since the last scan (issue 32 item 15: status is the dearest file a
// process has): what it says about the main thread cannot change while it does not run, so the
// values kept are exact.
func (p *procProvider) readStatus(e *procEntry, due, needCtx bool) error {
	// A kernel thread's user is root for its life (its credentials are the kernel's; a program
	// it runs makes it a process, a new command): while its context switches are not asked for
	// (issue 38 item 5: the overview shows none), neither schedstat nor status is read again.
	e.ctxStale = e.kthread && !needCtx && e.statusRead && !due
	if e.ctxStale {
		p.closeFD(e, fdSched)
		return nil
	}
	ran := true
	if !p.noSched {
		data, err := p.readKept(e, fdSched, e.sched, 256)
		switch {
		case err == nil:
			if run, err := parseSchedRun(e.dir, data); err == nil {
				ran = !e.haveRun || run != e.lastRun
				e.lastRun, e.haveRun = run, true
			}
		case p.exited(e, err):
			return err
		case gone(err):
			p.noSched = true // not a kernel with scheduler statistics
		}
	}
	if due || ran || !e.statusRead {
		data, err := p.readInto(e.status, 16<<10)
		if err != nil {
			if p.exited(e, err) {
				return err
			}
			return &os.PathError{Op: "read", Path: e.statusS, Err: err}
		}
		if err := parseProcStatus(e.statusS, data, &e.statusV); err != nil {
			return err
		}
		e.statusRead = true
	}
	return nil
}

// readCmdlineCgroup reads a process's command line when due (a new process, a program run, the
// variable data's turn), and its control group then too, or when it is asked for again after
// readings that did not ask for it (the overview shows none: issue 38 item 5).
func (p *procProvider) readCmdlineCgroup(e *procEntry, due, needCgroup bool) {
	if due {
		if data, err := p.readInto(e.cmdPath, schema.MaxCmdline+1); err == nil {
			if c := cmdlineText(data); c != e.cmdline {
				e.cmdline = c
			}
		}
	}
	if !needCgroup {
		e.cgRead = false
		return
	}
	if due || !e.cgRead {
		if data, err := p.readInto(e.cgPath, 16<<10); err == nil {
			if c := cgroupOf(data); c != e.cgroup {
				e.cgroup = c
			}
		}
		e.cgRead = true
	}
}

// exited reports whether a read failed because the process exited after its stat was read:
// the file is gone and so is the process's directory. A file missing from a process that is
// still there (a kernel without I/O accounting) is not present, not an exit.
func (p *procProvider) exited(e *procEntry, err error) bool {
	if !gone(err) {
		return false
	}
	var st unix.Stat_t
	return unix.Stat(e.dir, &st) != nil
}

// newEntry makes the entry of a process seen for the first time: the only allocations of a
// scan, apart from text that changed.
func (p *procProvider) newEntry(pid, start uint64) *procEntry {
	name := strconv.FormatUint(pid, 10)
	d := filepath.Join(p.roots.proc, name)
	return &procEntry{pid: pid, start: start, levels: []uint64{pid, start}, name: name, desc: "Process " + name, dir: d,
		stat: p.newStat, status: makePathZ(d + "/status"), io: makePathZ(d + "/io"), cmdPath: makePathZ(d + "/cmdline"), cgPath: makePathZ(d + "/cgroup"),
		statS: d + "/stat", statusS: d + "/status", ioS: d + "/io", fds: noFDs,
		statm: makePathZ(d + "/statm"), sched: makePathZ(d + "/schedstat")}
}

// fill writes one process's raw values.
func (p *procProvider) fill(row []ns.Raw, e *procEntry, btime uint64) {
	st := &e.statBuf
	row[schema.ProcStateID-1] = ns.RawS(stateText(st.state))
	row[schema.ProcPPIDID-1] = ns.RawN(st.ppid)
	row[schema.ProcThreadsID-1] = ns.RawN(st.threads)
	row[schema.ProcPriorityID-1] = ns.RawN(uint64(st.priority))
	row[schema.ProcNiceID-1] = ns.RawN(uint64(st.nice))
	row[schema.ProcStartID-1] = ns.RawNA(ns.ReasonNotPresent)
	if btime > 0 {
		row[schema.ProcStartID-1] = ns.RawN(btime + st.start/schema.UserHZ)
	}
	row[schema.ProcUtimeID-1] = ns.RawN(st.utime * msPerTick)
	row[schema.ProcStimeID-1] = ns.RawN(st.stime * msPerTick)
	row[schema.ProcRSSID-1], row[schema.ProcVSizeID-1] = ns.RawNA(ns.ReasonNotPresent), ns.RawNA(ns.ReasonNotPresent)
	// Resident memory is status's VmRSS, the exact count statm and top's RES give: stat's field
	// 24 is an approximate per-CPU counter on recent kernels, up to 10% low (issue 29 item 7). A
	// kernel thread has no memory of its own and no VmRSS line: 0, as top shows it.
	switch {
	case e.statmOK:
		row[schema.ProcRSSID-1] = ns.RawN(e.rssPages * p.pageSize)
	case e.statusV.haveRSS:
		row[schema.ProcRSSID-1] = ns.RawN(e.statusV.rssBytes)
	case e.kthread:
		row[schema.ProcRSSID-1] = ns.RawN(0)
	}
	if st.haveVsize {
		row[schema.ProcVSizeID-1] = ns.RawN(st.vsize)
	}
	row[schema.ProcMinfltID-1], row[schema.ProcMajfltID-1] = ns.RawN(st.minflt), ns.RawN(st.majflt)
	sv := &e.statusV
	row[schema.ProcUserID-1], row[schema.ProcUIDID-1] = ns.RawNA(ns.ReasonNotPresent), ns.RawNA(ns.ReasonNotPresent)
	if sv.haveUID {
		row[schema.ProcUIDID-1] = ns.RawN(sv.uid)
		row[schema.ProcUserID-1] = ns.RawS(p.users.name(sv.uid))
	}
	row[schema.ProcVCtxID-1], row[schema.ProcNVCtxID-1] = ns.RawNA(ns.ReasonNotPresent), ns.RawNA(ns.ReasonNotPresent)
	switch {
	case e.ctxStale:
		row[schema.ProcVCtxID-1], row[schema.ProcNVCtxID-1] = ns.RawNA(ns.ReasonNotSampled), ns.RawNA(ns.ReasonNotSampled)
	case sv.haveCtx:
		row[schema.ProcVCtxID-1], row[schema.ProcNVCtxID-1] = ns.RawN(sv.vctx), ns.RawN(sv.nvctx)
	}
	io := &e.ioV
	for i, v := range [...]uint64{io.rchar, io.wchar, io.syscr, io.syscw, io.readBytes, io.writeBytes} {
		switch {
		case e.ioSkipped:
			row[schema.ProcRcharID-1+i] = ns.RawNA(ns.ReasonNotSampled)
		case e.ioFailed:
			row[schema.ProcRcharID-1+i] = e.ioErr
		case io.have&(1<<i) == 0:
			row[schema.ProcRcharID-1+i] = ns.RawNA(ns.ReasonNotPresent)
		default:
			row[schema.ProcRcharID-1+i] = ns.RawN(v)
		}
	}
	row[schema.ProcCommandID-1] = ns.RawS(e.comm)
	row[schema.ProcCmdlineID-1] = ns.RawS(e.cmdline)
	row[schema.ProcCgroupID-1] = ns.RawS(e.cgroup)
	switch {
	case !e.cgRead:
		row[schema.ProcCgroupID-1] = ns.RawNA(ns.ReasonNotSampled)
	case e.cgroup == "":
		row[schema.ProcCgroupID-1] = ns.RawNA(ns.ReasonNotPresent)
	}
	row[schema.ProcCPUID-1], row[schema.ProcIOBytesID-1] = ns.Raw{}, ns.Raw{}
}

// procNeed says which of a process's files read for some datums only are asked for.
type procNeed struct {
	io, cgroup, ctx bool
}

// needIO reports whether the request asks for a datum read from /proc/PID/io: the six
// counters and io_bytes, their sum.
func (p *procProvider) needIO(req collect.Request) bool {
	for id := schema.ProcRcharID; id <= schema.ProcWriteBytesID; id++ {
		if req.WantsDatum(p.cls, id-1) {
			return true
		}
	}
	return req.WantsDatum(p.cls, schema.ProcIOBytesID-1)
}

// stateText is a process state letter as a string, without allocating.
func stateText(c byte) string {
	const letters = "RSDZTtXxKWPI"
	if i := bytes.IndexByte([]byte(letters), c); i >= 0 {
		return letters[i : i+1]
	}
	return "?"
}
