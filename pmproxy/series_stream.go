package pmproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// A fleet's window of values is megabytes of JSON a metric (500 hosts × 16 disks × a few
// samples, some 200 bytes a value): read whole, each page's answer was a buffer grown to its size
// and a copy of it as a string, 61 MB allocated by one `hot --series` over 500 hosts (issue 38
// item 3). The answers of /series/values (and /series/instances) are instead read as they come:
// an arrayStream keeps a small buffer of the answer, hands out one element of its top-level array
// at a time, and the element is read by the same scanner as before, where it lies in the buffer.

// streamBuf is the size an arrayStream's buffer starts at; it grows only for an element larger
// than it (bounded by the answer's own bound).
const streamBuf = 32 << 10

// arrayStream reads a JSON array from r an element at a time. The grammar outside the elements
// (the brackets, commas, white space, nothing after the array) is checked here; each element's
// extent is found by its brackets and strings, and the caller reads it with a scanner, which
// checks the rest.
type arrayStream struct {
	r      io.Reader
	buf    []byte
	lo, hi int   // the bytes read and not yet consumed: buf[lo:hi]
	off    int   // the answer's offset of buf[0]
	eof    bool  // r has no more
	err    error // r's error, other than io.EOF
	state  int   // streamStart, streamIn (after '[' or ','), streamAfter (after an element), streamEnd
}

const (
	streamStart = iota
	streamIn
	streamAfter
	streamEnd
)

// streams are answers' readers, their buffers used again by the next answer read.
var streams = sync.Pool{New: func() any { return new(arrayStream) }}

func getStream() *arrayStream { return streams.Get().(*arrayStream) }

// putStream gives d back for another answer, its buffer kept unless an answer grew it large.
func putStream(d *arrayStream) {
	if len(d.buf) > 8*streamBuf {
		return
	}
	d.r = nil
	streams.Put(d)
}

// reset makes d read r from its start, keeping its buffer.
func (d *arrayStream) reset(r io.Reader) {
	if d.buf == nil {
		d.buf = make([]byte, streamBuf)
	}
	*d = arrayStream{r: r, buf: d.buf}
}

// fill reads more of the answer after buf[hi], moving what is unread to the front or growing the
// buffer when it is full; false when there is no more (at the end, or r failed: d.err).
func (d *arrayStream) fill() bool {
	if d.eof || d.err != nil {
		return false
	}
	if d.hi == len(d.buf) {
		if d.lo > 0 {
			copy(d.buf, d.buf[d.lo:d.hi])
			d.off += d.lo
			d.hi -= d.lo
			d.lo = 0
		} else {
			d.buf = append(d.buf, make([]byte, len(d.buf))...)
		}
	}
	for range 100 { // io.Reader allows reads of nothing; a reader that only does so has failed
		n, err := d.r.Read(d.buf[d.hi:])
		d.hi += n
		switch {
		case errors.Is(err, io.EOF):
			d.eof = true
			return n > 0
		case err != nil:
			d.err = err
			return n > 0
		case n > 0:
			return true
		}
	}
	d.err = io.ErrNoProgress
	return false
}

// peek is the next byte after white space, 0 at the end of the answer.
func (d *arrayStream) peek() byte {
	for {
		for ; d.lo < d.hi; d.lo++ {
			switch c := d.buf[d.lo]; c {
			case ' ', '\t', '\n', '\r':
			default:
				return c
			}
		}
		if !d.fill() {
			return 0
		}
	}
}

// syntax is a malformed answer's error at the stream's place.
func (d *arrayStream) syntax(what string) error {
	return fmt.Errorf("%w at byte %d: %s", errSyntax, d.off+d.lo, what)
}

// next is the next element of the array, at offset at of the answer (a scanner reads it, then
// the caller says how much of it was read with consume), or done at the array's end, nothing
// after it. The element lies in d's buffer: it is valid until d reads again. An element that is
// not an object is handed out as its first byte (the scanner refuses it); an element cut short by
// the answer's end, as far as it goes.
func (d *arrayStream) next() (elem []byte, at int, done bool, err error) {
	switch d.state {
	case streamStart:
		if err := d.open(); err != nil || d.state == streamEnd {
			return nil, 0, true, err
		}
	case streamAfter:
		switch d.peek() {
		case ',':
			d.lo++
			d.state = streamIn
		case ']':
			d.lo++
			return nil, 0, true, d.close()
		default:
			if d.err != nil {
				return nil, 0, true, d.err
			}
			return nil, 0, true, d.syntax("want , or ]")
		}
	case streamEnd:
		return nil, 0, true, nil
	}
	d.peek()
	n := d.extent()
	if d.err != nil {
		return nil, 0, true, d.err
	}
	return d.buf[d.lo : d.lo+n], d.off + d.lo, false, nil
}

