package config

import (
	"strings"
	"testing"
)

// Each setting's row is whole, and its example is a file the package reads back to the value
// the example writes: what the file says, the configuration in force says again.
func TestSettingsRoundTripTheirExamples(t *testing.T) {
	for _, s := range settings {
		if s.help == "" || s.expect.what == "" || s.fromFile == nil || s.value == nil || s.set == nil {
			t.Errorf("%s: a part of its row is missing", s.key)
			continue
		}
		key, want, ok := strings.Cut(s.example, " = ")
		if !ok || key != s.key {
			t.Errorf("%s: example %q does not set it", s.key, s.example)
			continue
		}
		f, err := Parse("config.toml", []byte(s.example+"\n"))
		if err != nil {
			t.Errorf("%s: example %q: %v", s.key, s.example, err)
			continue
		}
		e, err := Resolve(Defaults{}, f, "config.toml", func(string) string { return "" }, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.toml(e); got != want || e.Origin[s.key] != "config.toml:1" {
			t.Errorf("%s: example %q is %s in force (from %s)", s.key, s.example, got, e.Origin[s.key])
		}
	}
}
