package linux

// File systems (df): the mounts of /proc/self/mountinfo, each asked for its sizes with statfs(2)
// in its own goroutine under a deadline, so that a hung network file system fails its own
// instance and never stalls the sampler.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"dcimon/collect"
	"dcimon/collect/schema"
	"dcimon/internal/regular"
	ns "dcimon/namespace"
)

// mount is one line of /proc/self/mountinfo.
type mount struct {
	id                 uint64 // mount ID: the instance value
	devMajor, devMinor uint64
	root               string // the part of the file system mounted here ("/" for all of it)
	point              string // the mount point, unescaped
	options            string // per-mount options ("rw,relatime")
	fstype, source     string
}

// parseMountinfo parses /proc/self/mountinfo (read from src). The mount point, root and source
// are unescaped (\040 is a space, as the kernel writes it).
//
//	36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
func parseMountinfo(src string, data []byte) ([]mount, error) {
	var out []mount
	for n := 1; len(data) > 0; n++ {
		var line []byte
		line, data = cutLine(data)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var fa [16][]byte
		f := fieldsOf(line, fa[:0])
		sep := -1
		for i := 6; i < len(f); i++ {
			if string(f[i]) == "-" {
				sep = i
				break
			}
		}
		if len(f) < 10 || sep < 0 || sep+2 >= len(f) {
			return nil, fmt.Errorf("fs: parse %s line %d: %w: want id parent major:minor root point options ... - type source (line %q)", src, n, errTooFewFields, line)
		}
		var m mount
		var err error
		if m.id, err = parseUint(f[0]); err != nil {
			return nil, fmt.Errorf("fs: parse %s line %d: mount id: %w (line %q)", src, n, err, line)
		}
		maj, min, err := parseDevNum(f[2])
		if err != nil {
			return nil, fmt.Errorf("fs: parse %s line %d: device: %w (line %q)", src, n, err, line)
		}
		m.devMajor, m.devMinor = uint64(maj), uint64(min)
		m.root, m.point, m.options = unescapeOctal(f[3]), unescapeOctal(f[4]), string(f[5])
		m.fstype, m.source = string(f[sep+1]), unescapeOctal(f[sep+2])
		if m.point == "" || m.point[0] != '/' {
			return nil, fmt.Errorf("fs: parse %s line %d: mount point %q is not absolute (line %q)", src, n, m.point, line)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("fs: parse %s: %w", src, errNoData)
	}
	return out, nil
}

// unescapeOctal undoes the kernel's \ooo escapes of mountinfo (space, tab, newline, backslash).
func unescapeOctal(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+3 < len(b) && b[i+1] >= '0' && b[i+1] <= '3' && isOctal(b[i+2]) && isOctal(b[i+3]) {
			out = append(out, (b[i+1]-'0')<<6|(b[i+2]-'0')<<3|(b[i+3]-'0'))
			i += 3
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// pseudoFS are the file systems df leaves out: kernel interfaces, not storage.
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "securityfs": true, "pstore": true,
	"bpf": true, "tracefs": true, "debugfs": true, "configfs": true, "fusectl": true, "mqueue": true, "hugetlbfs": true,
	"autofs": true, "binfmt_misc": true, "rpc_pipefs": true, "nsfs": true, "efivarfs": true, "selinuxfs": true,
	"devtmpfs": true, "ramfs": true, "overlay_internal": true,
	// Read-only images (snap packages) are always full: they would head every "fullest" list.
	"squashfs": true,
}

// shown picks the mounts a person means by "file systems", as df does: no pseudo file systems and
// each device's file system once (a bind mount or a second mount of it is left out), unless all.
//
// A mount point mounted over again shows only its last mount, the one a path there reaches.
func shown(ms []mount, all bool) []mount {
	last := map[string]int{}
	for i, m := range ms {
		last[m.point] = i
	}
	type dev struct{ maj, min uint64 }
	seen := map[dev]bool{}
	var out []mount
	for i, m := range ms {
		if last[m.point] != i {
			continue // mounted over
		}
		d := dev{m.devMajor, m.devMinor}
		if !all && (pseudoFS[m.fstype] || seen[d]) {
			continue
		}
		seen[d] = true
		out = append(out, m)
	}
	return out
}

// fsStatDeadline bounds one statfs: a file system that does not answer by then is n/a (timed
// out) for this collection and is not asked again until its call returns.
const fsStatDeadline = 500 * time.Millisecond

// statfsFunc asks a file system for its sizes (unix.Statfs on the live host).
type statfsFunc func(path string) (unix.Statfs_t, error)

// fsProvider reads the mounts and statfs's each.
type fsProvider struct {
	base
	top, fsc *ns.Class
	statfs   statfsFunc
	showAll  bool
	specs    []ns.InstanceSpec
	pending  map[uint64]*fsCall // statfs calls still running, by mount id
	table    mountTable
	shownGen uint64  // the table generation ms and specs were derived from (0: none)
	shownMs  []mount // the mounts shown, and their specs in p.specs
}

// mountTable is the live host's mount table, kept open: the kernel marks it (POLLPRI) when a
// mount comes or goes, so it is read again then, and at least every mountsEvery (the mark was
// seen to miss a mount now and then), not at every collection.
type mountTable struct {
	f    *os.File
	buf  []byte
	ms   []mount
	read time.Time
	gen  uint64 // counts the reads that changed ms, so what is derived from it can be kept
}

// mountsEvery bounds how long a mount can take to appear when the kernel's mark misses it.
const mountsEvery = 5 * time.Second

// mounts returns the mount table, read again when the kernel says it changed (or always, for a
// tree, whose file has no such signal).
func (t *mountTable) mounts(path string, live bool, fr *fileReader, now time.Time) ([]mount, error) {
	if !live {
		data, err := fr.read(path)
		if err != nil {
			return nil, err
		}
		t.gen++
		return parseMountinfo(path, data)
	}
	if t.f != nil {
		pfd := []unix.PollFd{{Fd: int32(t.f.Fd()), Events: unix.POLLPRI}}
		if n, err := unix.Poll(pfd, 0); err == nil && n == 0 && now.Sub(t.read) < mountsEvery {
			return t.ms, nil // unchanged
		}
	} else {
		f, err := regular.Open(path)
		if err != nil {
			return nil, err
		}
		t.f = f
		// The first poll after opening reports nothing new: the file as read now is current.
		_, _ = unix.Poll([]unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLPRI}}, 0)
	}
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	for {
		n, err := t.f.ReadAt(t.buf, 0)
		if err != nil && err != io.EOF {
			t.f.Close()
			t.f = nil
			return nil, err
		}
		if n < len(t.buf) {
			ms, err := parseMountinfo(path, t.buf[:n])
			if err != nil {
				return nil, err
			}
			if !slices.Equal(ms, t.ms) {
				t.gen++
			}
			t.ms, t.read = ms, now
			return ms, nil
		}
		if len(t.buf) >= maxFileSize {
			return nil, fmt.Errorf("read %s: larger than %d bytes", path, maxFileSize)
		}
		t.buf = make([]byte, 2*len(t.buf))
	}
}

