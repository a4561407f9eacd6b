package pcparchive

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Cursor reads an archive's pmResult records in order, one at a time, from a place found with
// the temporal index: its memory does not grow with the archive's length, and each record's
// buffer is sized by the record's own length once checked (maxRecord, the bytes the volume has).
// At a damaged record it stops: that Next and every one after it return the same *DamageError.
//
// The index is a hint (issue 39 item 4): an entry that names a volume that is not there, points
// past its volume's end or inside a record, or past the records of the entry after it, is
// passed over with a warning (Archive.Notes), and the cursor starts from the entry before it,
// or from the start.
type Cursor struct {
	a    *Archive
	vi   int // index in a.vols of the open volume
	f    *file
	fr   *frames
	buf  []byte  // the frames' buffer, kept from volume to volume
	err  error   // the damage the cursor stopped at
	held *Result // a record read ahead, given by the next Next
	last time.Time
	// skip says the cursor has just gone on to the next archive of a folder: its records not
	// after the last one given (an overlap) are passed over; skipped counts them.
	skip    bool
	skipped int
}

// errBadHint is an index entry a cursor cannot start from.
type errBadHint struct{ why string }

func (e *errBadHint) Error() string { return e.why }

// Cursor returns a cursor at the first record at or after t (the archive's start when t is
// zero), found through the temporal index: from the last index entry at or before t, the
// records before t are skipped.
func (a *Archive) Cursor(t time.Time) (*Cursor, error) {
	i := -1
	if !t.IsZero() {
		i = sort.Search(len(a.Index), func(i int) bool { return a.Index[i].Time.After(t) }) - 1
	}
	c, err := a.cursorFrom(i)
	if err != nil || t.IsZero() {
		return c, err
	}
	for { // skip the records before t
		r, err := c.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return c, nil
			}
			c.Close()
			return nil, err
		}
		if !r.Time.Before(t) {
			c.held = &r // given again by the next Next
			return c, nil
		}
	}
}

// CursorFrom returns a cursor at the records the temporal index's entry i points to (the
// archive's start when i < 0), with nothing skipped.
func (a *Archive) CursorFrom(i int) (*Cursor, error) {
	if i >= len(a.Index) {
		i = -1
	}
	return a.cursorFrom(i)
}

