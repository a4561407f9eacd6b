package cli

import (
	"regexp"
	"testing"
)

// DCI4-TYPE-3 (issue 29 item 22): the integer types through the product's path: describe shows a
// datum's DCI4 type as the integer type of its width, with that size (a 64-bit counter
// ST_INTEGER64 in 8 bytes, a 32-bit level ST_INTEGER32 in 4). The widths decoded from a slot
// are views/dci4_test.go's (DCI4-INT-1).
func TestDescribeIntegerTypes(t *testing.T) {
	field := func(out, section, key string) string {
		m := regexp.MustCompile(`(?ms)^` + regexp.QuoteMeta(section) + `\n.*?^\s+` + key + `\s+([^\n]+)$`).FindStringSubmatch(out)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for path, want := range map[string][2]string{
		"CPU/cpu0/user":  {"ST_INTEGER64", "8 bytes"},
		"Mem/Real/total": {"ST_INTEGER64", "8 bytes"},
		"NetIf/lo/mtu":   {"ST_INTEGER32", "4 bytes"},
	} {
		out, errs, code := runFake(t, "describe", path, "--procfs", fixProc, "--sysfs", fixSys)
		if code != 0 {
			t.Fatalf("describe %s: exit %d: %s", path, code, errs)
		}
		if typ, size := field(out, "DCI4 description", "type"), field(out, "DCI4 description", "size"); typ != want[0] || size != want[1] {
			t.Errorf("describe %s: DCI4 type %q size %q, want %s in %s", path, typ, size, want[0], want[1])
		}
	}
}
