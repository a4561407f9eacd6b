package ui

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"dcimon/internal/spell"

	tea "github.com/charmbracelet/bubbletea"
)

// namedKeys are the names bubbletea gives keys (enter, esc, up, pgdown, f5, ctrl+a, shift+tab,
// " " for space): a binding matches a key press by its name, so a key in the configuration that
// is none of these, nor one character, could never be pressed.
var namedKeys = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for t := tea.KeyType(-1000); t <= 1000; t++ {
		if n := t.String(); n != "" && n != "runes" && !strings.HasPrefix(n, "\x1b") {
			out[n] = true
		}
	}
	return out
})

// checkKeyName says why k names no key a terminal can send, with the closest name when one is
// near (issue 29 item 16: `quit = ["ctrl+q", "fooo"]` is refused, not a key that never works).
func checkKeyName(k string) error {
	if validKeyName(k) {
		return nil
	}
	hint := ""
	if k == "space" {
		hint = ` (space is written " ")`
	} else if c := closestKey(k); c != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", c)
	}
	return fmt.Errorf("%q is not a key%s: a key is one character (\"q\", \"?\", \" \" for space), a key's name "+
		"(enter, esc, tab, backspace, delete, up, down, left, right, home, end, pgup, pgdown, f1 to f20), "+
		"ctrl+ and a letter, shift+tab, or any of these after alt+", k, hint)
}

func validKeyName(k string) bool {
	k = strings.TrimPrefix(k, "alt+")
	if r, n := utf8.DecodeRuneInString(k); n == len(k) && r != utf8.RuneError && (unicode.IsPrint(r) || r == ' ') {
		return true
	}
	return namedKeys()[k]
}

// closestKey is the key name nearest k (one edit away for a short name, two for a longer one),
// or "".
func closestKey(k string) string {
	limit := 1
	if len(k) > 4 {
		limit = 2
	}
	best, bestD := "", limit+1
	for n := range namedKeys() {
		if d := spell.Distance(strings.ToLower(k), n); d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	return best
}
