package linux

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// addFixtureSeeds adds every fixture file with the given relative path (proc/stat, ...) to the corpus.
func addFixtureSeeds(f *testing.F, rel string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*", "t[01]", rel))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// countLines counts the lines that hold something other than white space.
func countLines(data []byte) int {
	n := 0
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		if len(trimSpace(line)) > 0 {
			n++
		}
	}
	return n
}

func FuzzParseDiskstats(f *testing.F) {
	addFixtureSeeds(f, "proc/diskstats")
	f.Add([]byte("8 0 sda 1 2 3 4 5 6 7 8 9 10 11"))
	f.Add([]byte("8 0 sda 36028797018963968 2 3 4 5 6 7 8 9 10 11\n4294967296 0 x"))
	prev, _ := parseDiskstats("seed", readFixture(f, "basic/t0/proc/diskstats"), nil, 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseDiskstats("fuzz", data, nil, 0)
		// Reusing storage that holds another parse gives the same answer.
		reused, err2 := parseDiskstats("fuzz", data, slices.Clone(prev), 0)
		if !slices.Equal(got, reused) || (err == nil) != (err2 == nil) {
			t.Fatalf("reuse changed the result:\n%+v\n%+v", got, reused)
		}
		if err == nil && len(got) != countLines(data) {
			t.Fatalf("no error but %d of %d lines parsed", len(got), countLines(data))
		}
		if len(got) > countLines(data) {
			t.Fatalf("%d disks from %d lines", len(got), countLines(data))
		}
		for _, d := range got {
			if d.columns < 11 || d.columns > int(numDiskCols) {
				t.Fatalf("columns = %d", d.columns)
			}
			if d.name == "" || bytes.ContainsAny([]byte(d.name), " \t\n") || !bytes.Contains(data, []byte(d.name)) {
				t.Fatalf("bad name %q", d.name)
			}
			for _, c := range []diskCol{diskReadBytes, diskWriteBytes, diskDiscardBytes} {
				if d.v[c]%sectorSize != 0 {
					t.Fatalf("%s = %d is not whole sectors", c, d.v[c])
				}
			}
		}
	})
}

func FuzzParseNetDev(f *testing.F) {
	addFixtureSeeds(f, "proc/net/dev")
	f.Add([]byte(netDevHeader + "a:b: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"))
	f.Add([]byte(":\n: 1\n"))
	prev, _ := parseNetDev("seed", readFixture(f, "basic/t0/proc/net/dev"), nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseNetDev("fuzz", data, nil)
		reused, err2 := parseNetDev("fuzz", data, slices.Clone(prev))
		if !slices.Equal(got, reused) || (err == nil) != (err2 == nil) {
			t.Fatalf("reuse changed the result:\n%+v\n%+v", got, reused)
		}
		if len(got) > countLines(data) {
			t.Fatalf("%d interfaces from %d lines", len(got), countLines(data))
		}
		for _, n := range got {
			if n.name == "" || !bytes.Equal(trimSpace([]byte(n.name)), []byte(n.name)) || !bytes.Contains(data, []byte(n.name)) {
				t.Fatalf("bad name %q", n.name)
			}
		}
	})
}

func FuzzParseStat(f *testing.F) {
	addFixtureSeeds(f, "proc/stat")
	f.Add([]byte("cpu 1 2 3 4\ncpu99999999999 1 2 3 4\nctxt 18446744073709551615\n"))
	f.Add([]byte("cpu1073741825 1 2 3 4\n"))
	var prev procStat
	_ = parseStat("seed", readFixture(f, "basic/t0/proc/stat"), &prev)
	f.Fuzz(func(t *testing.T, data []byte) {
		var got procStat
		err := parseStat("fuzz", data, &got)
		reused := prev
		reused.cpus = slices.Clone(prev.cpus)
		err2 := parseStat("fuzz", data, &reused)
		if got.total != reused.total || !slices.Equal(got.cpus, reused.cpus) || got.vals != reused.vals ||
			got.present != reused.present || (err == nil) != (err2 == nil) {
			t.Fatalf("reuse changed the result:\n%+v\n%+v", got, reused)
		}
		if got.total.cpu != -1 || (got.total.columns != 0 && (got.total.columns < 4 || got.total.columns > int(numCPUTimes))) {
			t.Fatalf("total = %+v", got.total)
		}
		for _, c := range got.cpus {
			if c.cpu < 0 || (!c.bad && c.columns < 4) || c.columns > int(numCPUTimes) || (c.bad && c.columns != 0) {
				t.Fatalf("cpu = %+v", c)
			}
		}
		if got.present>>numStatKeys != 0 {
			t.Fatalf("present = %b", got.present)
		}
	})
}