// cursorFrom starts a cursor at index entry i, or at an entry before it when i's cannot be
// right (found out once, said once), or at the start.
func (a *Archive) cursorFrom(i int) (*Cursor, error) {
	for ; ; i-- {
		if i >= 0 && a.isBadEntry(i) {
			continue
		}
		c := &Cursor{a: a}
		err := c.start(i)
		if err == nil && i >= 0 {
			err = c.probe(i)
		}
		var bad *errBadHint
		if errors.As(err, &bad) && i >= 0 {
			c.Close()
			e := a.Index[i]
			a.markBadEntry(i)
			a.warnf("%s: offset %d: an index entry passed over: %s (the index is a hint; reading goes on from the entry before it)",
				filepath.Base(a.Parts[e.part].Base)+".index", e.off, bad.why)
			continue
		}
		if err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
}

// isBadEntry says index entry i was found not to point where a record begins.
func (a *Archive) isBadEntry(i int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.badEntries[i]
}

// markBadEntry notes that index entry i does not point where a record begins.
func (a *Archive) markBadEntry(i int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.badEntries == nil {
		a.badEntries = map[int]bool{}
	}
	a.badEntries[i] = true
}

// probe reads the record index entry i points to, kept for the next Next: a damaged one, or one
// after the next entry's time, says the entry does not point where a record begins.
func (c *Cursor) probe(i int) error {
	r, err := c.Next()
	var d *DamageError
	switch {
	case errors.As(err, &d):
		return &errBadHint{fmt.Sprintf("it points to offset %d of volume %d, where no record begins (%s)", c.a.Index[i].VolumOff, c.a.Index[i].Vol, d.What)}
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return err
	case i+1 < len(c.a.Index) && c.a.Index[i+1].part == c.a.Index[i].part && r.Time.After(c.a.Index[i+1].Time):
		return &errBadHint{fmt.Sprintf("it points to a record at %s, after the next entry's time %s", r.Time.UTC().Format(time.RFC3339Nano), c.a.Index[i+1].Time.UTC().Format(time.RFC3339Nano))}
	}
	c.held = &r
	return nil
}

// start opens the cursor at index entry i (the archive's start when i < 0), or at the start of
// the first volume of its archive there is when the entry's was removed (a recording's
// retention removes its oldest volumes; the index still names them).
func (c *Cursor) start(i int) error {
	c.vi = 0
	if i < 0 {
		return c.open(-1)
	}
	e := c.a.Index[i]
	first := -1
	for vi, v := range c.a.vols {
		if v.part != e.part {
			continue
		}
		if first < 0 {
			first = vi
		}
		if v.num == int(e.Vol) {
			c.vi = vi
			return c.open(e.VolumOff)
		}
	}
	if first >= 0 && int(e.Vol) < c.a.vols[first].num {
		c.vi = first
		return c.open(-1)
	}
	return &errBadHint{fmt.Sprintf("it names volume %d, which is not there", e.Vol)}
}

// version is the archive version of the volume the cursor is in.
func (c *Cursor) version() int { return c.a.Parts[c.a.vols[c.vi].part].Label.Version }

// open opens volume a.vols[c.vi] at byte off (after its label when off < 0), an offset read
// from the index.
func (c *Cursor) open(off int64) error {
	c.release()
	v := c.a.vols[c.vi]
	f, err := c.a.take(v.path)
	if err != nil {
		return fmt.Errorf("archive %s: %w", c.a.Base, err)
	}
	c.f = f
	version := c.version()
	if off < 0 {
		if err := f.seek(0); err != nil {
			return err
		}
		c.fr = newFrames(v.path, f, f.size, 0)
		l, err := readLabel(c.fr)
		if err != nil {
			return err
		}
		switch {
		case l.Version != version:
			return c.fr.damage(0, "the label is of Version %d, the metadata's of Version %d", l.Version, version)
		case int(l.Vol) != v.num:
			return c.fr.damage(0, "the label says volume %d, in the file of volume %d", l.Vol, v.num)
		}
	} else {
		if off < labelSize(version) || (f.size >= 0 && off > f.grown()) {
			return &errBadHint{fmt.Sprintf("it points to offset %d of volume %d, which has %d bytes", off, v.num, f.size)}
		}
		if err := f.seek(off); err != nil {
			return &errBadHint{fmt.Sprintf("it points to offset %d of volume %d: %v", off, v.num, err)}
		}
		c.fr = newFrames(v.path, f, f.size, off)
	}
	c.fr.file, c.fr.one, c.fr.buf = f, "a data record", c.buf
	return nil
}

// Next reads the next record, going on to the next volume at the end of one, and to the next
// archive of a folder at the end of one's last volume; io.EOF after the last. A damaged record
// (cut short by a writer killed or out of room, or broken) is a *DamageError naming the volume,
// the record's offset and what is wrong; the cursor stays there, and gives the same error
// again.
func (c *Cursor) Next() (Result, error) {
	if c.held != nil {
		r := *c.held
		c.held = nil
		return r, nil
	}
	if c.err != nil {
		return Result{}, c.err
	}
	for {
		res, err := c.fr.result(c.version())
		if errors.Is(err, io.EOF) {
			if c.vi+1 >= len(c.a.vols) {
				return Result{}, io.EOF
			}
			c.vi++
			if c.a.vols[c.vi].part != c.a.vols[c.vi-1].part {
				c.skip = !c.last.IsZero()
			}
			if err := c.open(-1); err != nil {
				var bad *errBadHint
				if errors.As(err, &bad) {
					err = fmt.Errorf("%s: %s", c.a.vols[c.vi].path, bad.why)
				}
				c.err = err
				return Result{}, err
			}
			continue
		}
		if err != nil {
			c.err = err
			return Result{}, err
		}
		if c.skip {
			if !res.Time.After(c.last) {
				c.skipped++
				continue
			}
			if c.skipped > 0 {
				c.a.warnf("%s: its first %d records are not after the last of the archive before it (%s): passed over, so that time only goes forward (PCP: archives overlap in time)",
					filepath.Base(c.a.Parts[c.a.vols[c.vi].part].Base), c.skipped, c.last.UTC().Format(time.RFC3339Nano))
			}
			c.skip, c.skipped = false, 0
		}
		c.last = res.Time
		return res, nil
	}
}

// release lets go of the open volume: a compressed one is kept by the archive for the next
// cursor, whose seek forward then goes on from where this one stopped.
func (c *Cursor) release() {
	if c.fr != nil {
		c.buf = c.fr.buf
	}
	if c.f != nil {
		c.a.keepIdle(c.f)
		c.f = nil
	}
}

// Close closes the open volume.
func (c *Cursor) Close() error {
	c.release()
	return nil
}

// take is the file at path: one a cursor let go of, else opened.
func (a *Archive) take(path string) (*file, error) {
	if f := a.idle.take(path); f != nil {
		return f, nil
	}
	return openFile(path)
}

// keepIdle keeps a compressed file a cursor let go of, for the next cursor; any other is closed.
func (a *Archive) keepIdle(f *file) {
	if f.z != nil {
		a.decompressed.Add(f.z.Decoded - f.counted)
		f.counted = f.z.Decoded
	}
	if f.z == nil || a.idle == nil {
		f.Close()
		return
	}
	a.idle.keep(f)
}

// Decompressed is how many bytes the cursors let go of so far decompressed in all, those a seek
// passed over included: what seeks in a compressed archive cost (a cursor's seek forward from
// where the one before it stopped decompresses only what lies between).
func (a *Archive) Decompressed() int64 { return a.decompressed.Load() }

// idlePool holds the compressed volumes cursors let go of, one a path (a decoder, its window and
// where it stopped): the next cursor in the same volume goes on from there.
type idlePool struct {
	mu    sync.Mutex
	files map[string]*file
}

func (p *idlePool) take(path string) *file {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.files[path]
	delete(p.files, path)
	return f
}

func (p *idlePool) keep(f *file) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files == nil {
		p.files = map[string]*file{}
	}
	if old := p.files[f.name]; old != nil && old != f {
		old.Close()
	}
	p.files[f.name] = f
}

// close closes every file held.
func (p *idlePool) close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for k, f := range p.files {
		errs = append(errs, f.Close())
		delete(p.files, k)
	}
	return errors.Join(errs...)
}
