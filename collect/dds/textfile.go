package dds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"dcimon/internal/regular"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// A supplier's file may be one that does not answer: on a network file system that stalls, or a
// link to a file such as /proc/kmsg. Its stat and read therefore run in a goroutine of their own,
// off the supplier's lock, and the collection waits for them at most fileWait (issue 41 item 2):
// a file that does not answer fails its own supplier, with the reason, and nothing else waits on
// it (the sampler asks every supplier for its classes under that lock). At most one read of a file
// is under way: a later collection does not start another, it says the first has not answered.

// fileWait is how long a collection waits for a supplier's file.
const fileWait = 500 * time.Millisecond

// fileRead is what one stat and read of a supplier's file found.
type fileRead struct {
	mtime   time.Time
	size    int64
	data    []byte
	err     error // of the stat (nothing read) or of the read
	statErr bool
	same    bool // unchanged since the last read: nothing read
}

// statAndRead stats path and, when it changed since (mtime, size) or have is false, reads it.
func statAndRead(read func(string, int) ([]byte, error), path string, mtime time.Time, size int64, have bool, max int) fileRead {
	fi, err := os.Stat(path)
	if err != nil {
		return fileRead{err: err, statErr: true}
	}
	r := fileRead{mtime: fi.ModTime(), size: fi.Size()}
	if have && r.mtime.Equal(mtime) && r.size == size {
		r.same = true
		return r
	}
	r.data, r.err = read(path, max)
	return r
}

// readFile stats and reads the supplier's file, waiting at most fileWait and never holding s.mu
// meanwhile; ok is false when the supplier is not to be read now (gone or refused).
func (s *ddsSupplier) readFile(ctx context.Context) (r fileRead, ok bool) {
	s.mu.Lock()
	if s.gone || s.refused != nil {
		s.mu.Unlock()
		return fileRead{}, false
	}
	ch := s.reading
	if ch == nil {
		ch = make(chan fileRead, 1) // buffered: a read given up on ends without a reader
		s.reading, s.readStart = ch, time.Now()
		path, mtime, size, have, max := s.path, s.mtime, s.size, s.doc != nil || s.err != nil, s.d.opt.Limits.MaxBytes
		read := s.d.readText
		if read == nil {
			read = readBounded
		}
		go func() { ch <- statAndRead(read, path, mtime, size, have, max) }()
	} else {
		// A read an earlier collection gave up on: taken if it has answered, else said at once.
		select {
		case r = <-ch:
			s.reading = nil
			s.mu.Unlock()
			return r, true
		default:
		}
		since := time.Since(s.readStart).Round(time.Millisecond)
		s.mu.Unlock()
		return fileRead{err: fmt.Errorf("not read after %v: the file does not answer (a stalled network file system, or a file that never ends)", since), statErr: true}, true
	}
	s.mu.Unlock()
	t := time.NewTimer(fileWait)
	defer t.Stop()
	select {
	case r = <-ch:
		s.mu.Lock()
		s.reading = nil
		s.mu.Unlock()
		return r, true
	case <-t.C:
	case <-ctx.Done():
	}
	return fileRead{err: fmt.Errorf("not read within %v: the file does not answer (a stalled network file system, or a file that never ends)", fileWait), statErr: true}, true
}

// collectFile takes what readFile found: the text parsed when the file changed; it reports
// whether it did. s.mu is held.
func (s *ddsSupplier) collectFile(r fileRead) bool {
	if r.statErr {
		s.err = fmt.Errorf("%s: %w", s.sup.Module, r.err)
		return false
	}
	if r.same {
		return false
	}
	s.mtime, s.size = r.mtime, r.size
	if r.err != nil {
		s.err = fmt.Errorf("%s: %w", s.sup.Module, r.err)
		return false
	}
	doc, err := supply.Parse(ns.EscapeName(filepath.Base(s.path)), r.data, s.d.opt.Limits)
	if err != nil {
		s.err = errors.New(ns.EscapeName(err.Error()))
		return false
	}
	s.err = nil
	s.apply(doc, s.mtime)
	return true
}

// readBounded reads a regular file, opened without blocking, and at most max bytes of it. A file
// that has nothing to give now (EAGAIN: /proc/kmsg and its kind) is an error at once.
func readBounded(path string, max int) ([]byte, error) {
	f, err := regular.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() <= int64(max) {
		buf.Grow(int(fi.Size()) + 512) // one allocation for a file read whole, not a doubling series
	}
	_, err = buf.ReadFrom(io.LimitReader(f, int64(max)+1))
	data := buf.Bytes()
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, fmt.Errorf("larger than %d bytes: %w", max, supply.ErrLimit)
	}
	return data, nil
}
