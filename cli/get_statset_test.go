package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// SPMI-SET-4, SPMI-SET-5, SPMI-SET-2 (issue 29 item 19): get reads the statistics it is asked
// for as one SPMI statset, and its JSON gives each value's per-value record: the statistic (path)
// and its context, ref_count (a statistic asked for twice is one row, counted twice, and printed
// in both places, PCPF-11), val and val_change (raw, change) and the per-value SPMI error.
func TestGetReadsAStatset(t *testing.T) {
	type value struct {
		Path   string   `json:"path"`
		State  string   `json:"state"`
		Raw    *uint64  `json:"raw"`
		Change *float64 `json:"change"`
		SPMI   *struct {
			Context  string `json:"context"`
			RefCount int    `json:"ref_count"`
			Error    string `json:"error"`
		} `json:"spmi"`
	}
	read := func(args ...string) []value {
		t.Helper()
		out, stderr, code := runFake(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var rd struct{ Values []value }
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rd); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, stderr)
		}
		return rd.Values
	}
	vs := read("get", "--json", "CPU/cpu0/idle", "Disk/sda/busy", "CPU/cpu0/idle", "--source", "synthetic:disks=2,cpus=2,seed=1")
	if len(vs) != 3 {
		t.Fatalf("want three values, one per request: %+v", vs)
	}
	for i, want := range []struct {
		path, ctx string
		refs      int
	}{{"CPU/cpu0/idle", "CPU/cpu0", 2}, {"Disk/sda/busy", "Disk/sda", 1}, {"CPU/cpu0/idle", "CPU/cpu0", 2}} {
		v := vs[i]
		if v.Path != want.path || v.SPMI == nil || v.SPMI.Context != want.ctx || v.SPMI.RefCount != want.refs || v.SPMI.Error != "SiSuccess (0)" {
			t.Errorf("value %d: %+v %+v, want %s in %s, ref_count %d, SiSuccess", i, v, v.SPMI, want.path, want.ctx, want.refs)
		}
	}
	if vs[0].Raw == nil || vs[0].Change == nil || *vs[0].Change <= 0 {
		t.Errorf("a counter's record has val and val_change: %+v", vs[0])
	}

	// A value that could not be read carries its SPMI error in the record, as its state says:
	// /proc/stat turns into a named pipe after the first reading.
	tree := copyTree(t, "../collect/linux/testdata/basic/t0")
	env := scriptedEnv(func() { mkfifo(t, tree, "proc/stat") })
	var out, errb strings.Builder
	runEnv(context.Background(), []string{"get", "--json", "CPU/cpu0/idle", "Disk/vda/reads",
		"--procfs", filepath.Join(tree, "proc"), "--sysfs", filepath.Join(tree, "sys")}, env, &out, &errb)
	var rd struct{ Values []value }
	if err := json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &rd); err != nil || len(rd.Values) != 2 {
		t.Fatalf("%v\n%s%s", err, out.String(), errb.String())
	}
	if v := rd.Values[0]; v.State == "valid" || v.SPMI == nil || v.SPMI.Error == "SiSuccess (0)" || v.SPMI.Context != "CPU/cpu0" {
		t.Errorf("a value its provider failed: %+v %+v, want its SPMI error", v, v.SPMI)
	}
	if v := rd.Values[1]; v.State != "valid" || v.SPMI == nil || v.SPMI.Error != "SiSuccess (0)" {
		t.Errorf("the other class's value: %+v %+v", v, v.SPMI)
	}
}
