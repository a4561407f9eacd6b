package pcparchive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"dcimon/pcpwire"
)

var be = binary.BigEndian

// Record tags of the metadata file (LOGARCHIVE(5), METADATA FILE RECORDS).
const (
	tagDesc       = 1
	tagInDomV2    = 2
	tagLabelV2    = 3
	tagText       = 4
	tagInDom      = 5
	tagInDomDelta = 6
	tagLabel      = 7
)

// logMagic is PM_LOG_MAGIC; the low byte of the label's tag is the version.
const logMagic = 0x50052600

// cstr is the text of a fixed-size, NUL-padded field.
func cstr(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// readLabel reads the archive label that begins every file: a record of 132 bytes (Version 2)
// or 808 (Version 3), checked as such before it is read.
func readLabel(fr *frames) (Label, error) {
	if hdr, err := fr.r.Peek(4); err == nil {
		if n := be.Uint32(hdr); n != 132 && n != 808 {
			return Label{}, fr.damage(0, "the label record says it is %d bytes; a label is 132 (Version 2) or 808 (Version 3)", n)
		}
	}
	fr.one = "the label record"
	p, _, err := fr.next()
	fr.one = ""
	if errors.Is(err, io.EOF) {
		return Label{}, fr.damage(0, "an empty file, with no archive label")
	}
	if err != nil {
		return Label{}, err
	}
	l, err := labelOf(p)
	if err != nil {
		return Label{}, fr.damage(0, "%s", err)
	}
	return l, nil
}

// labelOf reads a label record's payload.
func labelOf(p []byte) (Label, error) {
	if len(p) < 4 || be.Uint32(p)&^0xff != logMagic {
		return Label{}, errors.New("no archive label (magic 0x500526xx)")
	}
	l := Label{Version: int(be.Uint32(p) & 0xff)}
	switch l.Version {
	case 2:
		if len(p) != 124 {
			return Label{}, fmt.Errorf("a Version 2 label of %d bytes, not 132", len(p)+8)
		}
		l.PID = int32(be.Uint32(p[4:]))
		l.Start = time.Unix(int64(be.Uint32(p[8:])), int64(be.Uint32(p[12:]))*1000)
		l.Vol = int32(be.Uint32(p[16:]))
		l.Host, l.TZ = cstr(p[20:84]), cstr(p[84:124])
	case 3:
		if len(p) != 800 {
			return Label{}, fmt.Errorf("a Version 3 label of %d bytes, not 808", len(p)+8)
		}
		l.PID = int32(be.Uint32(p[4:]))
		sec, ns := sec64(be.Uint32(p[8:]), be.Uint32(p[12:])), be.Uint32(p[16:])
		if sec > math.MaxInt64/2 || ns >= 1e9 {
			return Label{}, fmt.Errorf("a label's start time of %d s and %d ns", sec, ns)
		}
		l.Start = time.Unix(int64(sec), int64(ns))
		l.Vol = int32(be.Uint32(p[20:]))
		l.Features = be.Uint32(p[24:])
		l.Host, l.TZ, l.Zoneinfo = cstr(p[32:288]), cstr(p[288:544]), cstr(p[544:800])
	default:
		return Label{}, fmt.Errorf("archive version %d (2 and 3 are read)", l.Version)
	}
	return l, nil
}

// sec64 is Version 3's 64-bit seconds from its two 32-bit words as PCP writes them: the low word
// first, then the high one (seen in every Version 3 file pmlogger 6.0.3 writes; LOGARCHIVE(5)
// says only "8 bytes").
func sec64(lo, hi uint32) uint64 { return uint64(hi)<<32 | uint64(lo) }

// stamp reads a timestamp: seconds and microseconds (Version 2), or 64-bit seconds and
// nanoseconds (Version 3).
func stamp(r *pcpwire.Fields, version int) time.Time {
	if version == 2 {
		s, us := r.U32(), r.U32()
		return time.Unix(int64(s), int64(us)*1000)
	}
	s, ns := sec64(r.U32(), r.U32()), r.U32()
	if ns >= 1e9 || s > math.MaxInt64/2 {
		r.SetBad()
	}
	return time.Unix(int64(s), int64(ns))
}

// metaRecord is a metadata record being read: its fields after the length, its tag, and where it
// starts and how long its payload is, for the damage it may report.
type metaRecord struct {
	fr   *frames
	r    *pcpwire.Fields
	tag  uint32
	off  int64
	size int
}

// bad is the damage of this record: what is wrong with it, after its kind and size.
func (m *metaRecord) bad(format string, args ...any) error {
	return m.fr.damage(m.off, "%s of %d bytes: %s", metaKind(m.tag), m.size+8, fmt.Sprintf(format, args...))
}

// readMeta reads the metadata file of part p: its label, then descriptions, instance domains,
// label sets and help texts, added to the archive's. At a damaged record it stops with a
// *DamageError, keeping what was before it.
func (a *Archive) readMeta(fr *frames, p *Part) error {
	fr.kind = nil
	l, err := readLabel(fr)
	if err != nil {
		return err
	}
	if l.Vol != -1 {
		return fr.damage(0, "the label says volume %d, where the metadata file's says -1", l.Vol)
	}
	p.Label = l
	fr.kind = metaKind
	last := map[uint32][]int{} // an instance domain's latest observation, by instance → position
	for {
		rec, off, err := fr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		m := metaRecord{fr: fr, r: pcpwire.NewFields(rec), off: off, size: len(rec)}
		m.tag = m.r.U32()
		if err := a.addMetaRecord(&m, p, l.Version, last); err != nil {
			return err
		}
	}
}

// addMetaRecord reads one metadata record of part p, of the archive version its label says, by
// its tag, and adds it to the archive.
func (a *Archive) addMetaRecord(m *metaRecord, p *Part, version int, last map[uint32][]int) error {
	switch m.tag {
	case tagDesc:
		return a.addDescRecord(m, p)
	case tagInDomV2, tagInDom, tagInDomDelta:
		return a.addInDomRecord(m, version, last)
	case tagLabelV2, tagLabel:
		return a.addLabelRecord(m, version)
	case tagText:
		return a.addTextRecord(m)
	}
	return m.bad("not a type of metadata record (1 to 7)")
}

// addDescRecord reads a metric's description and its names and adds them to the archive's.
func (a *Archive) addDescRecord(m *metaRecord, p *Part) error {
	r := m.r
	d := Desc{PMID: r.U32(), Type: int32(r.U32()), InDom: r.U32(), Sem: int32(r.U32()), Units: r.U32()}
	n := r.Count(4)
	for range n {
		d.Names = append(d.Names, string(r.Bytes(int(r.U32()))))
	}
	if r.Bad() {
		return m.bad("its fields run past its end")
	}
	if err := a.keep(m.fr, m.off, int64(m.size)+64+16*int64(n)); err != nil {
		return err
	}
	if err := a.addDesc(d, p); err != nil {
		return m.fr.damage(m.off, "%s", err)
	}
	return nil
}

// addInDomRecord reads an instance domain, full or a delta of its latest observation (last), and
// adds it to the archive's; its tag must be of the archive's version.
func (a *Archive) addInDomRecord(m *metaRecord, version int, last map[uint32][]int) error {
	if (m.tag == tagInDomV2) != (version == 2) {
		return m.bad("tag %d is not of a Version %d archive", m.tag, version)
	}
	in, err := parseInDom(m.r, version, m.tag == tagInDomDelta, a.InDoms, last)
	if err != nil {
		return m.bad("%s", err)
	}
	var size int64 = 64
	for _, n := range in.Names {
		size += 4 + 16 + int64(len(n))
	}
	if err := a.keep(m.fr, m.off, size); err != nil {
		return err
	}
	a.InDoms = append(a.InDoms, in)
	return nil
}

// addLabelRecord reads a label set and adds it to the archive's; its tag must be of the
// archive's version.
func (a *Archive) addLabelRecord(m *metaRecord, version int) error {
	if (m.tag == tagLabelV2) != (version == 2) {
		return m.bad("tag %d is not of a Version %d archive", m.tag, version)
	}
	ls, err := parseLabelSet(m.r, version)
	if err != nil {
		return m.bad("%s", err)
	}
	if err := a.keep(m.fr, m.off, int64(m.size)+64); err != nil {
		return err
	}
	a.Labels = append(a.Labels, ls)
	return nil
}

// addTextRecord reads a help text and adds it to the archive's.
func (a *Archive) addTextRecord(m *metaRecord) error {
	t := Text{Type: m.r.U32(), Ident: m.r.U32()}
	t.Text = cstr(m.r.Rest())
	if m.r.Bad() {
		return m.bad("its fields run past its end")
	}
	if err := a.keep(m.fr, m.off, int64(m.size)+64); err != nil {
		return err
	}
	a.Texts = append(a.Texts, t)
	return nil
}

// addDesc adds a description read from part p's metadata. The first description of a pmid
// holds; another archive of the same host that describes the metric otherwise (its type,
// instance domain, semantics or units) is refused, as PCP refuses it (PM_ERR_LOGCHANGE*);
// its names are added.
func (a *Archive) addDesc(d Desc, p *Part) error {
	if a.descAt == nil {
		a.descAt = map[uint32]int{}
	}
	i, dup := a.descAt[d.PMID]
	if !dup {
		a.descAt[d.PMID] = len(a.Descs)
		a.Descs = append(a.Descs, d)
		return nil
	}
	if len(a.Parts) == 0 { // a second description in one archive: kept as read
		a.Descs = append(a.Descs, d)
		return nil
	}
	old := &a.Descs[i]
	if old.Type != d.Type || old.InDom != d.InDom || old.Sem != d.Sem || old.Units != d.Units {
		return fmt.Errorf("metric %s (%s) is described otherwise than in %s: PCP reads no archives whose metrics changed type, instance domain, semantics or units",
			PMIDString(d.PMID), strings.Join(d.Names, " "), a.Parts[0].Base)
	}
	for _, n := range d.Names {
		if !slices.Contains(old.Names, n) {
			old.Names = append(old.Names, n)
		}
	}
	return nil
}

// keep counts size bytes more of metadata kept, refusing to keep past maxMetaKept.
func (a *Archive) keep(fr *frames, off, size int64) error {
	if a.kept += size; a.kept > maxMetaKept {
		return fr.damage(off, "the metadata and index before this record hold %d MiB, past the %d MiB this reader keeps", (a.kept-size)>>20, maxMetaKept>>20)
	}
	return nil
}

// parseInDom reads a full or delta instance domain record; a delta one is applied to the
// domain's latest observation (last: its position in prev).
func parseInDom(r *pcpwire.Fields, version int, delta bool, prev []InDom, last map[uint32][]int) (InDom, error) {
	in := InDom{Time: stamp(r, version), InDom: r.U32()}
	if r.Bad() {
		return InDom{}, errors.New("its time is not valid, or it ends inside its header")
	}
	n := r.Count(8) // an instance number and a name offset each
	insts := make([]int32, n)
	offs := make([]int32, n)
	for i := range insts {
		insts[i] = int32(r.U32())
	}
	for i := range offs {
		offs[i] = int32(r.U32())
	}
	if r.Bad() {
		return InDom{}, errors.New("its instances run past its end")
	}
	strtab := r.Rest()
	if !delta {
		names, err := inDomNames(insts, offs, strtab)
		if err != nil {
			return InDom{}, err
		}
		in.Instances, in.Names = insts, names
	} else {
		pos, ok := last[in.InDom]
		if !ok {
			return InDom{}, fmt.Errorf("a delta of instance domain %s before any full record of it", InDomString(in.InDom))
		}
		if err := in.applyDelta(prev[pos[0]], insts, offs, strtab); err != nil {
			return InDom{}, err
		}
	}
	last[in.InDom] = []int{len(prev)}
	return in, nil
}

// inDomNames are the names of a full record's instances, each at its offset in the string table.
func inDomNames(insts, offs []int32, strtab []byte) ([]string, error) {
	names := make([]string, len(insts))
	for i, o := range offs {
		var ok bool
		if names[i], ok = strtabName(strtab, o); !ok {
			return nil, fmt.Errorf("instance %d's name is not in its string table", insts[i])
		}
	}
	return names, nil
}

// applyDelta makes in the domain's previous observation base changed by a delta record: its
// instances with offset -1 deleted, the others renamed or added after base's, in base's order
// (an instance listed twice counts once).
func (in *InDom) applyDelta(base InDom, insts, offs []int32, strtab []byte) error {
	names := map[int32]string{}
	order := append([]int32(nil), base.Instances...)
	for i, id := range base.Instances {
		names[id] = base.Names[i]
	}
	for i, id := range insts {
		if offs[i] == -1 { // deleted
			delete(names, id)
			continue
		}
		s, ok := strtabName(strtab, offs[i])
		if !ok {
			return fmt.Errorf("instance %d's name is not in its string table", id)
		}
		if _, had := names[id]; !had {
			order = append(order, id)
		}
		names[id] = s
	}
	for _, id := range order {
		if s, ok := names[id]; ok {
			in.Instances, in.Names = append(in.Instances, id), append(in.Names, s)
			delete(names, id) // an instance listed twice in order counts once
		}
	}
	return nil
}

// strtabName is the NUL-terminated name at offset o of an instance domain's string table; false
// when o is outside it or the name has no end.
func strtabName(strtab []byte, o int32) (string, bool) {
	if o < 0 || int(o) >= len(strtab) {
		return "", false
	}
	s := strtab[o:]
	end := strings.IndexByte(string(s), 0)
	if end < 0 {
		return "", false
	}
	return string(s[:end]), true
}

// parseLabelSet reads a label record: each set's instance and its JSON text. The layout is the
// one PCP writes (libpcp's __pmLogPutLabels, seen in pmlogger 6.0.3's archives), which differs
// from LOGARCHIVE(5)'s table: after the count of sets, each set in turn is its instance, the
// length of its JSON text, the text, its count of labels and 8 bytes for each label (where its
// name and value are in the text).
func parseLabelSet(r *pcpwire.Fields, version int) (LabelSet, error) {
	ls := LabelSet{Time: stamp(r, version), Type: r.U32(), Ident: r.U32()}
	n := r.Count(12) // an instance, a length and a count at least
	for range n {
		e := LabelJSON{Inst: int32(r.U32())}
		e.JSON = cstr(r.Bytes(int(int32(r.U32()))))
		nl := r.Count(8)
		r.Bytes(8 * nl)
		if r.Bad() {
			return LabelSet{}, errors.New("its label sets run past its end")
		}
		ls.Sets = append(ls.Sets, e)
	}
	if r.Bad() {
		return LabelSet{}, errors.New("its label sets run past its end")
	}
	return ls, nil
}

// labelSize is the size of a version's label record, which begins every file.
func labelSize(version int) int64 {
	if version == 2 {
		return 132
	}
	return 808
}

// readIndex reads the temporal index of part k. The index is a hint (issue 39 item 4), as PCP's
// tools take it: an entry that cannot be right (a time that is not valid or is before the
// entry before it, a volume number below 0, offsets inside the labels) is passed over with a
// warning, and one cut short at the end is the end, as libpcp reads it; where an entry points
// is checked when a cursor starts there (Cursor). Only a label that is not an index's, or a
// file that cannot be read, is an error (a *DamageError for the label).
func (a *Archive) readIndex(fr *frames, k int) error {
	version := a.Parts[k].Label.Version
	l, err := readLabel(fr)
	if err != nil {
		return err
	}
	if l.Version != version {
		return fr.damage(0, "the label is of Version %d, the metadata's of Version %d", l.Version, version)
	}
	if l.Vol != -2 {
		return fr.damage(0, "the label says volume %d, where a temporal index's says -2", l.Vol)
	}
	size := 20
	if version == 3 {
		size = 32
	}
	min := labelSize(version)
	buf := make([]byte, size)
	name := filepath.Base(fr.name)
	for {
		off := fr.off
		k2, err := io.ReadFull(fr.r, buf)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			a.warnf("%s: offset %d: an index entry of %d bytes is cut short after %d: the index ends before it", name, off, size, k2)
			return nil
		}
		if err != nil {
			if zerr := fr.zerr(off, err); zerr != nil {
				return zerr
			}
			return fmt.Errorf("%s: offset %d: %w", fr.name, off, err)
		}
		fr.off += int64(size)
		r := pcpwire.NewFields(buf)
		e := IndexEntry{Time: stamp(r, version), Vol: int32(r.U32()), part: k, off: off}
		if version == 2 {
			e.MetaOff, e.VolumOff = int64(r.U32()), int64(r.U32())
		} else {
			e.MetaOff, e.VolumOff = int64(r.U64()), int64(r.U64())
		}
		var bad string
		switch {
		case isZero(buf):
			// pmlogger never writes one; a file padded with zeros has nothing after.
			a.warnf("%s: offset %d: an index entry of zeros: the index is padded from there, and ends before it", name, off)
			return nil
		case r.Bad():
			bad = "its time is not valid"
		case e.Vol < 0:
			bad = fmt.Sprintf("it names volume %d", e.Vol)
		case e.MetaOff < min || e.VolumOff < min:
			bad = fmt.Sprintf("it says offset %d of the metadata and %d of volume %d, inside their labels (%d bytes)", e.MetaOff, e.VolumOff, e.Vol, min)
		case len(a.Index) > 0 && e.Time.Before(a.Index[len(a.Index)-1].Time):
			bad = fmt.Sprintf("its time %s is before the entry before it (%s)",
				e.Time.UTC().Format(time.RFC3339Nano), a.Index[len(a.Index)-1].Time.UTC().Format(time.RFC3339Nano))
		}
		if bad != "" {
			a.warnf("%s: offset %d: an index entry passed over: %s (the index is a hint; reading goes on from the data)", name, off, bad)
			continue
		}
		if err := a.keep(fr, off, 48); err != nil {
			return err
		}
		a.Index = append(a.Index, e)
	}
}

