package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dcimon/internal/pcptest"
)

// Issue 39 item 7: dcimon's own recordings replay as recorded. File systems read their own
// size, used and available bytes (each datum read the first one's: 50.0% used everywhere), as
// pmdumplog shows them; loop disks recorded with --show-loop replay with --show-loop.
func TestOwnRecordingReplaysAsRecorded(t *testing.T) {
	if ok, why := pcptest.Installed(); !ok {
		t.Skip(why)
	}
	base, loops := filepath.Join(t.TempDir(), "rec"), filepath.Join(t.TempDir(), "loops")
	if _, errOut, code := runFake(t, "record", base, "-i", "1s", "--duration", "1s"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runFake(t, "record", loops, "-i", "1s", "--duration", "1s", "--show-loop", "--procfs", fixProc, "--sysfs", fixSys); code != 0 {
		t.Fatalf("record --show-loop: exit %d: %s", code, errOut)
	}
	dump := pcptest.Run(t, "pmdumplog", base, "dcimon.FS.fs.size", "dcimon.FS.fs.used", "dcimon.FS.fs.avail")
	want := map[string]uint64{} // "used ∕" → bytes, from the last record
	var metric string
	for _, line := range strings.Split(dump, "\n") {
		if m := regexp.MustCompile(`\(dcimon\.FS\.fs\.(\w+)\)`).FindStringSubmatch(line); m != nil {
			metric = m[1]
		}
		if m := regexp.MustCompile(`inst \[\d+ or "([^"]*)"\] value (\d+)`).FindStringSubmatch(line); m != nil {
			want[metric+" "+m[1]], _ = strconv.ParseUint(m[2], 10, 64)
		}
	}
	if len(want) < 3 {
		t.Fatalf("pmdumplog shows no file system values:\n%s", dump)
	}
	out, errOut, code := runFake(t, "get", "FS/*/size", "FS/*/used", "FS/*/avail", "--archive", base, "--json")
	if code != 0 {
		t.Fatalf("get --archive: exit %d %s", code, errOut)
	}
	var r struct {
		Values []struct {
			Path string  `json:"path"`
			Raw  *uint64 `json:"raw"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checked, differ := 0, false
	for _, v := range r.Values {
		parts := strings.Split(v.Path, "/") // FS/<mount>/<datum>
		w, ok := want[parts[2]+" "+parts[1]]
		if !ok || v.Raw == nil {
			t.Errorf("%s: replayed %v, pmdumplog has %v", v.Path, v.Raw, ok)
			continue
		}
		if *v.Raw != w {
			t.Errorf("%s replayed %d, pmdumplog says %d", v.Path, *v.Raw, w)
		}
		differ = differ || want["size "+parts[1]] != want["used "+parts[1]]
		checked++
	}
	if checked == 0 || !differ {
		t.Errorf("compared %d values; a file system whose size and used differ: %v", checked, differ)
	}
	// Loop disks: recorded with --show-loop, shown with it on replay, hidden without.
	with, _, _ := runFake(t, "list", "Disk", "--archive", loops, "--show-loop")
	without, _, _ := runFake(t, "list", "Disk", "--archive", loops)
	if !strings.Contains(with, "/Disk/loop0/") || strings.Contains(without, "/Disk/loop0/") {
		t.Errorf("loop0 on replay: with --show-loop:\n%s\nwithout:\n%s", with, without)
	}
}
