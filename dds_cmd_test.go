package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 18: a user's file in a suppliers directory is read under DDS/<vendor> by every command.
func TestSuppliersCommands(t *testing.T) {
	dir := t.TempDir()
	text := "# DCIMON vendor=acme\n# HELP queue_depth Messages waiting.\n# TYPE queue_depth gauge\n" +
		"queue_depth{queue=\"mail\"} 12\nqueue_depth{queue=\"jobs\"} 30\nqueue_depth{queue=\"idle\"} 0\n"
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", dir}

	out, errOut, code := runFake(t, append([]string{"get", "DDS/acme/queue_depth/*/value"}, syn...)...)
	if code != 0 {
		t.Fatalf("get: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"DDS/acme/queue_depth/mail/value", "12", "DDS/acme/queue_depth/jobs/value", "30"} {
		if !strings.Contains(out, want) {
			t.Errorf("get: no %q in\n%s", want, out)
		}
	}

	out, errOut, code = runFake(t, append([]string{"list", "DDS"}, syn...)...)
	if code != 0 || !strings.Contains(out, "/DDS/acme/queue_depth/") || !strings.Contains(out, "Messages waiting.") {
		t.Errorf("list DDS: exit %d %s\n%s", code, errOut, out)
	}

	// A hotset over a user's statistic: the busiest queue first.
	out, errOut, code = runFake(t, append([]string{"hot", "DDS/acme/queue_depth", "value", "--max", "2", "--json"}, syn...)...)
	if code != 0 {
		t.Fatalf("hot: exit %d: %s", code, errOut)
	}
	var r struct {
		Sets []struct {
			Items []struct {
				Path string `json:"path"`
			} `json:"items"`
		} `json:"sets"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); err != nil {
		t.Fatalf("hot --json: %v\n%s", err, out)
	}
	if len(r.Sets) != 1 || len(r.Sets[0].Items) != 2 || !strings.Contains(r.Sets[0].Items[0].Path, "jobs") || !strings.Contains(r.Sets[0].Items[1].Path, "mail") {
		t.Errorf("hot: %+v, want jobs then mail\n%s", r.Sets, out)
	}

	// The suppliers setting: off reads none.
	cfgFile := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfgFile, []byte("suppliers = \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, code = runFake(t, "get", "DDS/acme/queue_depth/mail/value", "--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--config", cfgFile)
	if code == 0 {
		t.Error("suppliers = \"off\" still read the suppliers")
	}
}

// dcimon's own metrics, written by `dcimon metrics` into a suppliers directory, come back under
// DDS with the units their # PCP5 lines state: the two directions agree.
func TestMetricsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	syn := []string{"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7"}
	file := filepath.Join(dir, "self.prom")
	if _, errOut, code := runFake(t, append([]string{"metrics", "Disk", "--output", file}, syn...)...); code != 0 {
		t.Fatalf("metrics: %s", errOut)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	vals := parseProm(t, string(text))
	out, errOut, code := runFake(t, append([]string{"describe", "DDS/self/dcimon_disk_read_bytes_total/sda/value"}, append(syn, "--suppliers", dir)...)...)
	if code != 0 {
		t.Fatalf("describe: exit %d: %s\n%s", code, errOut, text)
	}
	if !strings.Contains(out, "UMA_BYTES") {
		t.Errorf("read bytes not in bytes after the round trip:\n%s", out)
	}
	if _, ok := vals["dcimon_disk_read_bytes_total|disk=sda"]; !ok {
		t.Errorf("no dcimon_disk_read_bytes_total in\n%s", text)
	}
}

// A user's decimals are kept in millionths, and text, JSON value and units say the same
// quantity (issue 18, the quality bar's "text, --json value and units").
func TestSuppliersDecimalsAgree(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "acme.prom"), []byte("ratio 0.25\ntemp_celsius 41.5\nlat_seconds 0.0035\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runFake(t, "get", "DDS/acme/ratio/value", "DDS/acme/temp_celsius/value", "DDS/acme/lat_seconds/value",
		"--source", "synthetic:disks=1,nics=1,cpus=1,seed=7", "--suppliers", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Values []struct {
			Path  string  `json:"path"`
			Text  string  `json:"text"`
			Value float64 `json:"value"`
			Units string  `json:"units"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &r); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text  string
		value float64
		units string
	}{{"0.25", 0.25, ""}, {"41.5 °C", 41.5, "°C"}, {"3.5 ms", 0.0035, "s"}}
	for i, v := range r.Values {
		if v.Text != want[i].text || v.Value != want[i].value || v.Units != want[i].units {
			t.Errorf("%s: text %q value %v units %q, want %q %v %q", v.Path, v.Text, v.Value, v.Units, want[i].text, want[i].value, want[i].units)
		}
	}
}
