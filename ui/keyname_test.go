package ui

import (
	"strings"
	"testing"
)

// Issue 29 item 16: a key name in the configuration is one a terminal can send, or it is
// refused (with the nearest name); every built-in key passes the same check, so the check
// refuses nothing the monitor itself binds.
func TestKeyNames(t *testing.T) {
	for _, a := range KeyActions() {
		for _, k := range a.Keys {
			if err := checkKeyName(k); err != nil {
				t.Errorf("built-in %s: %v", a.Name, err)
			}
		}
	}
	for _, k := range []string{"q", "?", " ", "é", "enter", "esc", "ctrl+q", "alt+x", "alt+enter", "shift+tab", "f12", "pgdown", "ctrl+shift+up"} {
		if err := checkKeyName(k); err != nil {
			t.Errorf("%q: %v", k, err)
		}
	}
	for k, hint := range map[string]string{"fooo": ": a key is", "entr": `(did you mean "enter"?)`, "space": `(space is written " ")`,
		"": ": a key is", "ctrl+1": ": a key is", "alt+": ": a key is", "qq": ": a key is", "pgdwn": `(did you mean "pgdown"?)`} {
		err := checkKeyName(k)
		if err == nil || !strings.Contains(err.Error(), hint) {
			t.Errorf("%q: %v, want an error with %q", k, err, hint)
		}
	}
}