// fsCall is one statfs in its own goroutine.
type fsCall struct {
	done chan struct{}
	st   unix.Statfs_t
	err  error
}

var errNotLive = errors.New("a tree has no file systems to ask: sizes come from the live host only")

// newFSProvider reads the mounted file systems; showAll shows pseudo, squashfs and duplicate
// ones too (--show-loop).
func newFSProvider(r roots, boot *bootClock, showAll bool) *fsProvider {
	p := &fsProvider{base: base{roots: r, now: time.Now, boot: boot}, pending: map[uint64]*fsCall{}, showAll: showAll}
	p.collectLocked = p.collect
	p.statfs = func(path string) (unix.Statfs_t, error) {
		var st unix.Statfs_t
		err := unix.Statfs(path, &st)
		return st, err
	}
	if !r.live() {
		p.statfs = func(string) (unix.Statfs_t, error) { return unix.Statfs_t{}, errNotLive }
	}
	p.top, p.fsc = schema.FSClasses()
	p.declare(schema.HandleFS, schema.FSModule, schema.FSTitle, "Mounted file systems: sizes and inodes (df), from mountinfo and statfs",
		ns.SPTGeneralSupplier, p.top, p.fsc)
	return p
}

// show makes the mounts shown, and their instances, those of the table all when it has changed
// since they were made.
func (p *fsProvider) show(all []mount) {
	if p.table.gen == p.shownGen && p.shownGen != 0 {
		return
	}
	p.shownMs, p.shownGen = shown(all, p.showAll), p.table.gen
	p.specs = make([]ns.InstanceSpec, 0, len(p.shownMs)) // a new slice: a batch may still hold the old
	for _, m := range p.shownMs {
		p.specs = append(p.specs, ns.InstanceSpec{Levels: []uint64{m.id}, OSName: schema.FSName(m.point),
			Desc: fsDesc(m.point)})
	}
}

