package dds

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"dcimon/internal/regular"
	ns "dcimon/namespace"
	"dcimon/supply"
)

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