// open reads the array's '['; an empty array is read whole. An object instead of the array is
// an error pmproxy sent with HTTP 200 ({"success":false,"message":…}): its message is the error.
func (d *arrayStream) open() error {
	switch d.peek() {
	case '[':
		d.lo++
		d.state = streamIn
		if d.peek() == ']' {
			d.lo++
			return d.close()
		}
		return d.err
	case '{':
		for d.fill() {
		}
		if d.err != nil {
			return d.err
		}
		var e struct {
			Message string `json:"message"`
			Success *bool  `json:"success"`
		}
		if json.Unmarshal(d.buf[d.lo:d.hi], &e) == nil && e.Success != nil && !*e.Success {
			return fmt.Errorf("pmproxy said: %s", clip(e.Message))
		}
	}
	if d.err != nil {
		return d.err
	}
	return d.syntax("want '['")
}

// close checks nothing follows the array but white space (a NUL byte too is something).
func (d *arrayStream) close() error {
	d.state = streamEnd
	if d.peek(); d.lo < d.hi {
		return d.syntax("more after the answer")
	}
	return d.err
}

// consume marks n bytes of the element next handed out as read.
func (d *arrayStream) consume(n int) {
	d.lo += n
	d.state = streamAfter
}

// extent is the length of the element at buf[lo]: an object to its closing brace (by its
// brackets, outside strings), anything else to the next bracket, brace, quote, comma or white
// space (null), reading more of the answer as needed.
func (d *arrayStream) extent() int {
	if d.lo == d.hi {
		return 0
	}
	if d.buf[d.lo] != '{' {
		return d.scalar()
	}
	depth, inStr, esc := 0, false, false
	k := 0
	for {
		for ; d.lo+k < d.hi; k++ {
			c := d.buf[d.lo+k]
			switch {
			case inStr:
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '"':
					inStr = false
				}
			case c == '"':
				inStr = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth--; depth == 0 {
					return k + 1
				}
			}
		}
		if !d.fill() {
			return k // cut short: the scanner says where
		}
	}
}

// scalar is the length of the element at buf[lo] that is not an object: its first byte and
// those up to the next that may end it.
func (d *arrayStream) scalar() int {
	k := 1
	for {
		for ; d.lo+k < d.hi; k++ {
			switch d.buf[d.lo+k] {
			case ',', ']', '}', '[', '{', '"', ' ', '\t', '\n', '\r':
				return k
			}
		}
		if !d.fill() {
			return k
		}
	}
}

// scan reads the element next handed out with a scanner (in place: the scanner's strings are
// the buffer's, valid until d reads again) and consumes what it read.
func (d *arrayStream) scan(s *scanner, elem []byte, at int, read func(*scanner) error) error {
	s.b, s.i, s.at = unsafe.String(unsafe.SliceData(elem), len(elem)), 0, at
	err := read(s)
	d.consume(s.i)
	return err
}

// eachElement reads the array on r, calling read with a scanner at each element.
func (d *arrayStream) eachElement(r io.Reader, read func(*scanner) error) error {
	d.reset(r)
	var s scanner
	for {
		elem, at, done, err := d.next()
		if done || err != nil {
			return err
		}
		if err := d.scan(&s, elem, at, read); err != nil {
			return err
		}
	}
}

