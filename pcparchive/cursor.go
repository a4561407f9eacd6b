package pcparchive

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"time"
)

// Cursor reads an archive's pmResult records in order, one at a time, from a place found with
// the temporal index: its memory does not grow with the archive's length, and each record's
// buffer is sized by the record's own length once checked (maxRecord, the bytes the volume has).
// At a damaged record it stops: that Next and every one after it return the same *DamageError.
type Cursor struct {
	a   *Archive
	vi  int // index in a.Volumes of the open volume
	f   *os.File
	fr  *frames
	buf []byte // the frames' buffer, kept from volume to volume
	err error  // the damage the cursor stopped at
}

// Cursor returns a cursor at the first record at or after t (the archive's start when t is
// zero), found through the temporal index: from the last index entry at or before t, the
// records before t are skipped.
func (a *Archive) Cursor(t time.Time) (*Cursor, error) {
	c := &Cursor{a: a}
	i := -1
	if !t.IsZero() {
		i = sort.Search(len(a.Index), func(i int) bool { return a.Index[i].Time.After(t) }) - 1
	}
	if err := c.start(i); err != nil {
		return nil, err
	}
	if t.IsZero() {
		return c, nil
	}
	for { // skip the records before t
		vi, save := c.vi, c.fr.off
		r, err := c.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return c, nil
			}
			c.Close()
			return nil, err
		}
		if !r.Time.Before(t) {
			// Go back to it: reopen at its offset (the volume may have changed).
			c.vi = vi
			return c, c.open(save, -1)
		}
	}
}

// CursorFrom returns a cursor at the records the temporal index's entry i points to (the
// archive's start when i < 0), with nothing skipped.
func (a *Archive) CursorFrom(i int) (*Cursor, error) {
	c := &Cursor{a: a}
	if i >= len(a.Index) {
		i = -1
	}
	return c, c.start(i)
}

// start opens the cursor at index entry i (the archive's start when i < 0), or at the start of
// the first volume there is when the entry's was removed (a recording's retention removes its
// oldest volumes; the index still names them).
func (c *Cursor) start(i int) error {
	vol, off := c.a.Volumes[0], int64(-1)
	if i >= 0 {
		vol, off = int(c.a.Index[i].Vol), c.a.Index[i].VolumOff
	}
	c.vi = sort.SearchInts(c.a.Volumes, vol)
	switch {
	case c.vi < len(c.a.Volumes) && c.a.Volumes[c.vi] == vol:
	case vol < c.a.Volumes[0]:
		c.vi, off = 0, -1
	default:
		return &DamageError{File: c.a.Base + ".index", Offset: c.a.entryOffset(i),
			What: fmt.Sprintf("an index entry names volume %d, which is not there", vol)}
	}
	return c.open(off, i)
}

// entryOffset is the byte offset of index entry i in the index file.
func (a *Archive) entryOffset(i int) int64 {
	size := int64(20)
	if a.Label.Version == 3 {
		size = 32
	}
	return labelSize(a.Label.Version) + int64(i)*size
}

// open opens volume a.Volumes[c.vi] at byte off (after its label when off < 0), an offset read
// from index entry entry (-1: none).
func (c *Cursor) open(off int64, entry int) error {
	if c.f != nil {
		c.f.Close()
		c.f = nil
	}
	if c.fr != nil {
		c.buf = c.fr.buf
	}
	vol := c.a.Volumes[c.vi]
	name := c.a.Base + "." + strconv.Itoa(vol)
	f, size, err := openRegular(name)
	if err != nil {
		return fmt.Errorf("archive %s: %w", c.a.Base, err)
	}
	c.f = f
	if off < 0 {
		c.fr = newFrames(name, f, size, 0)
		l, err := readLabel(c.fr)
		if err != nil {
			return err
		}
		switch {
		case l.Version != c.a.Label.Version:
			return c.fr.damage(0, "the label is of Version %d, the metadata's of Version %d", l.Version, c.a.Label.Version)
		case int(l.Vol) != vol:
			return c.fr.damage(0, "the label says volume %d, in the file of volume %d", l.Vol, vol)
		}
	} else {
		if off < labelSize(c.a.Label.Version) || off > size {
			return &DamageError{File: c.a.Base + ".index", Offset: c.a.entryOffset(entry),
				What: fmt.Sprintf("an index entry points to offset %d of volume %d, which has %d bytes", off, vol, size)}
		}
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		c.fr = newFrames(name, f, size, off)
	}
	c.fr.f, c.fr.one, c.fr.buf = f, "a data record", c.buf
	return nil
}

// Next reads the next record, going on to the next volume at the end of one; io.EOF after the
// last. A damaged record (cut short by a writer killed or out of room, or broken) is a
// *DamageError naming the volume, the record's offset and what is wrong; the cursor stays
// there, and gives the same error again.
func (c *Cursor) Next() (Result, error) {
	if c.err != nil {
		return Result{}, c.err
	}
	for {
		res, err := c.fr.result(c.a.Label.Version)
		if errors.Is(err, io.EOF) {
			if c.vi+1 >= len(c.a.Volumes) {
				return Result{}, io.EOF
			}
			c.vi++
			if err := c.open(-1, -1); err != nil {
				c.err = err
				return Result{}, err
			}
			continue
		}
		if err != nil {
			c.err = err
			return Result{}, err
		}
		return res, nil
	}
}

// Close closes the open volume.
func (c *Cursor) Close() error {
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}
