package namespace

import (
	"strings"
	"testing"
)

// fsRegistry is the test registry with file systems named as the tree names mount points, their
// slashes U+2215 (`/` is `∕`, `/home` is `∕home`), and an interface whose name starts and ends
// with a double quote.
func fsRegistry(t *testing.T) *Registry {
	t.Helper()
	r := testRegistry(t, 1)
	for _, c := range []*Class{
		{ID: ClassID{7}, Name: "FS", Desc: "File systems", Flags: ClassEnabled},
		{ID: ClassID{7, 2}, Name: "fs", Desc: "One file system", Flags: ClassEnabled, InstFreq: SiContInst,
			Levels: []InstLevel{{TypeUint4, TagDevice, 4}}, Datums: []Datum{Gauge(1, "%used", TypeUint4, UnitNone, "Used share", "statfs")}},
	} {
		if err := r.RegisterClass(c); err != nil {
			t.Fatal(err)
		}
	}
	var specs []InstanceSpec
	for i, mp := range []string{"∕", "∕home", "∕var∕lib∕data"} {
		specs = append(specs, InstanceSpec{Levels: []uint64{uint64(i + 1)}, OSName: mp})
	}
	if _, _, err := r.Sync(r.Class(ClassID{7, 2}), specs, t0, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Sync(r.Class(ClassID{3, 2}), []InstanceSpec{{Levels: []uint64{9}, OSName: `"q"`}}, t0, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// issue 32 item 11 (SPMI-HIER-2, SPMI-HIER-7): the root file system and every mount point can be
// named without U+2215 or a wildcard: as FS/root, or in double quotes with their slashes; a name
// that merely starts with a quote is still itself (the quoting rule of issue 21).
func TestPathNamesMountPoints(t *testing.T) {
	r := fsRegistry(t)
	for path, want := range map[string]string{
		"FS/root/%used":               "FS/∕/%used",
		"FS/∕/%used":                  "FS/∕/%used",
		`FS/"/"/%used`:                "FS/∕/%used",
		`FS/"/home"/%used`:            "FS/∕home/%used",
		`/FS/"/var/lib/data"/%used`:   "FS/∕var∕lib∕data/%used",
		`FS/"/var/lib/data"`:          "FS/∕var∕lib∕data",
		`NetIf/"q"/ibytes`:            `NetIf/"q"/ibytes`,
		`FS/"/home"/"%used"`:          "FS/∕home/%used",
		`FS/"/ho\"me"/%used`:          "",
		`FS/"unclosed/%used`:          "",
		"FS/home/%used":               "",
		`FS/"/home"/%used/more/parts`: "",
	} {
		ref, err := r.Lookup(nil, path)
		switch {
		case want == "" && err == nil:
			t.Errorf("%s resolved to %s", path, ref.Path())
		case want != "" && err != nil:
			t.Errorf("%s: %v", path, err)
		case want != "" && ref.Path() != want:
			t.Errorf("%s = %s, want %s", path, ref.Path(), want)
		}
	}
	for pattern, want := range map[string]string{
		`FS/"/home"/*`:   "FS/∕home/%used",
		`FS/root/%us*`:   "FS/∕/%used",
		`FS/*/"%used"`:   "FS/∕/%used FS/∕home/%used FS/∕var∕lib∕data/%used",
		`FS/"*"/%used`:   "",
		`NetIf/"q"/ib*`:  `NetIf/"q"/ibytes`,
		`FS/"/nope"/*`:   "",
		`"FS"/root/%us*`: "FS/∕/%used",
	} {
		refs, err := r.Glob(pattern)
		var got []string
		for _, ref := range refs {
			got = append(got, ref.Path())
		}
		if strings.Join(got, " ") != want || (want == "") != (err != nil) {
			t.Errorf("Glob(%s) = %q, %v; want %q", pattern, got, err, want)
		}
	}
}

// issue 32 item 11: a path with a real slash that cannot resolve says how to write it: with
// U+2215, quoted, and FS/root for the root file system.
func TestPathSlashHint(t *testing.T) {
	r := fsRegistry(t)
	for path, wants := range map[string][]string{
		"FS//%used":              {`FS has no subcontext ""`, "FS/∕/%used", `FS/"/"/%used`, "FS/root/%used"},
		"FS//home/%used":         {"FS/∕home/%used", `FS/"/home"/%used`},
		"FS/var/lib/data/%used":  {"FS/∕var∕lib∕data/%used", `FS/"/var/lib/data"/%used`},
		"/FS//var/lib/data/used": {"FS/∕var∕lib∕data/used"},
	} {
		_, err := r.Lookup(nil, path)
		if err == nil {
			t.Errorf("%s resolved", path)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\n  does not say %q", path, err, w)
			}
		}
	}
	if _, err := r.Lookup(nil, "Nope/x"); err == nil || strings.Contains(err.Error(), "U+2215") {
		t.Errorf("a path with no slash in a name gets a hint: %v", err)
	}
}

// splitPath cuts at slashes outside double quotes.
func TestSplitPath(t *testing.T) {
	for in, want := range map[string]string{
		`a/b/c`:          `a|b|c`,
		`/a//c/`:         `a||c`,
		`FS/"/home"/x`:   `FS|"/home"=/home|x`,
		`"a\"b/c"`:       `"a\"b/c"=a"b/c`,
		`"open/x`:        `"open|x`,
		`a/"b"c/d`:       `a|"b"c|d`,
		`""/x`:           `""=|x`,
		``:               ``,
		`"/var/lib/db"`:  `"/var/lib/db"=/var/lib/db`,
		`x/"a\\"/y`:      `x|"a\\"=a\|y`,
		`x/"tail\"`:      `x|"tail\"`,
		`x/"tail\"/more`: `x|"tail\"|more`,
	} {
		var got []string
		for _, s := range splitPath(in) {
			g := s.raw
			if s.quoted {
				g += "=" + s.name
			}
			got = append(got, g)
		}
		if strings.Join(got, "|") != want {
			t.Errorf("splitPath(%s) = %s, want %s", in, strings.Join(got, "|"), want)
		}
	}
}

func FuzzSplitPath(f *testing.F) {
	for _, s := range []string{`FS/"/home"/x`, `"a\"b/c"`, `/a//c/`, `"`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		segs := splitPath(p)
		n := 0
		for _, s := range segs {
			n += len(s.raw)
			if s.quoted && (len(s.raw) < 2 || s.raw[0] != '"' || s.raw[len(s.raw)-1] != '"') {
				t.Fatalf("%q: quoted segment %q", p, s.raw)
			}
		}
		if n > len(p) {
			t.Fatalf("%q: segments longer than the path", p)
		}
	})
}