// startStatfs starts a statfs of each mount of ms on a goroutine of its own, unless one started
// before is still running, and puts the calls in calls, in the order of ms.
func (p *fsProvider) startStatfs(ms []mount, calls []*fsCall) {
	for i, m := range ms {
		c := p.pending[m.id]
		if c == nil {
			c = &fsCall{done: make(chan struct{})}
			p.pending[m.id] = c
			go func(point string) {
				c.st, c.err = p.statfs(point)
				close(c.done)
			}(m.point)
		}
		calls[i] = c
	}
}

// forgetAnswered forgets the calls that have returned, those of mounts no longer shown included.
func (p *fsProvider) forgetAnswered() {
	for id, c := range p.pending {
		select {
		case <-c.done:
			delete(p.pending, id)
		default:
		}
	}
}

// collect reads the mount table and asks every file system shown for its sizes, all at once,
// each under the deadline.
func (p *fsProvider) collect(ctx context.Context, req collect.Request) (collect.Batch, error) {
	if !req.Wants(p.fsc) {
		return p.batch(p.now()), nil
	}
	path := filepath.Join(rootsFrom(ctx).proc, "self", "mountinfo")
	all, err := p.table.mounts(path, p.roots.live(), &p.fr, p.now())
	if errors.Is(err, fs.ErrNotExist) {
		// A tree without a mount table has no file systems, which is not an error.
		b := p.batch(p.now())
		b.Classes = []collect.ClassReading{{Class: p.fsc}}
		return b, nil
	}
	if err != nil {
		return collect.Batch{}, fmt.Errorf("fs: %w", err)
	}
	p.show(all)
	ms := p.shownMs
	// Start every statfs, then wait for each within the one deadline.
	calls := make([]*fsCall, len(ms))
	p.startStatfs(ms, calls)
	timer := time.NewTimer(fsStatDeadline)
	defer timer.Stop()
	expired := false
	nd := len(p.fsc.Datums)
	raw := make([]ns.Raw, len(ms)*nd)
	rowErr := make([]error, len(ms)) // a row's statfs error, nil when it answered
	failed := false
	for i, m := range ms {
		row := raw[i*nd : (i+1)*nd]
		c := calls[i]
		answered := false
		if !expired {
			select {
			case <-c.done:
				answered = true
			case <-timer.C:
				expired = true
			case <-ctx.Done():
				return collect.Batch{}, ctx.Err()
			}
		}
		if expired && !answered {
			select {
			case <-c.done:
				answered = true
			default:
			}
		}
		switch {
		case !answered:
			// Still running: this mount is n/a (timed out); the call is left to finish and
			// not started again meanwhile.
			for k := schema.FSSizeID; k <= schema.FSIFreeID; k++ {
				row[k-1] = ns.Raw{State: ns.RawUnavailable, Reason: ns.ReasonTimeout}
			}
			rowErr[i], failed = fmt.Errorf("fs: statfs %s: no answer within %v", m.point, fsStatDeadline), true
		default:
			delete(p.pending, m.id)
			fillStatfs(row, c.st, c.err)
			if c.err != nil && !errors.Is(c.err, errNotLive) {
				rowErr[i], failed = fmt.Errorf("fs: statfs %s: %w", m.point, c.err), true
			}
		}
		row[schema.FSROID-1] = ns.RawN(b2u(hasOption(m.options, "ro")))
		row[schema.FSDeviceID-1], row[schema.FSTypeID-1], row[schema.FSOptionsID-1] = ns.RawS(m.source), ns.RawS(m.fstype), ns.RawS(m.options)
	}
	p.forgetAnswered()
	specs := p.specs
	if failed {
		specs, raw = p.dropUnmounted(path, ms, rowErr, specs, raw, nd)
	}
	var errs []error
	for _, err := range rowErr {
		if err != nil {
			errs = append(errs, err)
		}
	}
	b := p.batch(p.now())
	b.Classes = []collect.ClassReading{{Class: p.fsc, Specs: specs, Raw: raw, Err: errors.Join(errs...)}}
	return b, nil
}

