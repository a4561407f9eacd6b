// Package pcparchive reads Performance Co-Pilot archives, the format pmlogger writes and every
// PCP tool reads (issue 15), as LOGARCHIVE(5) describes it: Versions 2 and 3 of the archive
// label ("ARCHIVE LABEL"), the data volumes' pmResult records with their pmValueSets, pmValues
// and pmValueBlocks ("ARCHIVE VOLUME RECORDS"), the metadata file's metric descriptions, full
// and delta instance domains, label sets and help texts ("METADATA FILE RECORDS"), and the
// temporal index ("INDEX FILE RECORDS"). Everything is big-endian; volume and metadata records
// are framed by their length, before and after.
//
// An archive is outside data: a truncated or hostile file is an error, never a panic, a hang or
// an allocation sized by a length field it has not checked against the bytes there are
// (FuzzParse*). It imports nothing of dcimon's.
//
// Writer writes archives that PCP's own tools read (pmlogcheck finds nothing wrong, pmdumplog
// shows what was written: TestWriterReadByPCP), in volumes begun by size as pmlogger -v does.
// dcimon record writes through it; --archive (the headless commands and the monitor's replay)
// reads through Open and Cursor.
package pcparchive

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dcimon/pcpwire"
)

// ErrFormat is wrapped by every error about an archive's contents.
var ErrFormat = errors.New("not a valid PCP archive")

// Label is an archive label: the same in every file of an archive but for Vol.
type Label struct {
	Version  int // 2 or 3
	PID      int32
	Start    time.Time
	Vol      int32 // the volume number, -1 for .meta, -2 for .index
	Features uint32
	Host     string
	TZ       string // the collection host's $TZ, e.g. "UTC", "AEDT-11"
	Zoneinfo string // Version 3: e.g. ":Australia/Melbourne"
}

// PM_TYPE_* values: pcpwire's (one encoding of PCP's types).
const (
	Type32       = pcpwire.Type32
	TypeU32      = pcpwire.TypeU32
	Type64       = pcpwire.Type64
	TypeU64      = pcpwire.TypeU64
	TypeFloat    = pcpwire.TypeFloat
	TypeDouble   = pcpwire.TypeDouble
	TypeString   = pcpwire.TypeString
	TypeAggr     = pcpwire.TypeAggregate
	TypeAggrStat = pcpwire.TypeAggrStat
	TypeEvent    = pcpwire.TypeEvent
	TypeHREvent  = pcpwire.TypeHREvent
	TypeNoSupp   = pcpwire.TypeNoSupport
)

// InDomNull is PM_INDOM_NULL, the instance domain of a metric with a single value.
const InDomNull = pcpwire.InDomNull

// Desc is a metric description (pmDesc) and the metric's names.
type Desc struct {
	PMID  uint32
	Type  int32
	InDom uint32
	Sem   int32
	Units uint32 // bit-packed pmUnits
	Names []string
}

// InDom is one observation of an instance domain at a time: instance numbers and their names.
type InDom struct {
	Time      time.Time
	InDom     uint32
	Instances []int32
	Names     []string
}

// LabelSet is one record of labels: for the context, a domain, an instance domain, a cluster,
// an item or instances (Type, PM_LABEL_*), each set JSON text for an instance (or -1).
type LabelSet struct {
	Time  time.Time
	Type  uint32
	Ident uint32
	Sets  []LabelJSON
}

// LabelJSON is one instance's labels as a JSON object.
type LabelJSON struct {
	Inst int32
	JSON string
}

// Text is a help text of a metric or instance domain (Type is PM_TEXT_*).
type Text struct {
	Type  uint32
	Ident uint32
	Text  string
}

// IndexEntry is one entry of the temporal index: at Time, the volume and the byte offsets in it
// and in the metadata file up to which every record is before Time.
type IndexEntry struct {
	Time     time.Time
	Vol      int32
	MetaOff  int64
	VolumOff int64
	part     int   // the archive of an Archive's Parts it is of
	off      int64 // its offset in its index file
}