// isZero says b is all zeros.
func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// readVolume reads a data volume's pmResult records; at a damaged record it stops with a
// *DamageError, returning the records before it.
func readVolume(fr *frames, version, vol int) ([]Result, error) {
	l, err := readLabel(fr)
	if err != nil {
		return nil, err
	}
	if l.Version != version {
		return nil, fr.damage(0, "the label is of Version %d, the metadata's of Version %d", l.Version, version)
	}
	if int(l.Vol) != vol {
		return nil, fr.damage(0, "the label says volume %d, in the file of volume %d", l.Vol, vol)
	}
	fr.one = "a data record"
	var out []Result
	for {
		res, err := fr.result(version)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
}

// result reads the next record of a data volume.
func (fr *frames) result(version int) (Result, error) {
	p, off, err := fr.next()
	if err != nil {
		return Result{}, err
	}
	res, err := parseResult(p, version)
	if err != nil {
		fr.off = off // the reader stays at the damage
		var pe *pcpwire.ProtocolError
		if errors.As(err, &pe) {
			// pcpwire counts an archive record's bytes from its start (its length).
			return Result{}, fr.damage(off, "a data record of %d bytes: at offset %d, %s", len(p)+8, off+int64(pe.Offset), pe.Msg)
		}
		return Result{}, fr.damage(off, "a data record of %d bytes: %s", len(p)+8, err)
	}
	return res, nil
}

// parseResult reads one pmResult, with the decoder of pmcd's PDU_RESULT (pcpwire): the two are
// one encoding. A value block's place is given in 32-bit words from 12 bytes before the
// record's payload (where PCP's PDU header would begin). The result is a new one, whose value
// blocks are copied out of p (the reader's buffer, used again for the next record) into one
// allocation.
func parseResult(p []byte, version int) (Result, error) {
	st := pcpwire.StampArchiveV2
	if version == 3 {
		st = pcpwire.StampArchiveV3
	}
	var res Result
	if err := pcpwire.DecodeResult(p, st, &res); err != nil {
		return Result{}, err // the caller says where: a *DamageError
	}
	n := 0
	for _, s := range res.Sets {
		for _, v := range s.Values {
			n += len(v.Block)
		}
	}
	if n > 0 {
		blocks := make([]byte, 0, n)
		for i := range res.Sets {
			for j := range res.Sets[i].Values {
				if v := &res.Sets[i].Values[j]; v.Block != nil {
					k := len(blocks)
					blocks = append(blocks, v.Block...)
					v.Block = blocks[k:len(blocks):len(blocks)]
				}
			}
		}
	}
	return res, nil
}
