package linux

import (
	"os"
	"path/filepath"
	"testing"

	"dcimon/collect"
	"dcimon/collect/collecttest"
	"dcimon/collect/schema"
	ns "dcimon/namespace"
	"dcimon/views"
)

// hwmonTree writes hwmon chips as real hardware lays them out: Intel coretemp, AMD k10temp, an
// NVMe drive, the ACPI thermal zone, and a Super I/O chip with a fan and a voltage.
func hwmonTree(t *testing.T, sys string) {
	t.Helper()
	chips := []struct {
		dir   string
		files map[string]string
	}{
		{"hwmon0", map[string]string{"name": "coretemp", "temp1_input": "45000", "temp1_label": "Package id 0", "temp1_crit": "100000",
			"temp1_max": "80000", "temp2_input": "43000", "temp2_label": "Core 0", "temp2_crit": "100000"}},
		{"hwmon1", map[string]string{"name": "k10temp", "temp1_input": "52125", "temp1_label": "Tctl", "temp3_input": "40000", "temp3_label": "Tccd1"}},
		{"hwmon2", map[string]string{"name": "nvme", "temp1_input": "38850", "temp1_label": "Composite", "temp1_crit": "84850",
			"temp1_max": "81850", "temp1_min": "-273150"}},
		{"hwmon3", map[string]string{"name": "acpitz", "temp1_input": "27800", "temp1_crit": "119000", "temp2_input": "-5000"}},
		{"hwmon4", map[string]string{"name": "nct6775", "fan1_input": "1200", "fan1_min": "300", "in0_input": "1040", "in0_label": "Vcore"}},
	}
	for _, c := range chips {
		dir := filepath.Join(sys, "class", "hwmon", c.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// issue 19: temperatures, fans and voltages with their labels and limits, from fixture trees of
// real chips; a tree without hwmon has no Sensors class at all.
func TestSensors(t *testing.T) {
	t.Parallel()
	rt := newRewriteTree(t, "basic")
	if _, err := rt.h.Reg.Lookup(nil, "Sensors"); err == nil {
		t.Fatal("Sensors is declared on a host without sensors: it must be absent, not empty")
	}
	hwmonTree(t, filepath.Join(rt.dir, "sys"))
	provs := Providers(Options{Procfs: filepath.Join(rt.dir, "proc"), Sysfs: filepath.Join(rt.dir, "sys")})
	pointAt(t, provs, rt.dir)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true, Variable: true})
	look := func(path string) (ns.Value, *ns.Datum, *ns.Class) {
		t.Helper()
		ref, err := h.Reg.Lookup(nil, path)
		if err != nil {
			t.Fatal(err)
		}
		v, cv, _ := h.Snap.Lookup(ref)
		return v, ref.Datum, cv.Class
	}
	for _, c := range []struct{ path, want string }{
		{"Sensors/Temp/coretemp Package id 0/input", "45 °C"},
		{"Sensors/Temp/coretemp Package id 0/crit", "100 °C"},
		{"Sensors/Temp/coretemp Core 0/input", "43 °C"},
		{"Sensors/Temp/k10temp Tctl/input", "52.1 °C"},
		{"Sensors/Temp/nvme Composite/max", "81.9 °C"},
		{"Sensors/Temp/acpitz temp1/input", "27.8 °C"},
		{"Sensors/Temp/acpitz temp2/input", "-5 °C"},
		{"Sensors/Temp/acpitz temp2/crit", "n/a"},
		{"Sensors/Fan/nct6775 fan1/input", "1200 RPM"},
		{"Sensors/Fan/nct6775 fan1/min", "300 RPM"},
		{"Sensors/Volt/nct6775 Vcore/input", "1.04 V"},
		{"Sensors/Temp/nvme Composite/chip", "nvme"},
	} {
		v, d, cl := look(c.path)
		if got := views.FormatValue(d, v, views.Options{Class: cl}); got != c.want {
			t.Errorf("%s = %q, want %q", c.path, got, c.want)
		}
	}
	// SPMI-VAL-3: the scale of a kind's readings tops out at its highest critical limit (acpitz's
	// 119 °C here), and at the kind's default where no channel has a limit (the voltages).
	for _, c := range []struct {
		path string
		max  float64
	}{
		{"Sensors/Temp/coretemp Core 0/input", 119000},
		{"Sensors/Temp/nvme Composite/max", 119000},
		{"Sensors/Volt/nct6775 Vcore/input", 15000},
		{"Sensors/Fan/nct6775 fan1/input", 5000},
	} {
		if _, d, _ := look(c.path); d.Min != 0 || d.Max != c.max {
			t.Errorf("%s scale = %g..%g, want 0..%g", c.path, d.Min, d.Max, c.max)
		}
	}
}

// SPMI-VAL-3: the scale comes from the critical limits, then the high limits, then the default.
func TestSensorScale(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		ss   []sensor
		want schema.SensorScale
	}{
		{"none", nil, schema.SensorScale{110000, 5000, 15000}},
		{"crit wins over max", []sensor{{kind: schema.SensorTemp, crit: 90000, hasCrit: true, max: 95000, hasMax: true}}, schema.SensorScale{90000, 5000, 15000}},
		{"highest crit", []sensor{{kind: schema.SensorTemp, crit: 90000, hasCrit: true}, {kind: schema.SensorTemp, crit: 105000, hasCrit: true}}, schema.SensorScale{105000, 5000, 15000}},
		{"max where no crit", []sensor{{kind: schema.SensorVolt, max: 1300, hasMax: true}}, schema.SensorScale{110000, 5000, 1300}},
		{"a fan's minimum is no top", []sensor{{kind: schema.SensorFan, crit: 300, hasCrit: true}}, schema.SensorScale{110000, 5000, 15000}},
	} {
		if got := *scaleOf(c.ss); got != c.want {
			t.Errorf("%s: scale %v, want %v", c.name, got, c.want)
		}
	}
}