// Result is one pmResult record: a fetch at Time (no value sets: a mark, a gap in logging).
// It is pcpwire's: an archive's data record and pmcd's PDU_RESULT are one encoding, read by one
// decoder (issue 38 item 2). A Result a Cursor gives owns its value blocks.
type Result = pcpwire.Result

// ValueSet is one metric's values in a Result; Err is the PCP error code when it has none.
type ValueSet = pcpwire.ValueSet

// Value is one instance's value as recorded: a 32-bit value kept in the set (Insitu) or a
// value block (its type and bytes). Its Uint64, Float64 and StringValue read it as its
// metric's type.
type Value = pcpwire.Value

// Archive is an archive's metadata and index, opened by Open; the volumes are read as asked.
// Several archives of one host (a folder of pmlogger_daily's) are one Archive: their metadata
// merged, their indexes and volumes one after another in time order, as PCP's multi-archive
// contexts read them.
type Archive struct {
	Base    string // as given: the base, or the folder
	Label   Label  // the first archive's (every archive's host is the same)
	Descs   []Desc
	InDoms  []InDom
	Labels  []LabelSet
	Texts   []Text
	Index   []IndexEntry
	Volumes []int // the volume numbers there are of the first archive, in order
	// Parts are the archives read as one, in time order: one for a single archive.
	Parts []Part

	descAt map[uint32]int // by pmid: its description's place in Descs
	kept   int64          // the bytes of metadata and index kept (maxMetaKept)
	vols   []volume       // every part's volumes, in order

	mu       sync.Mutex
	warnings []string // Notes
	// badEntries are the index entries a cursor found not to point where a record begins.
	badEntries map[int]bool
	idle       *idlePool // compressed volumes a cursor let go of, kept for the next

	decompressed atomic.Int64 // Decompressed
}

// Part is one archive of those an Archive reads as one.
type Part struct {
	Base  string
	Label Label
	// Files are the files read, as found: BASE.meta.xz, BASE.index, BASE.0.xz.
	Files []string
	// Seek says, for each compressed volume, what a seek in it costs (decompress.Reader.Cost).
	Seek map[string]string
}

// volume is one data volume of one part.
type volume struct {
	part, num int
	path      string
}

// Compressed says whether any file of the archive is compressed.
func (a *Archive) Compressed() bool {
	for _, p := range a.Parts {
		for _, f := range p.Files {
			if compressedName(f) {
				return true
			}
		}
	}
	return false
}

// warnf adds a warning: what was passed over and why, for people (Notes).
func (a *Archive) warnf(format string, args ...any) {
	a.mu.Lock()
	if len(a.warnings) < maxWarnings {
		a.warnings = append(a.warnings, fmt.Sprintf(format, args...))
	}
	a.mu.Unlock()
}

// maxWarnings bounds the warnings kept: an index of a million bad entries says so once each
// for the first few.
const maxWarnings = 20

// Notes are what the archive says of itself for people: for a compressed archive, which files
// are and what a seek costs; then the warnings so far, of what was passed over and why (index
// entries that cannot be right, as the index is a hint and reading goes on from the data;
// archives of a folder that could not be read, or that overlap the one before).
func (a *Archive) Notes() []string {
	var out []string
	for _, p := range a.Parts {
		var z []string
		for _, f := range p.Files {
			if compressedName(f) {
				z = append(z, filepath.Base(f))
			}
		}
		if len(z) == 0 {
			continue
		}
		s := "compressed: " + strings.Join(z, ", ")
		names := make([]string, 0, len(p.Seek))
		for f := range p.Seek {
			names = append(names, f)
		}
		sort.Strings(names)
		for _, f := range names {
			s += "; " + filepath.Base(f) + ": " + p.Seek[f]
		}
		out = append(out, s)
	}
	return append(out, a.Warnings()...)
}

// Warnings are the archive's warnings so far: what was passed over and why (Notes).
func (a *Archive) Warnings() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.warnings)
}

