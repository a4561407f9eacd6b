package namespace

import (
	"strings"
	"testing"
)

// TestGlob: wildcards in any component expand in tree order to contexts and statistics; a path
// without wildcards resolves exactly as Lookup does; a bad pattern and no match are errors with
// SPMI codes (SPMI-HIER-7, SPMI-HIER-8).
func TestGlob(t *testing.T) {
	r := testRegistry(t, 3)
	tests := []struct {
		pattern string
		want    string // the refs' paths, space-separated
		si      SiErr
	}{
		{"CPU/cpu1/idle", "CPU/cpu1/idle", 0},
		{"CPU/*/idle", "CPU/cpu0/idle CPU/cpu1/idle CPU/cpu2/idle", 0},
		{"CPU/cpu[02]/user", "CPU/cpu0/user CPU/cpu2/user", 0},
		{"CPU/cpu0/*busy", "CPU/cpu0/busy CPU/cpu0/%busy", 0},
		{"CPU/cpu?", "CPU/cpu0 CPU/cpu1 CPU/cpu2", 0},
		{"/CPU/cpu2/wait", "CPU/cpu2/wait", 0},
		{"CPU/cpu[", "", SiBadArgument},
		{"Disk/*/reads", "", SiNotFound},
		{"Nope/*", "", SiNotFound},
		{"Nope", "", SiInvalidCx},
	}
	for _, tt := range tests {
		refs, err := r.Glob(tt.pattern)
		if tt.si != 0 {
			if siOf(err) != tt.si {
				t.Errorf("%s: error %v, want %v", tt.pattern, err, tt.si)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
			continue
		}
		var got []string
		for _, ref := range refs {
			got = append(got, ref.Path())
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: %q, want %q", tt.pattern, strings.Join(got, " "), tt.want)
		}
	}
}

// TestHostName: the host's name is the valid value of a top-level class's "hostname" statistic,
// and "" without one.
func TestHostName(t *testing.T) {
	r := testRegistry(t, 1)
	if got := r.HostName(&Snapshot{}); got != "" {
		t.Errorf("a name space without a hostname statistic: %q", got)
	}
	host := &Class{ID: ClassID{5}, Name: "Host", Desc: "The host", Flags: ClassEnabled,
		Levels: []InstLevel{{TypeUint4, TagSingleInst, 4}}, Datums: []Datum{Text(1, "hostname", "Host name", "test")}}
	if err := r.RegisterClass(host); err != nil {
		t.Fatal(err)
	}
	insts, _, err := r.Sync(host, []InstanceSpec{{Levels: []uint64{0}, OSName: "host"}}, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap := Next(nil, &Sample{Start: t0, End: t0, Classes: []ClassSample{{Class: host, Time: t0,
		Insts: insts, Raw: []Raw{{S: "db1.example"}}}}}, nil)
	if got := r.HostName(snap); got != "db1.example" {
		t.Errorf("HostName %q, want db1.example", got)
	}
}

// TestGlobQuotingRule: every name list prints can be given back as printed, whatever it holds
// (wildcard characters from an escaped escape sequence included); a pattern quotes with a
// backslash (issue 21).
func TestGlobQuotingRule(t *testing.T) {
	r := testRegistry(t, 0)
	c := r.Class(ClassID{3, 2})
	var specs []InstanceSpec
	for i, os := range []string{"e\x1b[31m", "cpu[01]", "eth*", "a\\b", "ab\u202edc", "eth0"} {
		specs = append(specs, InstanceSpec{Levels: []uint64{uint64(10 + i)}, OSName: os})
	}
	if _, _, err := r.Sync(c, specs, t0, nil); err != nil {
		t.Fatal(err)
	}
	one := func(pattern string) string {
		t.Helper()
		refs, err := r.Glob(pattern)
		if err != nil {
			return "error: " + err.Error()
		}
		var got []string
		for _, ref := range refs {
			got = append(got, ref.Path())
		}
		return strings.Join(got, " ")
	}
	// Each name, exactly as the name space holds (and list prints) it.
	for _, in := range r.Instances(c) {
		if got, want := one("NetIf/"+in.Name+"/ibytes"), "NetIf/"+in.Name+"/ibytes"; got != want {
			t.Errorf("printed name %q: %q, want %q", in.Name, got, want)
		}
	}
	tests := []struct{ pattern, want string }{
		{`NetIf/e\x1b[31m/ibytes`, `NetIf/e\x1b[31m/ibytes`},
		{`NetIf/e\\x1b\[31m/ibytes`, `NetIf/e\x1b[31m/ibytes`}, // the same name as a quoted pattern
		{`NetIf/eth\*/ibytes`, `NetIf/eth*/ibytes`},            // a quoted star is a star
		{`NetIf/eth*/ibytes`, `NetIf/eth*/ibytes`},             // a name that is a pattern means the name
		{`NetIf/eth?/ibytes`, `NetIf/eth*/ibytes NetIf/eth0/ibytes`},
		{`NetIf/ab\u202edc/ibytes`, `NetIf/ab\u202edc/ibytes`}, // one escape rule in paths and descriptions
		{`NetIf/a\\b/ibytes`, `NetIf/a\\b/ibytes`},
	}
	for _, tt := range tests {
		if got := one(tt.pattern); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.pattern, got, tt.want)
		}
	}
}