// dropUnmounted leaves out the rows whose statfs failed because the file system was unmounted
// while it was being read: the mount table, read again, no longer has them. They are removed
// instances at this collection (an event), not errors; a failure of a mount still mounted stays
// an error. The rows' errors are cleared in rowErr.
func (p *fsProvider) dropUnmounted(path string, ms []mount, rowErr []error, specs []ns.InstanceSpec, raw []ns.Raw, nd int) ([]ns.InstanceSpec, []ns.Raw) {
	p.table.read = time.Time{} // read the table again, whatever the kernel's mark says
	cur, err := p.table.mounts(path, p.roots.live(), &p.fr, p.now())
	if err != nil {
		return specs, raw
	}
	mounted := make(map[uint64]bool, len(cur))
	for _, m := range cur {
		mounted[m.id] = true
	}
	var keptSpecs []ns.InstanceSpec
	var keptRaw []ns.Raw
	for i, m := range ms {
		if rowErr[i] != nil && !mounted[m.id] {
			rowErr[i] = nil
			continue
		}
		keptSpecs = append(keptSpecs, specs[i])
		keptRaw = append(keptRaw, raw[i*nd:(i+1)*nd]...)
	}
	return keptSpecs, keptRaw
}

// fillStatfs fills the sizes from a statfs answer: bytes from blocks of f_frsize (f_bsize where a
// kernel leaves f_frsize 0); on an error the sizes are n/a with the reason.
func fillStatfs(row []ns.Raw, st unix.Statfs_t, err error) {
	if err != nil {
		r := missing(err)
		if errors.Is(err, errNotLive) {
			r = ns.RawNA(ns.ReasonNotSupported)
		}
		for k := schema.FSSizeID; k <= schema.FSIFreeID; k++ {
			row[k-1] = r
		}
		return
	}
	bs := uint64(st.Frsize)
	if bs == 0 {
		bs = uint64(st.Bsize)
	}
	row[schema.FSSizeID-1] = ns.RawN(st.Blocks * bs)
	row[schema.FSUsedID-1] = ns.RawN((st.Blocks - min(st.Bfree, st.Blocks)) * bs)
	row[schema.FSAvailID-1] = ns.RawN(st.Bavail * bs)
	row[schema.FSInodesID-1] = ns.RawN(st.Files)
	row[schema.FSIUsedID-1] = ns.RawN(st.Files - min(st.Ffree, st.Files))
	row[schema.FSIFreeID-1] = ns.RawN(st.Ffree)
	if st.Files == 0 { // no inode accounting (btrfs, vfat): not 0, not applicable
		row[schema.FSInodesID-1], row[schema.FSIUsedID-1], row[schema.FSIFreeID-1] = ns.RawNA(ns.ReasonNotSupported), ns.RawNA(ns.ReasonNotSupported), ns.RawNA(ns.ReasonNotSupported)
	}
}

// hasOption reports whether a comma-separated option list holds opt.
func hasOption(list, opt string) bool {
	for list != "" {
		var o string
		o, list, _ = strings.Cut(list, ",")
		if o == opt {
			return true
		}
	}
	return false
}

// fsDesc is a mount's description: its point escaped as paths are (issue 41 item 10), so a mount
// at a literal `p\x0aq` and one at `p<newline>q` read differently.
func fsDesc(point string) string { return "File system mounted on " + ns.EscapeName(point) }