// Open reads the label, metadata and temporal index of the archive name names (Resolve): a
// base (the path without .meta), a path to one of its files, or a folder of archives of one
// host read as one, in time order (pmlogger_daily's HOST/ folder). Each file may be compressed
// (xz, bzip2, gzip), as pmlogger_daily leaves them. A missing index is not an error: the index
// is optional. A file that is not a regular one (a named pipe, a device, a directory) is
// refused at once, never read.
//
// A damaged record of the metadata or the index (issue 30) is an error (a *DamageError; two,
// joined, when both files are damaged), returned with the archive as read before it: its
// descriptions, instance domains and index entries up to the damage, and its volumes. Only a
// label that cannot be read, or a file that cannot be opened, returns no archive.
//
// Of a folder, as PCP's multi-archive contexts do: archives whose label cannot be read are
// passed over (a warning), one of another host is refused (PCP's PM_ERR_LOGHOST), two that
// begin at the same time are refused (PM_ERR_LOGOVERLAP), and the records of an archive that
// are not after the last of the one before are passed over (a warning).
func Open(name string) (*Archive, error) {
	bases, folder, err := Resolve(name)
	if err != nil {
		return nil, err
	}
	a := &Archive{Base: bases[0], idle: &idlePool{}}
	runtime.AddCleanup(a, func(p *idlePool) { p.close() }, a.idle)
	if folder {
		a.Base = name
		if bases, err = a.order(bases); err != nil {
			return nil, err
		}
	}
	var errs []error
	for k, b := range bases {
		if err := a.addPart(b, k); err != nil {
			var d *DamageError
			if !errors.As(err, &d) || len(a.Parts) <= k {
				return nil, err
			}
			errs = append(errs, err)
		}
	}
	a.Label = a.Parts[0].Label
	for _, v := range a.vols {
		if v.part == 0 {
			a.Volumes = append(a.Volumes, v.num)
		}
	}
	return a, errors.Join(errs...)
}

// order sorts a folder's archives by their start, passing over those whose label cannot be
// read, and refuses archives of several hosts or two that begin together.
func (a *Archive) order(bases []string) ([]string, error) {
	type lb struct {
		base string
		l    Label
	}
	var ls []lb
	for _, b := range bases {
		l, err := readLabelOf(b)
		if err != nil {
			a.warnf("%s: passed over, as PCP does: %v", filepath.Base(b), err)
			continue
		}
		ls = append(ls, lb{b, l})
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("archive %s: no archive of the folder can be read: %s", a.Base, strings.Join(a.warnings, "; "))
	}
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].l.Start.Before(ls[j].l.Start) })
	out := make([]string, len(ls))
	for i, x := range ls {
		switch {
		case x.l.Host != ls[0].l.Host:
			return nil, fmt.Errorf("archive %s: %s is of host %q, %s of host %q: a folder is one host's archives (PCP: archives differ by host)",
				a.Base, filepath.Base(x.base), x.l.Host, filepath.Base(ls[0].base), ls[0].l.Host)
		case i > 0 && x.l.Start.Equal(ls[i-1].l.Start):
			return nil, fmt.Errorf("archive %s: %s and %s both begin at %s (PCP: archives overlap in time)",
				a.Base, filepath.Base(ls[i-1].base), filepath.Base(x.base), x.l.Start.UTC().Format(time.RFC3339Nano))
		}
		out[i] = x.base
	}
	return out, nil
}

