package namespace

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode/utf8"
)

// Label is a DCILabel: an ascii part and an optional opaque i18n part (DCI-LBL-1). An empty label is
// valid (DCI-LBL-2).
type Label struct {
	ASCII string
	I18N  []byte
}

// reservedLabelChars are the characters a DCI ascii label must not contain (DCI-LBL-4, AMB-24).
const reservedLabelChars = "!@#$%^&*()[]{}|,.'\"`:;"

// ValidateLabel checks the reserved-character rule: none of reservedLabelChars and no non-printing
// character except the blank (DCI-LBL-4).
func ValidateLabel(s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			return fmt.Errorf("label %q: invalid UTF-8 at byte %d", s, i)
		case r == ' ':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Errorf("label %q: non-printing character %U at byte %d", s, r, i)
		case strings.ContainsRune(reservedLabelChars, r):
			return fmt.Errorf("label %q: reserved character %q at byte %d", s, r, i)
		}
	}
	return nil
}

// SanitizeLabel turns a real name into a valid DCI label: `%` becomes `pct_` (so SPMI's `%free` is
// `pct_free`, AMB-25), every other reserved or non-printing character becomes `_` (`eth0.100` →
// `eth0_100`, `eth0:1` → `eth0_1`). The original name is kept elsewhere (the SPMI name).
func SanitizeLabel(s string) string {
	if ValidateLabel(s) == nil {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '%':
			b.WriteString("pct_")
		case r == utf8.RuneError, r < 0x20 && r != ' ', r == 0x7f, r >= 0x80 && r < 0xa0,
			strings.ContainsRune(reservedLabelChars, r):
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ValidateName checks an SPMI short name: non-empty, at most SiMaxName-1 bytes, valid UTF-8, no
// `/` (the path separator, AMB-25) and no control characters (SPMI-HIER-3).
func ValidateName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty name")
	case len(s) > SiMaxName-1:
		return fmt.Errorf("name %q is %d bytes, at most %d allowed (SI_MAXNAME)", s, len(s), SiMaxName-1)
	case !utf8.ValidString(s):
		return fmt.Errorf("name %q is not valid UTF-8", s)
	case strings.ContainsRune(s, '/'):
		return fmt.Errorf("name %q contains the path separator /", s)
	case s == "." || s == "..":
		return fmt.Errorf("name %q is reserved", s)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("name %q contains control character %U", s, r)
		}
	}
	return nil
}

// ValidateDescription checks an SPMI description: at most SiMaxLName-1 bytes (SPMI-HIER-3).
func ValidateDescription(s string) error {
	if len(s) > SiMaxLName-1 {
		return fmt.Errorf("description %q is %d bytes, at most %d allowed (SI_MAXLNAME)", s, len(s), SiMaxLName-1)
	}
	return nil
}

// InstanceName turns an operating-system object name (a device or interface name, which may hold
// any bytes) into a safe SPMI name under the one escaping rule of EscapeName, with `/` written as
// `\x2f` so the name stays one path element; and a name longer than SiMaxName-1 bytes is shortened
// deterministically to a prefix, `~` and 8 hex digits of its hash, so it stays unique among
// siblings (SPMI-HIER-3). The original name belongs in the instance description.
func InstanceName(osName string) string {
	s := string(appendEscaped(make([]byte, 0, len(osName)+8), osName, "/"))
	if s == "" {
		s = `\x00`
	}
	if s == "." || s == ".." {
		s = strings.ReplaceAll(s, ".", `\x2e`)
	}
	if len(s) <= SiMaxName-1 {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(osName))
	suffix := fmt.Sprintf("~%08x", h.Sum32())
	cut := SiMaxName - 1 - len(suffix)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + suffix
}