// issue 19: sensors vanishing are removed instances (events), never errors: a chip whose
// directory goes (a drive removed), and a channel listed but gone before its reading (the race
// with a module unloading, made here with a dangling link).
func TestSensorsVanish(t *testing.T) {
	rt := newRewriteTree(t, "basic")
	sys := filepath.Join(rt.dir, "sys")
	hwmonTree(t, sys)
	provs := Providers(Options{Procfs: filepath.Join(rt.dir, "proc"), Sysfs: sys})
	pointAt(t, provs, rt.dir)
	h := collecttest.NewHarness(t, provs)
	h.Step(collect.Request{Static: true, Variable: true})
	if _, err := h.Reg.Lookup(nil, "Sensors/Temp/nvme Composite"); err != nil {
		t.Fatal(err)
	}
	hw := filepath.Join(sys, "class", "hwmon")
	if err := os.RemoveAll(filepath.Join(hw, "hwmon2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(hw, "hwmon0", "gone"), filepath.Join(hw, "hwmon0", "temp9_input")); err != nil {
		t.Fatal(err)
	}
	removed := h.StepRemoved(collect.Request{})
	if len(removed) != 1 || removed[0] != "Sensors/Temp/nvme Composite" {
		t.Fatalf("removed %v", removed)
	}
	if cr := h.Reading("12.1.2"); cr.Err != nil {
		t.Fatalf("a vanished sensor is an error: %v", cr.Err)
	}
	if _, err := h.Reg.Lookup(nil, "Sensors/Temp/coretemp temp9"); err == nil {
		t.Fatal("a channel without a reading is in the name space")
	}
	if v := h.Value("Sensors/Temp/coretemp Core 0/input"); v.State != ns.Valid {
		t.Fatalf("the others are read: %+v", v)
	}
}