// boundedBody is an answer's body that fails, wrapping ErrTooBig, past limit bytes.
type boundedBody struct {
	r     io.Reader
	left  int64
	limit int
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := io.ReadFull(b.r, one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, fmt.Errorf("%w: more than %d bytes", ErrTooBig, b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// stream calls a /series path with a GET, as series does, and hands read the body of a success
// as it comes, bounded by limit bytes (past it, the read fails wrapping ErrTooBig); any other
// status is an *Error with pmproxy's message, as for request. read's error is returned as it is.
func (c *Client) stream(ctx context.Context, path string, q url.Values, limit int, read func(io.Reader) error) error {
	if err := c.fits(path, q); err != nil {
		return err
	}
	return c.do(ctx, path, q, func(resp *http.Response) error {
		return read(&boundedBody{r: resp.Body, left: int64(limit), limit: limit})
	})
}

// SeriesInstancesFunc calls fn with each instance of the series (those with an instance domain),
// as ever seen, one call at a time: a fleet's are hundreds of kilobytes a metric, read as they
// come (pagedStream). An instance's strings are valid during the call only.
func (c *Client) SeriesInstancesFunc(ctx context.Context, ids []string, fn func(SeriesInstance)) error {
	var mu sync.Mutex
	return c.pagedStream(ctx, "/series/instances", ids, func(d *arrayStream, body io.Reader) error {
		return decodeSeriesInstances(d, body, func(in SeriesInstance) {
			mu.Lock()
			defer mu.Unlock()
			fn(in)
		})
	})
}

// SeriesDescsFunc calls fn with the descriptor of each series, one call at a time, read as the
// answers come (pagedStream). A descriptor's strings are valid during the call only.
func (c *Client) SeriesDescsFunc(ctx context.Context, ids []string, fn func(SeriesDesc)) error {
	var mu sync.Mutex
	return c.pagedStream(ctx, "/series/descs", ids, func(d *arrayStream, body io.Reader) error {
		return decodeSeriesDescs(d, body, func(sd SeriesDesc) {
			mu.Lock()
			defer mu.Unlock()
			fn(sd)
		})
	})
}

// pagedStream asks pmproxy at path for what it has of ids, SeriesPage ids a request, a few
// requests at once, and reads each answer with decode as it comes, into a buffer used again by
// the next page; decode's error names the request.
func (c *Client) pagedStream(ctx context.Context, path string, ids []string, decode func(*arrayStream, io.Reader) error) error {
	return pages(ids, func(p []string) error {
		d := getStream()
		defer putStream(d)
		q := url.Values{"series": {strings.Join(p, ",")}}
		return c.stream(ctx, path, q, maxSeriesBody, func(body io.Reader) error {
			if err := decode(d, body); err != nil {
				return fmt.Errorf("pmproxy %s: %s: %w", c.URL(), path, err)
			}
			return nil
		})
	})
}

// decodeSeriesDescs reads a descriptors answer from r as it comes, [{"series":S,"source":C,
// "pmid":P,"indom":I,"semantics":M,"type":T,"units":U}, …], calling fn with each (its strings lie
// in d's buffer), as encoding/json reads it into []SeriesDesc (decodeSeriesInstances says how).
// FuzzSeriesDescs checks it against encoding/json.
func decodeSeriesDescs(d *arrayStream, r io.Reader, fn func(SeriesDesc)) error {
	return d.eachElement(r, func(s *scanner) error {
		var sd SeriesDesc
		if s.peek() == 'n' {
			if err := s.null(); err != nil {
				return err
			}
			fn(sd)
			return nil
		}
		err := s.object(func(k string) error {
			for _, m := range [...]struct {
				name string
				v    *string
			}{{"series", &sd.Series}, {"source", &sd.Source}, {"pmid", &sd.PMID}, {"indom", &sd.InDom}, {"semantics", &sd.Semantics}, {"type", &sd.Type}, {"units", &sd.Units}} {
				if fold(k, m.name) {
					return s.optStr(m.v)
				}
			}
			return s.skip(0)
		})
		if err == nil {
			fn(sd)
		}
		return err
	})
}

// decodeSeriesInstances reads an instances answer from r as it comes, [{"series":S,"source":C,
// "instance":I,"id":N,"name":M}, …], calling fn with each (its strings lie in d's buffer), as
// encoding/json reads it into []SeriesInstance: members matched without regard to case, the last
// of a repeated one kept, an unknown one skipped, null leaving a member as it was (an element
// null, an instance of nothing), a member of another type an error. FuzzSeriesInstances checks it
// against encoding/json.
func decodeSeriesInstances(d *arrayStream, r io.Reader, fn func(SeriesInstance)) error {
	return d.eachElement(r, func(s *scanner) error {
		var in SeriesInstance
		if s.peek() == 'n' {
			if err := s.null(); err != nil {
				return err
			}
			fn(in)
			return nil
		}
		err := s.object(func(k string) error {
			switch {
			case fold(k, "series"):
				return s.optStr(&in.Series)
			case fold(k, "source"):
				return s.optStr(&in.Source)
			case fold(k, "instance"):
				return s.optStr(&in.Instance)
			case fold(k, "name"):
				return s.optStr(&in.Name)
			case fold(k, "id"):
				return s.optInt(&in.ID)
			}
			return s.skip(0)
		})
		if err == nil {
			fn(in)
		}
		return err
	})
}

// optStr reads a string into v, or null, leaving v as it was; anything else is an error.
func (s *scanner) optStr(v *string) error {
	switch s.peek() {
	case 'n':
		return s.null()
	case '"':
		str, err := s.str()
		*v = str
		return err
	}
	if err := s.skip(0); err != nil {
		return err
	}
	return s.err("not a string")
}

// optInt reads an integer into v, or null, leaving v as it was; anything else is an error.
func (s *scanner) optInt(v *int64) error {
	switch s.peek() {
	case 'n':
		return s.null()
	case '"', '{', '[', 't', 'f':
		if err := s.skip(0); err != nil {
			return err
		}
		return s.err("not an integer")
	}
	t, err := s.num()
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return s.err("not an integer")
	}
	*v = n
	return nil
}

// null reads null, and only null.
func (s *scanner) null() error {
	if !strings.HasPrefix(s.b[s.i:], "null") {
		return s.err("unexpected character")
	}
	s.i += 4
	return nil
}
