package archivetest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"dcimon/pcparchive"
)

// Spec is the shape of a generated archive: how many metrics, how many records, how far apart.
type Spec struct {
	Name     string // names its place in the cache
	Metrics  int
	Records  int
	Interval time.Duration
}

// Day is the archive of issue 30's seek budget: 160 metrics at 1 s for 24 hours, 86,400 records,
// about 424 MB (140 64-bit counters in value blocks and 20 32-bit values in the sets, as
// pmlogger writes them: 4,904 bytes a record).
var Day = Spec{Name: "day", Metrics: 160, Records: 86400, Interval: time.Second}

// TenMinutes is Day's shape for 10 minutes (600 records, about 3 MB): what CI reads.
var TenMinutes = Spec{Name: "tenminutes", Metrics: 160, Records: 600, Interval: time.Second}

// genVersion keys the cache: change it whenever Generate writes anything different.
const genVersion = "1"

// counters is how many of a spec's metrics are 64-bit counters; the rest are 32-bit values.
func (s Spec) counters() int { return s.Metrics * 7 / 8 }

// PMID is metric i's pmid (domain 245, cluster 0, item i).
func PMID(i int) uint32 { return pcparchive.PMID(245, uint32(i/1024), uint32(i%1024)) }

// Value is what metric i holds in record k: a counter rising by i+1 a second, or for a 32-bit
// value, one that says its record and metric. Every value is known, so a reader's is checked.
func (s Spec) Value(i, k int) uint64 {
	if i < s.counters() {
		return uint64(k)*uint64(i+1) + 1<<40
	}
	return uint64(k%100000)*1000 + uint64(i)
}

// Time is record k's time.
func (s Spec) Time(k int) time.Time { return Start.Add(time.Duration(k) * s.Interval) }

// Generate writes the archive of spec at base with dcimon's own writer (Version 3, an index
// entry every 60 records), streamed: one record at a time, built in the same buffers, so that
// memory does not grow with the archive's length.
func Generate(base string, s Spec) error {
	w, err := pcparchive.Create(base, 3, pcparchive.Label{PID: 1, Host: "day", TZ: "UTC", Zoneinfo: ":UTC", Start: Start})
	if err != nil {
		return err
	}
	for i := range s.Metrics {
		d := pcparchive.Desc{PMID: PMID(i), Type: pcparchive.TypeU64, InDom: pcparchive.InDomNull, Sem: 1,
			Units: pcparchive.CountUnits, Names: []string{fmt.Sprintf("archivetest.counter%03d", i)}}
		if i >= s.counters() {
			d.Type, d.Sem, d.Units, d.Names = pcparchive.TypeU32, 3, 0, []string{fmt.Sprintf("archivetest.value%03d", i)}
		}
		if err := w.PutDesc(d); err != nil {
			w.Close()
			return err
		}
	}
	sets := make([]pcparchive.OutSet, s.Metrics)
	vals := make([]pcparchive.OutValue, s.Metrics)
	for i := range sets {
		sets[i] = pcparchive.OutSet{PMID: PMID(i), Values: vals[i : i+1]}
	}
	for k := range s.Records {
		for i := range vals {
			vals[i] = pcparchive.OutValue{Inst: -1, N: s.Value(i, k)}
		}
		if err := w.PutResult(s.Time(k), sets); err != nil {
			w.Close()
			return err
		}
	}
	return w.CloseAt(s.Time(s.Records - 1))
}

// Cached is the base of the archive of spec, generated once per machine into the user's cache
// directory ($XDG_CACHE_HOME or ~/.cache; the system's temporary directory without one), in a
// directory keyed by genVersion (see cachedDir).
func Cached(tb testing.TB, s Spec) string {
	tb.Helper()
	root, err := os.UserCacheDir()
	if err != nil {
		root = os.TempDir()
	}
	root = filepath.Join(root, "dcimon-archivetest")
	dir := filepath.Join(root, s.Name+"-v"+genVersion)
	return cachedDir(tb, dir, "generated", s.Name, func(base string) error { return Generate(base, s) })
}

// cachedDir is the base of the archive in dir ("a"), made by build unless it is there already:
// into a temporary directory beside dir that is then renamed into place whole, so that a making
// interrupted, or two at once, never leave half an archive there. done says what build did, for
// the log ("generated").
func cachedDir(tb testing.TB, dir, done, name string, build func(base string) error) string {
	tb.Helper()
	base := filepath.Join(dir, "a")
	if _, err := os.Stat(base + ".index"); err == nil {
		return base
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		tb.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "making-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(tmp) // all that is left of it when build failed
	start := time.Now()
	if err := build(filepath.Join(tmp, "a")); err != nil {
		tb.Fatalf("making the %s archive: %v", name, err)
	}
	// A rename onto a directory with files fails: another process made it first.
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, fs.ErrExist) && !isNotEmpty(err) {
		tb.Fatal(err)
	}
	tb.Logf("%s the %s archive at %s in %v", done, name, base, time.Since(start).Round(time.Millisecond))
	return base
}

// isNotEmpty says a rename failed because its target is a directory with files (ENOTEMPTY).
func isNotEmpty(err error) bool {
	var le *os.LinkError
	return errors.As(err, &le) && le.Err != nil && le.Err.Error() == "directory not empty"
}
