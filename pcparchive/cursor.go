package pcparchive

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"time"

	"dcimon/internal/regular"
)

// maxRecord bounds one record a cursor reads: a pmResult of a large host is tens of kilobytes,
// and a length past this is a damaged file, not a reason to allocate.
const maxRecord = 64 << 20

// Cursor reads an archive's pmResult records in order, one at a time, from a place found with
// the temporal index: its memory does not grow with the archive's length.
type Cursor struct {
	a   *Archive
	vi  int // index in a.Volumes of the open volume
	f   *os.File
	r   *bufio.Reader
	off int64 // the byte offset of the next record in the open volume
	buf []byte
}

// Cursor returns a cursor at the first record at or after t (the archive's start when t is
// zero), found through the temporal index: from the last index entry at or before t, the
// records before t are skipped.
func (a *Archive) Cursor(t time.Time) (*Cursor, error) {
	c := &Cursor{a: a}
	vol, off := a.Volumes[0], int64(-1)
	if !t.IsZero() {
		i := sort.Search(len(a.Index), func(i int) bool { return a.Index[i].Time.After(t) }) - 1
		if i >= 0 {
			vol, off = int(a.Index[i].Vol), a.Index[i].VolumOff
		}
	}
	off, err := c.at(vol, off)
	if err != nil {
		return nil, err
	}
	if err := c.open(off); err != nil {
		return nil, err
	}
	if t.IsZero() {
		return c, nil
	}
	for { // skip the records before t
		save := c.off
		r, err := c.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return c, nil
			}
			return nil, err
		}
		if !r.Time.Before(t) {
			// Go back to it: reopen at its offset (the volume may have changed).
			return c, c.open(save)
		}
	}
}

// CursorFrom returns a cursor at the records the temporal index's entry i points to (the
// archive's start when i < 0), with nothing skipped.
func (a *Archive) CursorFrom(i int) (*Cursor, error) {
	c := &Cursor{a: a}
	vol, off := a.Volumes[0], int64(-1)
	if i >= 0 && i < len(a.Index) {
		vol, off = int(a.Index[i].Vol), a.Index[i].VolumOff
	}
	off, err := c.at(vol, off)
	if err != nil {
		return nil, err
	}
	return c, c.open(off)
}

// at places the cursor at volume vol, or at the start of the first volume there is when vol
// was removed (a recording's retention removes its oldest volumes; the index still names them).
// It returns the offset to open the volume at.
func (c *Cursor) at(vol int, off int64) (int64, error) {
	c.vi = sort.SearchInts(c.a.Volumes, vol)
	switch {
	case c.vi < len(c.a.Volumes) && c.a.Volumes[c.vi] == vol:
		return off, nil
	case vol < c.a.Volumes[0]:
		c.vi = 0
		return -1, nil
	}
	return 0, fmt.Errorf("archive %s: the index names volume %d, which is not there", c.a.Base, vol)
}

// open opens volume a.Volumes[c.vi] at byte off (after its label when off < 0).
func (c *Cursor) open(off int64) error {
	if c.f != nil {
		c.f.Close()
	}
	name := c.a.Base + "." + strconv.Itoa(c.a.Volumes[c.vi])
	f, err := regular.Open(name)
	if err != nil {
		return fmt.Errorf("archive %s: %w", c.a.Base, err)
	}
	c.f, c.r = f, bufio.NewReaderSize(f, 64<<10)
	if off < 0 {
		head := make([]byte, 808)
		n, _ := io.ReadFull(c.r, head)
		l, size, err := parseLabel(head[:n])
		if err != nil {
			return fmt.Errorf("archive %s: volume %d: %w", c.a.Base, c.a.Volumes[c.vi], err)
		}
		if l.Version != c.a.Label.Version {
			return fmt.Errorf("archive %s: volume %d is Version %d", c.a.Base, c.a.Volumes[c.vi], l.Version)
		}
		off = int64(size)
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return err
	}
	c.r.Reset(f)
	c.off = off
	return nil
}

// Next reads the next record, going on to the next volume at the end of one; io.EOF after the
// last. A record cut short (the writer killed, a full disk) is an error.
func (c *Cursor) Next() (Result, error) {
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
			if err == io.EOF {
				if c.vi+1 >= len(c.a.Volumes) {
					return Result{}, io.EOF
				}
				c.vi++
				if err := c.open(-1); err != nil {
					return Result{}, err
				}
				continue
			}
			return Result{}, fmt.Errorf("archive %s: volume %d: %w at byte %d", c.a.Base, c.a.Volumes[c.vi], errf("a record cut short"), c.off)
		}
		n := int(be.Uint32(hdr[:]))
		if n < 8 || n > maxRecord {
			return Result{}, fmt.Errorf("archive %s: volume %d: %w", c.a.Base, c.a.Volumes[c.vi], errf("a record of %d bytes at byte %d", n, c.off))
		}
		if cap(c.buf) < n {
			c.buf = make([]byte, n)
		}
		b := c.buf[:n]
		copy(b, hdr[:])
		if _, err := io.ReadFull(c.r, b[4:]); err != nil {
			return Result{}, fmt.Errorf("archive %s: volume %d: %w", c.a.Base, c.a.Volumes[c.vi], errf("a record cut short at byte %d", c.off))
		}
		p, _, err := record(b, 0)
		if err != nil {
			return Result{}, fmt.Errorf("archive %s: volume %d: byte %d: %w", c.a.Base, c.a.Volumes[c.vi], c.off, err)
		}
		res, err := parseResult(p, c.a.Label.Version)
		if err != nil {
			return Result{}, fmt.Errorf("archive %s: volume %d: the record at byte %d: %w", c.a.Base, c.a.Volumes[c.vi], c.off, err)
		}
		c.off += int64(n)
		// The values are in the cursor's buffer: copy the blocks the result keeps.
		for i := range res.Sets {
			for j := range res.Sets[i].Values {
				if v := &res.Sets[i].Values[j]; v.Block != nil {
					v.Block = append([]byte(nil), v.Block...)
				}
			}
		}
		return res, nil
	}
}

// Close closes the open volume.
func (c *Cursor) Close() error {
	if c.f == nil {
		return nil
	}
	return c.f.Close()
}
