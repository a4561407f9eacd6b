package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// setting is a top-level setting of the file that the environment (DCIMON_<KEY>) and flags can
// give too: its row in settings is everything the package knows of it, so that a setting is
// added or changed in one place (issue 37: its key was spelled out in seven).
type setting struct {
	key     string
	help    string      // what the default file says of it
	expect  expectation // what the file must write, in the user's words
	example string      // how it is written, for a header that makes it a table
	// fromFile is the file's value as text, as the environment gives it; value is the value in
	// force the same way; set takes such a text, by the one rule for the file, the environment
	// and a flag.
	fromFile func(f *File) string
	value    func(e *Effective) string
	set      func(e *Effective, v string) error
}

// settings are the top-level settings, in the order `dcimon config` prints them.
var settings = []setting{
	{key: "interval", help: "Refresh interval of the monitor, 100ms to 1h (+ and - change it while running).",
		expect: expectation{kString, `a duration in quotes with its unit, such as "1s" or "500ms"`}, example: `interval = "1s"`,
		fromFile: func(f *File) string { return f.Interval.Duration.String() },
		value:    func(e *Effective) string { return e.Interval.String() },
		set: func(e *Effective, v string) error {
			return setDuration(&e.Interval, v, func(d time.Duration) error {
				if d < MinInterval || d > MaxInterval {
					return fmt.Errorf("must be %v to %v, got %v", MinInterval, MaxInterval, d)
				}
				return nil
			})
		}},
	{key: "theme", help: "Colour theme: dark, light, high-contrast or mono (NO_COLOR forces mono).",
		expect: expectation{kString, `a theme's name in quotes, such as "dark"`}, example: `theme = "dark"`,
		fromFile: func(f *File) string { return f.Theme },
		value:    func(e *Effective) string { return e.Theme },
		set:      func(e *Effective, v string) error { e.Theme = v; return nil }},
	{key: "start", help: "What the monitor opens on: overview, tree, values, hotsets, inspector or events.",
		expect: expectation{kString, `a pane's name in quotes: ` + quoted(Panes)}, example: `start = "overview"`,
		fromFile: func(f *File) string { return f.Start },
		value:    func(e *Effective) string { return e.Start },
		set:      func(e *Effective, v string) error { return setChoice(&e.Start, v, Panes) }},
	{key: "path", help: "A context or statistic to select at start (\"Disk/sda\"); empty for none.",
		expect: expectation{kString, `a path in quotes, such as "Disk/sda"`}, example: `path = "Disk"`,
		fromFile: func(f *File) string { return f.Path },
		value:    func(e *Effective) string { return e.Path },
		set:      func(e *Effective, v string) error { e.Path = v; return nil }},
	{key: "show_loop", help: "Also show loop and ram block devices, pseudo and duplicate file systems.",
		expect: expectation{kBool, `true or false`}, example: `show_loop = true`,
		fromFile: func(f *File) string { return strconv.FormatBool(f.ShowLoop) },
		value:    func(e *Effective) string { return strconv.FormatBool(e.ShowLoop) },
		set: func(e *Effective, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("must be true or false, got %q", v)
			}
			e.ShowLoop = b
			return nil
		}},
	{key: "liveness", help: "Assume a supplier dead after this long without new data: 0 (off) or 15s to 600s.",
		expect: expectation{kString, `a duration in quotes with its unit, such as "30s", or "0" (off)`}, example: `liveness = "30s"`,
		fromFile: func(f *File) string { return f.Liveness.Duration.String() },
		value:    func(e *Effective) string { return e.Liveness.String() },
		set: func(e *Effective, v string) error {
			return setDuration(&e.Liveness, v, func(d time.Duration) error {
				if d != 0 && (d < 15*time.Second || d > 600*time.Second) {
					return fmt.Errorf("must be 0 (off) or 15s to 600s, got %v", d)
				}
				return nil
			})
		}},
	{key: "net_units", help: "Interface rates (NetIf's byte rates, the interfaces hotset) in bytes or bits per second: bytes or bits.",
		expect: expectation{kString, quoted(NetUnits)}, example: `net_units = "bits"`,
		fromFile: func(f *File) string { return f.NetUnits },
		value:    func(e *Effective) string { return e.NetUnits },
		set:      func(e *Effective, v string) error { return setChoice(&e.NetUnits, v, NetUnits) }},
	{key: "save_hotsets", help: "A hotset made, edited or deleted in the monitor is saved to this file: ask (once a session), always, never.",
		expect: expectation{kString, quoted(SaveChoices)}, example: `save_hotsets = "ask"`,
		fromFile: func(f *File) string { return f.SaveHotsets },
		value:    func(e *Effective) string { return e.SaveHotsets },
		set:      func(e *Effective, v string) error { return setChoice(&e.SaveHotsets, v, SaveChoices) }},
	{key: "suppliers", help: "Directories of your own statistics (*.prom files, programs), separated by \":\"; empty is suppliers.d beside this file, \"off\" none.",
		expect: expectation{kString, `directories in quotes, separated by ":", or "off"`}, example: `suppliers = "off"`,
		fromFile: func(f *File) string { return f.Suppliers },
		value:    func(e *Effective) string { return e.Suppliers },
		set:      func(e *Effective, v string) error { e.Suppliers = v; return nil }},
}

// Scalars are the top-level settings that the environment (DCIMON_<KEY>) and flags can set, in
// the order `dcimon config` prints them.
var Scalars = func() []string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return keys
}()

// settingOf is the setting named key.
func settingOf(key string) (setting, bool) {
	i := slices.IndexFunc(settings, func(s setting) bool { return s.key == key })
	if i < 0 {
		return setting{}, false
	}
	return settings[i], true
}

// toml is the setting's value in force as the file writes it.
func (s setting) toml(e *Effective) string {
	if slices.Equal(s.expect.kinds, kBool) {
		return s.value(e)
	}
	return tomlString(s.value(e))
}

// setText sets a top-level setting from text, the one rule for the file's value (as text), the
// environment's and a flag's.
func (e *Effective) setText(key, v string) error {
	s, ok := settingOf(key)
	if !ok {
		return fmt.Errorf("unknown setting %q", key)
	}
	return s.set(e, v)
}

// setDuration sets *dst to the duration v if check accepts it.
func setDuration(dst *time.Duration, v string, check func(time.Duration) error) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("must be a duration such as 1s or 500ms, got %q", v)
	}
	if err := check(d); err != nil {
		return err
	}
	*dst = d
	return nil
}

// setChoice sets *dst to v if it is one of choices.
func setChoice(dst *string, v string, choices []string) error {
	if !oneOf(v, choices) {
		return fmt.Errorf("must be one of %s, got %q", strings.Join(choices, ", "), v)
	}
	*dst = v
	return nil
}
