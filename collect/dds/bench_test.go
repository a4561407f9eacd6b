package dds

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dcimon/collect"
	ns "dcimon/namespace"
	"dcimon/supply"
)

// ddsBenchFile writes a file of fams families with series label sets each.
func ddsBenchFile(b testing.TB, dir string, fams, series int) string {
	var sb strings.Builder
	for f := range fams {
		fmt.Fprintf(&sb, "# HELP fam%d Family %d.\n# TYPE fam%d gauge\n", f, f, f)
		for s := range series {
			fmt.Fprintf(&sb, "fam%d{dev=\"d%d\"} %d\n", f, s, f*s)
		}
	}
	p := filepath.Join(dir, "bench.prom")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// collectedSupplier is the one supplier of a directory holding a file of fams families with
// series label sets each (ddsBenchFile), after its first collection, and the file's path.
func collectedSupplier(tb testing.TB, fams, series int) (collect.Provider, string) {
	dir := tb.TempDir()
	p := ddsBenchFile(tb, dir, fams, series)
	ps, err := New(Options{Dirs: []string{dir}}).Discover(context.Background())
	if err != nil || len(ps) != 1 {
		tb.Fatal(err, len(ps))
	}
	if _, err := ps[0].Collect(context.Background(), collect.Request{Static: true}); err != nil {
		tb.Fatal(err)
	}
	return ps[0], p
}

// BenchmarkDDSUnchanged is what a file supplier costs at a collection when its file has not
// changed: one stat (the choice over inotify, issue 18).
func BenchmarkDDSUnchanged(b *testing.B) {
	sup, _ := collectedSupplier(b, 10, 10)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sup.Collect(ctx, collect.Request{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDDSChanged10000 reads a file of 10,000 series (100 families of 100) that changed at
// every collection: read, parse, map, and the raw values.
func BenchmarkDDSChanged10000(b *testing.B) {
	dir := b.TempDir()
	p := ddsBenchFile(b, dir, 100, 100)
	d := New(Options{Dirs: []string{dir}})
	ps, _ := d.Discover(context.Background())
	ctx := context.Background()
	t := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		t = t.Add(time.Second)
		if err := os.Chtimes(p, t, t); err != nil {
			b.Fatal(err)
		}
		batch, err := ps[0].Collect(ctx, collect.Request{})
		if err != nil || len(batch.Classes) != 100 {
			b.Fatal(err, len(batch.Classes))
		}
	}
}

// FuzzDDSDeclare: whatever text parses is declared as classes the registry accepts or refuses
// with an error, and read into values, never a panic (hostile family and label names included).
func FuzzDDSDeclare(f *testing.F) {
	f.Add([]byte(acmeText))
	f.Add([]byte("# TYPE a counter\na_total{x=\"\\n\\x1b\"} 1e300\n"))
	f.Add([]byte("{\"weird/name\",l=\"v\"} -Inf\n# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.5\nh_count 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := supply.Parse("fuzz.prom", data, supply.Limits{MaxBytes: 1 << 16, MaxLine: 4096, MaxSeries: 1000})
		if err != nil {
			return
		}
		ids := newDDSIDs()
		reg := ns.NewRegistry()
		vn := ids.vendor("fuzz", doc.Enterprise)
		_ = reg.RegisterClass(&ns.Class{ID: ns.ClassID{ns.DDSASN}, Name: "DDS", Desc: "d", Flags: ns.ClassEnabled})
		_ = reg.RegisterClass(&ns.Class{ID: ns.ClassID{ns.DDSASN, uint32(vn)}, Name: "fuzz", Desc: "d", Flags: ns.ClassEnabled})
		for i := range doc.Families {
			fam := &doc.Families[i]
			fd := declare(nil, ids, "fuzz", vn, "fuzz.prom", fam, nil)
			for _, c := range fd.classes {
				if err := reg.RegisterClass(c); err != nil {
					return // a refusal is an error the sampler logs, fine
				}
			}
			fd.learn(fam)
			specs, raw := fd.read(fam)
			if len(raw) != len(specs)*len(fd.stats.Datums) {
				t.Fatalf("%d raw values for %d instances of %d datums", len(raw), len(specs), len(fd.stats.Datums))
			}
			if _, _, err := reg.Sync(fd.stats, specs, time.Unix(0, 0), nil); err != nil && !strings.Contains(err.Error(), "SiDuplicate") {
				t.Fatalf("instances of %q: %v", fam.Name, err)
			}
		}
	})
}
