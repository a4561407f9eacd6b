package pcparchive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// Writer writes an archive as pmlogger does: a label at the head of each file, then metadata
// records, pmResult records and temporal index entries, each record written whole by one write.
// A write that fails (a full disk, a file size limit) is undone: the file is truncated back to
// the end of its last whole record, so that no torn record is left (pmlogcheck passes) and only
// what was never written is lost (issue 30 item 12); the writer then refuses every further
// record (Err), and Close still ends the archive whole. Metadata is written before the first
// record that needs it.
type Writer struct {
	base    string
	version int
	label   Label
	meta    *os.File
	vol     *os.File
	index   *os.File
	metaOff int64
	volOff  int64
	idxOff  int64
	err     error // the write that failed: every later one is refused
	descs   map[uint32]Desc
	results int
	volN    int  // the volume being written
	volNew  bool // a volume was begun: its first record gets an index entry
	// IndexEvery is how many records go between two temporal index entries (60 when zero).
	IndexEvery int
	// rec and blocks are PutResult's buffers, kept for the next record.
	rec, blocks []byte
}

// IndexNext says the next record gets a temporal index entry (a new volume's first, or every
// IndexEvery records): a reader that seeks starts there.
func (w *Writer) IndexNext() bool { return w.results == 0 || w.indexDue() }

// indexDue says the next record gets an index entry of its own (the first's is written by
// Create).
func (w *Writer) indexDue() bool {
	every := w.IndexEvery
	if every <= 0 {
		every = 60
	}
	return w.volNew || (w.results > 0 && w.results%every == 0)
}

// Volume is the number of the data volume being written.
func (w *Writer) Volume() int { return w.volN }

// VolumeSize is how many bytes the data volume being written holds.
func (w *Writer) VolumeSize() int64 { return w.volOff }

// NewVolume closes the data volume being written (synced) and begins the next one, base.N+1,
// as pmlogger does when a volume reaches its size: the archive's metadata and index go on, and
// the new volume's first record has an index entry. It returns the number of the volume closed.
func (w *Writer) NewVolume() (int, error) {
	old := w.volN
	if w.err != nil {
		return old, w.err
	}
	err := errors.Join(w.vol.Sync(), w.vol.Close())
	w.vol = nil
	if err != nil {
		return old, w.fail(fmt.Errorf("archive %s.%d: %w", w.base, old, err))
	}
	name := w.base + "." + strconv.Itoa(old+1)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return old, w.fail(err)
	}
	n, err := f.Write(frame(w.labelPayload(int32(old + 1))))
	if err != nil {
		f.Close()
		os.Remove(name) // this writer made it: a volume without its label is no volume
		return old, w.fail(fmt.Errorf("archive %s: %w", name, err))
	}
	w.vol, w.volN, w.volOff, w.volNew = f, old+1, int64(n), true
	return old, nil
}

// fail makes err the writer's failure, refusing every later record.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

// Err is the write that failed, after which the writer writes no more records; nil while none
// has.
func (w *Writer) Err() error { return w.err }

// write writes rec to f, at *off, whole or not at all: after a failed write the file is
// truncated back to *off (the end of its last whole record), so that no torn record is left.
func (w *Writer) write(f *os.File, off *int64, rec []byte) error {
	if w.err != nil {
		return fmt.Errorf("archive %s: no more records after a write that failed: %w", w.base, w.err)
	}
	n, err := f.Write(rec)
	if err == nil {
		*off += int64(n)
		return nil
	}
	err = fmt.Errorf("%s: writing a record of %d bytes at offset %d: %w", f.Name(), len(rec), *off, err)
	if n > 0 {
		if terr := f.Truncate(*off); terr != nil {
			err = fmt.Errorf("%w; and the part written could not be taken back: %w", err, terr)
		}
	}
	if _, serr := f.Seek(*off, io.SeekStart); serr != nil {
		err = fmt.Errorf("%w; %w", err, serr)
	}
	return w.fail(err)
}

