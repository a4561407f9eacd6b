package cli

import (
	"bufio"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// textQuantity reads a scaled value's text back into a number in the base unit of its unit
// (`12.4 MiB/s` → 13002342.4, `B/s`), the way a person reads it; ok is false for text that is not
// a number with a unit (names, dates, yes/no, addresses).
func textQuantity(text string) (v float64, unit string, ok bool) {
	i := 0
	for i < len(text) && (text[i] == '-' || text[i] == '.' || text[i] >= '0' && text[i] <= '9') {
		i++
	}
	x, err := strconv.ParseFloat(text[:i], 64)
	if err != nil {
		return 0, "", false
	}
	rest := strings.TrimPrefix(text[i:], " ")
	if strings.HasPrefix(rest, "seconds") { // a DCI4 relative time: `86401.00 seconds (1d)`
		return x, "s", true
	}
	mult := 1.0
	prefixes := []struct {
		p    string
		f    float64
		base string
	}{
		{"KiB", 1 << 10, "B"}, {"MiB", 1 << 20, "B"}, {"GiB", 1 << 30, "B"}, {"TiB", 1 << 40, "B"},
		{"PiB", 1 << 50, "B"}, {"EiB", 1 << 60, "B"},
		{"ps", 1e-12, "s"}, {"ns", 1e-9, "s"}, {"µs", 1e-6, "s"}, {"ms", 1e-3, "s"},
		{"min", 60, "s"}, {"h", 3600, "s"},
	}
	for _, p := range prefixes {
		if rest == p.p || strings.HasPrefix(rest, p.p+"/") {
			return x * p.f, p.base + strings.TrimPrefix(rest, p.p), true
		}
	}
	for _, p := range []struct {
		p string
		f float64
	}{{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}} {
		if strings.HasPrefix(rest, p.p) && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '/') {
			mult, rest = p.f, strings.TrimPrefix(strings.TrimPrefix(rest, p.p), " ")
			break
		}
	}
	return x * mult, rest, true
}

// issue 12 (item 8): for every datum of the fixture and synthetic sources, `text` and
// `value`+`units` of `get --json` say the same quantity, percentages and utilizations included.
func TestJSONValueAgreesWithText(t *testing.T) {
	t.Parallel() // it waits on daemons, pmlogger or real clocks: beside the other tests that do (issue 37)
	sources := map[string][]string{
		"fixture":   {"*/*", "*/*/*", "--procfs", fixProc, "--sysfs", fixSys},
		"synthetic": {"*/*", "*/*/*", "*/*/*/*", "--source", "synthetic:disks=3,nics=2,cpus=4,seed=7"},
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			out, errs, code := runFake(t, append([]string{"get", "--all", "--json"}, src...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var reading struct {
				Values []struct {
					Path, State, Text, Units string
					Value                    *float64
				}
			}
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<24)
			checked := 0
			for sc.Scan() {
				if err := json.Unmarshal(sc.Bytes(), &reading); err != nil {
					t.Fatal(err)
				}
				for _, v := range reading.Values {
					if v.State != "valid" {
						if v.Value != nil {
							t.Errorf("%s: %s value %v, want null", v.Path, v.State, *v.Value)
						}
						continue
					}
					if v.Value == nil {
						continue // text and octet strings
					}
					q, unit, ok := textQuantity(v.Text)
					if !ok {
						continue // exact DCI4 text: yes/no, dates, addresses
					}
					if unit != v.Units && !(unit == "" && v.Units == "") {
						t.Errorf("%s: text %q is in %q, units say %q", v.Path, v.Text, unit, v.Units)
						continue
					}
					// The text has three significant digits (one decimal for percentages).
					tol := math.Max(math.Abs(*v.Value)*0.006, 0.051)
					if math.Abs(q-*v.Value) > tol {
						t.Errorf("%s: text %q is %g %s, value is %g %s", v.Path, v.Text, q, unit, *v.Value, v.Units)
					}
					checked++
				}
			}
			if checked < 50 {
				t.Fatalf("only %d values checked", checked)
			}
		})
	}
}
