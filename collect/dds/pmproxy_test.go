package dds

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"dcimon/internal/golden"
	"dcimon/internal/pcptest"
	ns "dcimon/namespace"
	"dcimon/views"
)

// pmproxyMetrics are the metrics of the committed capture of pmproxy's /metrics: a float with
// instance names of several words, discrete and instant values of several PCP types, counters in
// milliseconds, bytes and counts, an instance name with a slash, Kbyte and Mbyte units.
const pmproxyMetrics = "kernel.all.load,hinv.ncpu,hinv.physmem,mem.util.used,disk.dev.read,kernel.percpu.cpu.user," +
	"network.interface.in.bytes,filesys.used,kernel.all.nprocs,kernel.all.pswitch,kernel.all.uptime"

const pmproxyFixture = "testdata/pmproxy/metrics.txt"

// fetchPMProxyMetrics is what a real pmproxy (internal/pcptest) answers at /metrics.
func fetchPMProxyMetrics(t *testing.T) []byte { return pcptest.Start(t).Metrics(t, pmproxyMetrics) }

// scrub replaces what names the machine the capture was taken on.
func scrub(data []byte) []byte {
	s := regexp.MustCompile(`machineid="[0-9a-f]+"`).ReplaceAllString(string(data), `machineid="0123456789abcdef0123456789abcdef"`)
	s = regexp.MustCompile(`hostname="[^"]*"`).ReplaceAllString(s, `hostname="host1"`)
	return []byte(s)
}

// TestCapturePMProxyMetrics rewrites the fixture from a real pmproxy when DCIMON_CAPTURE=1: the
// fixture is what pmproxy 6.0.3 writes, unchanged but for the machine's names.
func TestCapturePMProxyMetrics(t *testing.T) {
	if os.Getenv("DCIMON_CAPTURE") == "" {
		t.Skip("set DCIMON_CAPTURE=1 to capture " + pmproxyFixture + " from a real pmproxy again")
	}
	data := scrub(fetchPMProxyMetrics(t))
	if err := os.MkdirAll(filepath.Dir(pmproxyFixture), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pmproxyFixture, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ddsListing is every statistic under DDS/<vendor>: its path, what it is in DCI and PCP, and its
// raw value, one a line.
func ddsListing(t *testing.T, h *ddsHarness, vendor string) string {
	t.Helper()
	var b strings.Builder
	h.s.Registry().Walk(func(c *ns.Context, depth int) bool {
		if !strings.HasPrefix(c.Path()+"/", "DDS/"+vendor+"/") || c.Stats == nil || (c.Kind != ns.CtxInstance && !c.Stats.SingleInstance()) {
			return true
		}
		for i := range c.Stats.Datums {
			d := &c.Stats.Datums[i]
			if d.IsDerived() {
				continue
			}
			p := c.Path() + "/" + d.Name
			v := h.value(p)
			fmt.Fprintf(&b, "%s  %s %s  pcp %s %s %s  %s\n", p, d.Type, d.Units, d.PCP.Sem.Word(), d.PCP.Type.Word(), d.PCP.Units,
				views.FormatValue(d, v, views.Options{Raw: true}))
		}
		return true
	})
	return b.String()
}

// Issue 33: pmproxy's /metrics output, the file users will most often point dcimon at, read
// through DDS: instances named by PCP's instname ("1 minute", "cpu0", "∕dev∕vda"), never by a
// hash of the host labels; the # PCP5 line's semantics, type and units win over # TYPE (hinv.ncpu
// is a discrete u32, mem.util.used Kbyte); a value of one series with only the host's labels is a
// single value, its labels kept for the export (SPMI-DDS-1, PCPD-2, PCPD-3).
func TestDDSPMProxyMetricsGolden(t *testing.T) {
	data, err := os.ReadFile(pmproxyFixture)
	if err != nil {
		t.Fatal(err)
	}
	h := newDDSHarness(t, 0)
	h.write("pmproxy.prom", string(data), 0)
	h.tick(time.Second)
	h.write("pmproxy.prom", string(data), 10*time.Second)
	h.tick(time.Second)
	out := ddsListing(t, h, "pmproxy")
	golden.Check(t, "listing", out)
	for _, want := range []string{"DDS/pmproxy/kernel_all_load/1 minute/value", "DDS/pmproxy/kernel_percpu_cpu_user/cpu0/value",
		"DDS/pmproxy/filesys_used/∕dev∕vda/value", "DDS/pmproxy/hinv_ncpu/value  UMA_UINT4 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "~") || strings.Contains(out, "domainname") {
		t.Errorf("an instance named by the host's labels or a hash:\n%s", out)
	}
	ref, err := h.s.Registry().Lookup(nil, "DDS/pmproxy/hinv_ncpu/value")
	if err != nil {
		t.Fatal(err)
	}
	if l := ref.Ctx.Stats.Labels; len(l) != 3 || l[1] != (ns.Attr{Key: "hostname", Value: "host1"}) {
		t.Errorf("hinv_ncpu's labels %v, want domainname, hostname and machineid kept", l)
	}
}

// The same through a live pmproxy (internal/pcptest), whatever this machine's disks and
// processors: every instance of an instance domain is named by its instname.
func TestDDSPMProxyMetricsLive(t *testing.T) {
	data := fetchPMProxyMetrics(t)
	h := newDDSHarness(t, 0)
	h.write("live.prom", string(data), 0)
	h.tick(time.Second)
	names := 0
	h.s.Registry().Walk(func(c *ns.Context, depth int) bool {
		if c.Kind == ns.CtxInstance && strings.HasPrefix(c.Path(), "DDS/live/") {
			names++
			if in := c.Inst; in != nil {
				var inst string
				for _, l := range in.Labels {
					if l.Key == "instname" {
						inst = l.Value
					}
				}
				if inst == "" || in.OSName != strings.ReplaceAll(inst, "/", "∕") {
					t.Errorf("%s: named %q, its instname is %q", c.Path(), in.OSName, inst)
				}
			}
		}
		return true
	})
	if names < 4 {
		t.Errorf("%d instances in pmproxy's answer:\n%s", names, data)
	}
}