// Vacant says whether an archive can be created at base: its metadata, index and first volume
// are not there (an archive is a user's file, never overwritten) and its directory is. It
// checks what Create would refuse, before anything is created or sampled.
func Vacant(base string) error {
	for _, suf := range []string{".meta", ".index", ".0"} {
		// As written or compressed (pmlogger_daily's x.0.xz): either is the archive.
		if name, err := findFile(base, suf); err == nil {
			return fmt.Errorf("archive %s: %s %w: an archive is never overwritten", base, name, fs.ErrExist)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("archive %s: %w", base, err)
		}
	}
	dir := filepath.Dir(base)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("archive %s: %w", base, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("archive %s: %s is not a directory", base, dir)
	}
	return nil
}

// Create starts an archive at base (base.meta, base.index, base.0) of version 2 or 3 for the
// host, time zone and start time of l. Existing files are not overwritten: an archive is a
// user's file. A refused or failed Create leaves nothing behind (issue 30 item 13): every
// name is checked first, each file is created exclusively, and those this call created are
// removed when a later step fails.
func Create(base string, version int, l Label) (_ *Writer, err error) {
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("archive version %d: 2 or 3", version)
	}
	if err := Vacant(base); err != nil {
		return nil, err
	}
	w := &Writer{base: base, version: version, label: l, descs: map[uint32]Desc{}}
	w.label.Version = version
	var made []*os.File
	defer func() {
		if err == nil {
			return
		}
		for _, f := range made {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	for _, f := range []struct {
		file **os.File
		suf  string
		vol  int32
		off  *int64
	}{{&w.meta, ".meta", -1, &w.metaOff}, {&w.index, ".index", -2, &w.idxOff}, {&w.vol, ".0", 0, &w.volOff}} {
		file, err := os.OpenFile(base+f.suf, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, err
		}
		made = append(made, file)
		*f.file = file
		if err := w.write(file, f.off, frame(w.labelPayload(f.vol))); err != nil {
			return nil, err
		}
	}
	if err := w.putIndex(l.Start); err != nil {
		return nil, err
	}
	return w, nil
}

// frame wraps a payload in its length, before and after.
func frame(p []byte) []byte {
	n := uint32(len(p) + 8)
	out := make([]byte, 0, n)
	out = be.AppendUint32(out, n)
	out = append(out, p...)
	return be.AppendUint32(out, n)
}

// fixed is s in a NUL-padded field of n bytes (cut to n-1).
func fixed(b []byte, s string, n int) []byte {
	f := make([]byte, n)
	copy(f[:n-1], s)
	return append(b, f...)
}

// appendStamp appends a timestamp as the version has it.
func (w *Writer) appendStamp(b []byte, t time.Time) []byte {
	if w.version == 2 {
		return be.AppendUint32(be.AppendUint32(b, uint32(t.Unix())), uint32(t.Nanosecond()/1000))
	}
	s := uint64(t.Unix())
	b = be.AppendUint32(be.AppendUint32(b, uint32(s)), uint32(s>>32)) // low word first, as PCP
	return be.AppendUint32(b, uint32(t.Nanosecond()))
}

func (w *Writer) labelPayload(vol int32) []byte {
	l := w.label
	b := be.AppendUint32(nil, logMagic|uint32(w.version))
	b = be.AppendUint32(b, uint32(l.PID))
	if w.version == 2 {
		b = w.appendStamp(b, l.Start)
		b = be.AppendUint32(b, uint32(vol))
		b = fixed(b, l.Host, 64)
		return fixed(b, l.TZ, 40)
	}
	b = w.appendStamp(b, l.Start)
	b = be.AppendUint32(b, uint32(vol))
	b = be.AppendUint32(b, l.Features)
	b = be.AppendUint32(b, 0)
	b = fixed(b, l.Host, 256)
	b = fixed(b, l.TZ, 256)
	return fixed(b, l.Zoneinfo, 256)
}

// writeMeta writes one metadata record.
func (w *Writer) writeMeta(p []byte) error { return w.write(w.meta, &w.metaOff, frame(p)) }

// PutDesc writes a metric's description; a pmid described twice is an error.
func (w *Writer) PutDesc(d Desc) error {
	if _, ok := w.descs[d.PMID]; ok {
		return fmt.Errorf("pmid %s is already described", PMIDString(d.PMID))
	}
	if len(d.Names) == 0 {
		return fmt.Errorf("pmid %s has no name", PMIDString(d.PMID))
	}
	b := be.AppendUint32(nil, tagDesc)
	for _, v := range []uint32{d.PMID, uint32(d.Type), d.InDom, uint32(d.Sem), d.Units, uint32(len(d.Names))} {
		b = be.AppendUint32(b, v)
	}
	for _, n := range d.Names {
		b = be.AppendUint32(b, uint32(len(n)))
		b = append(b, n...)
	}
	if err := w.writeMeta(b); err != nil {
		return err
	}
	w.descs[d.PMID] = d // described only once written: a value of it is refused until then
	return nil
}

// PutInDom writes a full observation of an instance domain.
func (w *Writer) PutInDom(in InDom) error {
	if len(in.Names) != len(in.Instances) {
		return errors.New("instance domain: as many names as instances, please")
	}
	tag := uint32(tagInDomV2)
	if w.version == 3 {
		tag = tagInDom
	}
	b := w.appendStamp(be.AppendUint32(nil, tag), in.Time)
	b = be.AppendUint32(b, in.InDom)
	b = be.AppendUint32(b, uint32(len(in.Instances)))
	for _, id := range in.Instances {
		b = be.AppendUint32(b, uint32(id))
	}
	off := 0
	for _, n := range in.Names {
		b = be.AppendUint32(b, uint32(off))
		off += len(n) + 1
	}
	for _, n := range in.Names {
		b = append(append(b, n...), 0)
	}
	return w.writeMeta(b)
}

// PutText writes a help text (PM_TEXT_* type: 1 one line, 2 help; 4 for a pmid, 8 for an
// instance domain).
func (w *Writer) PutText(t Text) error {
	b := be.AppendUint32(nil, tagText)
	b = be.AppendUint32(be.AppendUint32(b, t.Type), t.Ident)
	return w.writeMeta(append(append(b, t.Text...), 0))
}

// Label set types (PM_LABEL_*): what a set describes.
const (
	LabelContext = 0x1
	LabelDomain  = 0x2
	LabelInDom   = 0x4
	LabelItem    = 0x10
)

// PutLabels writes a label set at t: labels of the context (ident ignored), a domain, an
// instance domain or a metric, as the JSON object PCP reads (keys sorted, values strings) with
// each label's place in it. Empty or over-long sets are an error: a label set fits 64 KiB.
func (w *Writer) PutLabels(t time.Time, typ, ident uint32, labels map[string]string) error {
	if len(labels) == 0 {
		return fmt.Errorf("archive %s: an empty label set", w.base)
	}
	if typ == LabelContext {
		ident = 0xffffffff // PM_ID_NULL
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	js := []byte{'{'}
	var entries []byte
	for i, k := range keys {
		if i > 0 {
			js = append(js, ',')
		}
		name, _ := json.Marshal(k)
		value, _ := json.Marshal(labels[k])
		if len(name)-2 > 255 || len(js)+len(name)+1+len(value) > 0xffff {
			return fmt.Errorf("archive %s: label %q: past a label set's 64 KiB", w.base, k)
		}
		// name offset and length (without the quotes), flags (the set's type), value offset and
		// length (with its quotes, as PCP writes them).
		entries = be.AppendUint16(entries, uint16(len(js)+1))
		entries = append(entries, byte(len(name)-2), byte(typ))
		js = append(append(js, name...), ':')
		entries = be.AppendUint16(be.AppendUint16(entries, uint16(len(js))), uint16(len(value)))
		js = append(js, value...)
	}
	js = append(js, '}')
	tag := uint32(tagLabel)
	if w.version == 2 {
		tag = tagLabelV2
	}
	p := be.AppendUint32(nil, tag)
	p = w.appendStamp(p, t)
	p = be.AppendUint32(be.AppendUint32(p, typ), ident)
	p = be.AppendUint32(p, 1)          // one set
	p = be.AppendUint32(p, 0xffffffff) // PM_IN_NULL
	p = be.AppendUint32(p, uint32(len(js)))
	p = append(p, js...)
	p = be.AppendUint32(p, uint32(len(keys)))
	p = append(p, entries...)
	return w.writeMeta(p)
}

// OutValue is one instance's value to write: a number or a string, of its metric's type.
type OutValue struct {
	Inst int32
	N    uint64 // an integer type's bits
	F    float64
	S    string // a string's, or an aggregate's bytes
}

// OutSet is one metric's values in a record.
type OutSet struct {
	PMID   uint32
	Values []OutValue
}

// PutResult writes one pmResult: the values of described metrics at t. No sets is a mark
// record (a gap in the recording).
func (w *Writer) PutResult(t time.Time, sets []OutSet) error {
	if w.err != nil {
		return fmt.Errorf("archive %s: no more records after a write that failed: %w", w.base, w.err)
	}
	// The record is made in the writer's buffers, used again record after record (issue 38 item
	// 4): its length, the header, the value sets, then the value blocks, each value appended in
	// place; a block's place is counted in 32-bit words from 12 bytes before the payload.
	rec := be.AppendUint32(w.rec[:0], 0) // its length, once known
	rec = w.appendStamp(rec, t)
	rec = be.AppendUint32(rec, uint32(len(sets)))
	head := len(rec) - 4
	setsLen := 0
	for _, s := range sets {
		setsLen += 12 + 8*len(s.Values)
	}
	base := 12 + head + setsLen // the first block's place, in bytes from the origin
	blocks := w.blocks[:0]
	for _, s := range sets {
		d, ok := w.descs[s.PMID]
		if !ok {
			return fmt.Errorf("a value of pmid %s, which is not described", PMIDString(s.PMID))
		}
		rec = be.AppendUint32(rec, s.PMID)
		rec = be.AppendUint32(rec, uint32(len(s.Values)))
		// 32-bit integers in the value itself; everything else, floats included, in a block, as
		// libpcp's pmlogger writes them (a float in situ is read, but pmlogcheck of an archive
		// merged with pmlogger's then finds two encodings of one metric: issue 30).
		insitu := d.Type == Type32 || d.Type == TypeU32
		if insitu {
			rec = be.AppendUint32(rec, 0) // PM_VAL_INSITU
		} else {
			rec = be.AppendUint32(rec, 1) // PM_VAL_DPTR
		}
		for _, v := range s.Values {
			rec = be.AppendUint32(rec, uint32(v.Inst))
			if insitu {
				rec = be.AppendUint32(rec, uint32(v.N))
				continue
			}
			at := len(blocks)
			blocks = be.AppendUint32(blocks, 0) // the block's header, once its size is known
			switch d.Type {
			case Type64, TypeU64:
				blocks = be.AppendUint64(blocks, v.N)
			case TypeFloat:
				blocks = be.AppendUint32(blocks, math.Float32bits(float32(v.F)))
			case TypeDouble:
				blocks = be.AppendUint64(blocks, math.Float64bits(v.F))
			case TypeString:
				blocks = append(append(blocks, v.S...), 0)
			case TypeAggr:
				blocks = append(blocks, v.S...) // bytes as they are: an address may hold a 0
			default:
				return fmt.Errorf("pmid %s: values of type %d are not written", PMIDString(s.PMID), d.Type)
			}
			if size := len(blocks) - at; size > 0xffffff {
				return fmt.Errorf("pmid %s: a value of %d bytes", PMIDString(s.PMID), size-4)
			}
			be.PutUint32(blocks[at:], uint32(d.Type)<<24|uint32(len(blocks)-at))
			rec = be.AppendUint32(rec, uint32((base+at)/4))
			for len(blocks)%4 != 0 {
				blocks = append(blocks, 0)
			}
		}
	}
	rec = append(rec, blocks...)
	n := uint32(len(rec) + 4)
	be.PutUint32(rec, n)
	rec = be.AppendUint32(rec, n)
	w.rec, w.blocks = rec, blocks
	// The index entry goes first, at the record's offset, once the record is known to be
	// sound; it is taken back when the record cannot be written.
	idxMark := w.idxOff // the index entry written for this record goes when it fails
	if w.indexDue() {
		w.volNew = false
		if err := w.putIndex(t); err != nil {
			return err
		}
	}
	if err := w.write(w.vol, &w.volOff, rec); err != nil {
		if w.idxOff != idxMark {
			// Its index entry points at a record that is not there, at a time no record has.
			if terr := w.index.Truncate(idxMark); terr != nil {
				return fmt.Errorf("%w; and its index entry could not be taken back: %w", err, terr)
			}
			if _, serr := w.index.Seek(idxMark, io.SeekStart); serr != nil {
				return fmt.Errorf("%w; %w", err, serr)
			}
			w.idxOff = idxMark
		}
		return err
	}
	w.results++
	return nil
}

// putIndex writes a temporal index entry: at t, every record so far is before the offsets.
func (w *Writer) putIndex(t time.Time) error {
	b := w.appendStamp(nil, t)
	b = be.AppendUint32(b, uint32(w.volN))
	if w.version == 2 {
		if w.metaOff > math.MaxUint32 || w.volOff > math.MaxUint32 {
			return fmt.Errorf("archive %s: past Version 2's 4 GiB offsets", w.base)
		}
		b = be.AppendUint32(be.AppendUint32(b, uint32(w.metaOff)), uint32(w.volOff))
	} else {
		b = be.AppendUint64(be.AppendUint64(b, uint64(w.metaOff)), uint64(w.volOff))
	}
	return w.write(w.index, &w.idxOff, b)
}

// Close writes the last index entry, at end, and syncs and closes the files.
func (w *Writer) Close() error { return w.CloseAt(time.Time{}) }

// CloseAt is Close with the last index entry at end (the last record's time; none when zero).
// After a failed write the last entry is still written, at the offsets of the last whole
// records, when there is room for it.
func (w *Writer) CloseAt(end time.Time) error {
	var errs []error
	if !end.IsZero() && w.index != nil {
		failed := w.err
		w.err = nil
		errs = append(errs, w.putIndex(end))
		if failed != nil {
			w.err = failed
		}
	}
	for _, f := range []*os.File{w.vol, w.meta, w.index} {
		if f != nil {
			errs = append(errs, f.Sync(), f.Close())
		}
	}
	return errors.Join(errs...)
}

// Abort closes the archive and removes every file of it this writer created: for a caller that
// fails before writing any record (issue 30 item 13: a refused or failed start leaves nothing,
// so the next attempt finds the name free).
func (w *Writer) Abort() error {
	var errs []error
	for _, f := range []*os.File{w.vol, w.meta, w.index} {
		if f != nil {
			f.Close()
		}
	}
	for n := 0; n <= w.volN; n++ {
		errs = append(errs, os.Remove(w.base+"."+strconv.Itoa(n)))
	}
	errs = append(errs, os.Remove(w.base+".meta"), os.Remove(w.base+".index"))
	w.vol, w.meta, w.index = nil, nil, nil
	w.err = fmt.Errorf("archive %s: aborted", w.base)
	return errors.Join(errs...)
}

// InDomOf makes an instance domain from its domain and serial.
func InDomOf(domain, serial uint32) uint32 { return domain&0x1ff<<22 | serial&0x3fffff }

// CountUnits is pmUnits for a plain count (dimCount 1), bit-packed.
const CountUnits = 1 << 20

// PMID makes a pmid from its domain, cluster and item.
func PMID(domain, cluster, item uint32) uint32 {
	return domain&0x1ff<<22 | cluster&0xfff<<10 | item&0x3ff
}

// ParsePMID reads a pmid as PCP prints it (60.0.4).
func ParsePMID(s string) (uint32, error) {
	var d, c, i uint32
	if _, err := fmt.Sscanf(s, "%d.%d.%d", &d, &c, &i); err != nil || d > 0x1ff || c > 0xfff || i > 0x3ff ||
		s != strconv.Itoa(int(d))+"."+strconv.Itoa(int(c))+"."+strconv.Itoa(int(i)) {
		return 0, fmt.Errorf("pmid %q", s)
	}
	return PMID(d, c, i), nil
}
