package pcparchive

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

// pcpRun runs a PCP tool in PCP's environment and returns its output.
func pcpRun(t *testing.T, tool string, args ...string) string {
	t.Helper()
	return pcptest.Run(t, tool, args...)
}

// logArchive writes an archive of version v with a real pmlogger, three samples a second apart, of
// single and set-valued metrics of every kind pmcd has here: strings, floats, 32- and 64-bit
// counters and discrete values.
func logArchive(t *testing.T, p *pcptest.PCP, v int) string {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, []byte(`log mandatory on every 1 second {
	kernel.all.load
	hinv.ncpu
	disk.dev.read
	disk.dev.write_bytes
	kernel.uname.release
	mem.physmem
	kernel.all.cpu.user
	kernel.all.pswitch
	network.interface.in.bytes
	filesys.mountdir
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "a")
	pcpRun(t, "pmlogger", "-V", strconv.Itoa(v), "-h", p.Hostspec(), "-c", conf, "-s", "3", "-t", "1",
		"-l", filepath.Join(dir, "log"), base)
	return base
}

// dumpLine is one value as pmdumplog prints it: `<pmid> <inst> <value>`.
var dumpValue = regexp.MustCompile(`^\s+(?:(\d+\.\d+\.\d+) \([^)]*\):)?\s*(?:inst \[(-?\d+) or "[^"]*"\] )?value (.*)$`)

// dumped is every value of the archive at base, in order, as pmdumplog -a prints it.
func dumped(t *testing.T, base string) []string {
	t.Helper()
	var out []string
	pmid := ""
	inData := false
	for _, l := range strings.Split(pcpRun(t, "pmdumplog", "-a", base), "\n") {
		if strings.HasSuffix(l, " metrics") {
			inData = true
			continue
		}
		if !inData {
			continue
		}
		if m := regexp.MustCompile(`^\s+(\d+\.\d+\.\d+) \([^)]*\):\s*$`).FindStringSubmatch(l); m != nil {
			pmid = m[1]
			continue
		}
		m := dumpValue.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] != "" {
			pmid = m[1]
		}
		inst := m[2]
		if inst == "" {
			inst = "-1"
		}
		out = append(out, pmid+" "+inst+" "+m[3])
	}
	return out
}

// ours is every value of the archive as this package reads it (a cursor over its volumes, and
// over every archive of a folder), printed as pmdumplog does.
func ours(t *testing.T, a *Archive) []string {
	t.Helper()
	var out []string
	c, err := a.Cursor(time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for {
		r, err := c.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		{
			for _, s := range r.Sets {
				d := a.Desc(s.PMID)
				if d == nil {
					t.Fatalf("a value of pmid %s, which has no description", PMIDString(s.PMID))
				}
				for _, v := range s.Values {
					var text string
					switch d.Type {
					case TypeString:
						text = strconv.Quote(v.StringValue())
					case TypeFloat, TypeDouble:
						f, err := v.Float64(d.Type)
						if err != nil {
							t.Fatal(err)
						}
						text = "~" + strconv.FormatFloat(f, 'g', -1, 64)
					default:
						n, err := v.Uint64(d.Type)
						if err != nil {
							t.Fatal(err)
						}
						text = strconv.FormatUint(n, 10)
						if d.Type == Type32 || d.Type == Type64 {
							text = strconv.FormatInt(int64(n), 10)
						}
					}
					out = append(out, fmt.Sprintf("%s %d %s", PMIDString(s.PMID), v.Inst, text))
				}
			}
		}
	}
	return out
}

// same compares one of ours with one of pmdumplog's: floats to pmdumplog's printed precision.
func sameValue(ours, theirs string) bool {
	if ours == theirs {
		return true
	}
	o := strings.SplitN(ours, " ", 3)
	th := strings.SplitN(theirs, " ", 3)
	if len(o) != 3 || len(th) != 3 || o[0] != th[0] || o[1] != th[1] || !strings.HasPrefix(o[2], "~") {
		return false
	}
	x, err1 := strconv.ParseFloat(o[2][1:], 64)
	y, err2 := strconv.ParseFloat(th[2], 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-3*math.Max(1, math.Abs(y))
}

// Issue 15: archives a real pmlogger wrote, of both versions, read as PCP's own pmdumplog reads
// them: the label, every metric's description and names, the instance domains, and every value
// of every record.
func TestReadsPMLoggerArchives(t *testing.T) {
	p := pcptest.Start(t)
	for _, v := range []int{2, 3} {
		t.Run(fmt.Sprintf("version%d", v), func(t *testing.T) {
			base := logArchive(t, p, v)
			a, err := Open(base)
			if err != nil {
				t.Fatal(err)
			}
			if a.Label.Version != v || a.Label.Host == "" || a.Label.Start.IsZero() {
				t.Errorf("label %+v", a.Label)
			}
			dump := pcpRun(t, "pmdumplog", "-a", base)
			if !strings.Contains(dump, "Performance metrics from host "+a.Label.Host) {
				t.Errorf("host %q, pmdumplog says\n%s", a.Label.Host, dump[:min(len(dump), 300)])
			}
			for _, d := range a.Descs {
				want := fmt.Sprintf("PMID: %s (%s)", PMIDString(d.PMID), d.Names[0])
				if !strings.Contains(dump, want) {
					t.Errorf("%s is not in pmdumplog's descriptions", want)
				}
			}
			for _, in := range a.InDoms {
				for i, id := range in.Instances {
					if want := fmt.Sprintf("   %d or %q", id, in.Names[i]); !strings.Contains(dump, want) {
						t.Errorf("instance domain %s: %s is not in pmdumplog's", InDomString(in.InDom), want)
					}
				}
			}
			if len(a.Index) == 0 {
				t.Error("no temporal index")
			}
			got, want := ours(t, a), dumped(t, base)
			if len(got) != len(want) || len(got) < 20 {
				t.Fatalf("%d values, pmdumplog has %d:\nours %q\ntheirs %q", len(got), len(want), got, want)
			}
			for i := range got {
				if !sameValue(got[i], want[i]) {
					t.Errorf("value %d: %s, pmdumplog %s", i, got[i], want[i])
				}
			}
		})
	}
}

// An archive cut short, as by a writer killed or a full disk, reads up to the cut with an error
// that says where; a file that is not an archive is an error naming it.
func TestTruncatedAndForeign(t *testing.T) {
	p := pcptest.Start(t)
	base := logArchive(t, p, 3)
	b, err := os.ReadFile(base + ".0")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Open(base)
	if err != nil {
		t.Fatal(err)
	}
	all, err := a.ReadVolume(0)
	if err != nil || len(all) < 3 {
		t.Fatalf("%d records, %v", len(all), err)
	}
	if err := os.WriteFile(base+".0", b[:len(b)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	part, err := a.ReadVolume(0)
	if err == nil || len(part) != len(all)-1 || !strings.Contains(err.Error(), "byte") {
		t.Errorf("a cut volume: %d of %d records, error %v", len(part), len(all), err)
	}
	if err := os.WriteFile(base+".meta", []byte("this is not an archive at all, not at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(base); err == nil || !strings.Contains(err.Error(), "a.meta") {
		t.Errorf("a foreign .meta: %v", err)
	}
}