// addPart reads archive k of those opened: its label, metadata, index and volumes.
func (a *Archive) addPart(base string, k int) error {
	p := Part{Base: base, Seek: map[string]string{}}
	name, err := findFile(base, ".meta")
	if err != nil {
		return fmt.Errorf("archive %s: %w", base, err)
	}
	f, err := openFile(name)
	if err != nil {
		return fmt.Errorf("archive %s: %w", base, err)
	}
	p.Files = append(p.Files, name)
	fr := newFrames(name, f, f.size, 0)
	fr.file = f
	metaErr := a.readMeta(fr, &p)
	f.Close()
	var d *DamageError
	if metaErr != nil && (!errors.As(metaErr, &d) || p.Label.Version == 0) {
		return metaErr // no label, or a file that could not be read
	}
	if k > 0 && p.Label.Host != a.Parts[0].Label.Host {
		return fmt.Errorf("archive %s: of host %q, the first of host %q (PCP: archives differ by host)", base, p.Label.Host, a.Parts[0].Label.Host)
	}
	a.Parts = append(a.Parts, p)
	pp := &a.Parts[len(a.Parts)-1]
	var indexErr error
	if name, err := findFile(base, ".index"); err == nil {
		f, err := openFile(name)
		if err != nil {
			return fmt.Errorf("archive %s: %w", base, err)
		}
		pp.Files = append(pp.Files, name)
		indexErr = a.readIndex(newFrames(name, f, f.size, 0), k)
		f.Close()
		if indexErr != nil && !errors.As(indexErr, &d) {
			return indexErr
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("archive %s: %w", base, err)
	}
	nums, paths, err := volumeFiles(base)
	if err != nil {
		return fmt.Errorf("archive %s: %w", base, err)
	}
	for _, n := range nums {
		f, err := openFile(paths[n])
		if err != nil {
			return fmt.Errorf("archive %s: %w", base, err)
		}
		if f.z != nil {
			pp.Seek[paths[n]] = f.z.Cost()
		}
		f.Close()
		pp.Files = append(pp.Files, paths[n])
		a.vols = append(a.vols, volume{part: k, num: n, path: paths[n]})
	}
	if len(nums) == 0 {
		return fmt.Errorf("archive %s: no data volume (%s.0)", base, filepath.Base(base))
	}
	return errors.Join(metaErr, indexErr)
}

// ReadLabel reads an archive's label alone (its host, zone and start), from the head of its
// metadata file: what Open reads first, without the rest of the metadata. Of a folder, the
// label of the archive that begins first.
func ReadLabel(name string) (Label, error) {
	bases, _, err := Resolve(name)
	if err != nil {
		return Label{}, err
	}
	var first Label
	var errs []error
	for _, b := range bases {
		l, err := readLabelOf(b)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if first.Version == 0 || l.Start.Before(first.Start) {
			first = l
		}
	}
	if first.Version == 0 {
		return Label{}, errors.Join(errs...)
	}
	return first, nil
}

// readLabelOf reads the label of the archive at base.
func readLabelOf(base string) (Label, error) {
	name, err := findFile(base, ".meta")
	if err != nil {
		return Label{}, fmt.Errorf("archive %s: %w", base, err)
	}
	f, err := openFile(name)
	if err != nil {
		return Label{}, fmt.Errorf("archive %s: %w", base, err)
	}
	defer f.Close()
	return readLabel(newFrames(name, f, f.size, 0))
}

// ReadVolume reads every pmResult of volume n (of the first archive), in the order written. A
// volume with a damaged record (cut short by a writer killed or out of room, or broken) yields
// the records before it and a *DamageError saying where and what.
func (a *Archive) ReadVolume(n int) ([]Result, error) {
	for _, v := range a.vols {
		if v.part == 0 && v.num == n {
			f, err := openFile(v.path)
			if err != nil {
				return nil, fmt.Errorf("archive %s: %w", a.Base, err)
			}
			defer f.Close()
			fr := newFrames(v.path, f, f.size, 0)
			fr.file = f
			return readVolume(fr, a.Label.Version, n)
		}
	}
	return nil, fmt.Errorf("archive %s: no volume %d", a.Base, n)
}

// Close lets go of the compressed volumes kept for cursors to come (an archive no longer
// reachable lets go of them too).
func (a *Archive) Close() error { return a.idle.close() }

// Desc returns the description of pmid, or nil.
func (a *Archive) Desc(pmid uint32) *Desc {
	if i, ok := a.descAt[pmid]; ok {
		return &a.Descs[i]
	}
	return nil
}

// PMIDString is a pmid as PCP prints it: domain.cluster.item (pcpwire's).
func PMIDString(pmid uint32) string { return pcpwire.PMIDString(pmid) }

// InDomString is an instance domain as PCP prints it: domain.serial (pcpwire's).
func InDomString(indom uint32) string { return pcpwire.InDomString(indom) }
