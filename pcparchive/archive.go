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
// (FuzzParse*). It imports nothing of dcimon's but pcpwire and internal/regular (the
// archive's files are opened without blocking on one that is not a regular file).
//
// Writer writes archives that PCP's own tools read (pmlogcheck finds nothing wrong, pmdumplog
// shows what was written: TestWriterReadByPCP), in volumes begun by size as pmlogger -v does.
// dcimon record writes through it; --archive (the headless commands and the monitor's replay)
// reads through Open and Cursor.
package pcparchive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"dcimon/internal/regular"
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

// PM_TYPE_* values.
const (
	Type32       = 0
	TypeU32      = 1
	Type64       = 2
	TypeU64      = 3
	TypeFloat    = 4
	TypeDouble   = 5
	TypeString   = 6
	TypeAggr     = 7
	TypeAggrStat = 8
	TypeEvent    = 9
	TypeHREvent  = 10
	TypeNoSupp   = -1
)

// InDomNull is PM_INDOM_NULL, the instance domain of a metric with a single value.
const InDomNull = 0xffffffff

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
}

// Result is one pmResult record: a fetch at Time (no value sets: a mark, a gap in logging).
type Result struct {
	Time time.Time
	Sets []ValueSet
}

// ValueSet is one metric's values in a Result; Err is the PCP error code when it has none.
type ValueSet struct {
	PMID   uint32
	Err    int32
	Values []Value
}

// Value is one instance's value as recorded: a 32-bit value kept in the set (Insitu) or a
// value block (its type and bytes).
type Value struct {
	Inst      int32
	Insitu    bool
	Word      uint32
	BlockType uint8
	Block     []byte
}

// Archive is an archive's metadata and index, opened by Open; the volumes are read as asked.
type Archive struct {
	Base    string
	Label   Label
	Descs   []Desc
	InDoms  []InDom
	Labels  []LabelSet
	Texts   []Text
	Index   []IndexEntry
	Volumes []int // the volume numbers there are, in order
	// MetaCut says the metadata file ends inside a record (its writer was killed or ran out of
	// room): what that record would have described is not described.
	MetaCut bool

	descAt map[uint32]int // by pmid: its description's place in Descs
}

// Bounds of the files read whole: a metadata file, an index or a volume longer than these (or
// /dev/zero named as one) is an error naming it, not an allocation of whatever it holds. A V2
// volume's offsets are 32 bits, so no real volume is longer than 4 GiB; pmlogger's metadata and
// index are kilobytes to a few megabytes.
const (
	maxMeta   = 256 << 20
	maxIndex  = 256 << 20
	maxVolume = 4 << 30
)

// Open reads the label, metadata and temporal index of the archive at base (the path without
// .meta; a path to one of its files is taken too). A missing index is not an error: the index
// is optional.
func Open(base string) (*Archive, error) {
	base = baseOf(base)
	meta, err := regular.ReadFile(context.Background(), base+".meta", maxMeta)
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", base, err)
	}
	a := &Archive{Base: base}
	if err := a.parseMeta(meta); err != nil {
		return nil, fmt.Errorf("archive %s: %s.meta: %w", base, filepath.Base(base), err)
	}
	if idx, err := regular.ReadFile(context.Background(), base+".index", maxIndex); err == nil {
		if a.Index, err = parseIndex(idx, a.Label.Version); err != nil {
			return nil, fmt.Errorf("archive %s: %s.index: %w", base, filepath.Base(base), err)
		}
	}
	vols, _ := filepath.Glob(base + ".[0-9]*")
	for _, v := range vols {
		if n, err := strconv.Atoi(strings.TrimPrefix(v, base+".")); err == nil && n >= 0 {
			a.Volumes = append(a.Volumes, n)
		}
	}
	sort.Ints(a.Volumes)
	if len(a.Volumes) == 0 {
		return nil, fmt.Errorf("archive %s: no data volume (%s.0)", base, filepath.Base(base))
	}
	return a, nil
}

// baseOf is an archive's base from the base or a path to one of its files.
func baseOf(path string) string {
	for _, suf := range []string{".meta", ".index"} {
		path = strings.TrimSuffix(path, suf)
	}
	if ext := filepath.Ext(path); len(ext) > 1 {
		if _, err := strconv.Atoi(ext[1:]); err == nil {
			path = strings.TrimSuffix(path, ext)
		}
	}
	return path
}

// ReadLabel reads an archive's label alone (its host, zone and start), from the head of its
// metadata file: what Open reads first, without the rest of the metadata.
func ReadLabel(base string) (Label, error) {
	base = baseOf(base)
	f, err := regular.Open(base + ".meta")
	if err != nil {
		return Label{}, fmt.Errorf("archive %s: %w", base, err)
	}
	defer f.Close()
	head := make([]byte, 808) // the largest label record: Version 3's
	n, _ := io.ReadFull(f, head)
	l, _, err := parseLabel(head[:n])
	if err != nil {
		return Label{}, fmt.Errorf("archive %s: %s.meta: %w", base, filepath.Base(base), err)
	}
	return l, nil
}

// ReadVolume reads every pmResult of volume n, in the order written. A volume cut short (the
// writer killed, a full disk) yields the records before the cut and an error saying where.
func (a *Archive) ReadVolume(n int) ([]Result, error) {
	b, err := regular.ReadFile(context.Background(), a.Base+"."+strconv.Itoa(n), maxVolume)
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", a.Base, err)
	}
	rs, err := parseVolume(b, a.Label.Version)
	if err != nil {
		err = fmt.Errorf("archive %s: volume %d: %w", a.Base, n, err)
	}
	return rs, err
}

// Desc returns the description of pmid, or nil.
func (a *Archive) Desc(pmid uint32) *Desc {
	if i, ok := a.descAt[pmid]; ok {
		return &a.Descs[i]
	}
	return nil
}

// PMIDString is a pmid as PCP prints it: domain.cluster.item.
func PMIDString(pmid uint32) string {
	return fmt.Sprintf("%d.%d.%d", pmid>>22&0x1ff, pmid>>10&0xfff, pmid&0x3ff)
}

// InDomString is an instance domain as PCP prints it: domain.serial.
func InDomString(indom uint32) string {
	if indom == InDomNull {
		return "PM_INDOM_NULL"
	}
	return fmt.Sprintf("%d.%d", indom>>22&0x1ff, indom&0x3fffff)
}
