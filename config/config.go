// Package config reads, checks and edits dcimon's configuration file
// ($XDG_CONFIG_HOME/dcimon/config.toml): the monitor's defaults, key bindings and saved hotsets.
//
// Every error names the file, line and column, the key, what was expected and what was found
// (`config.toml:14:3: hotset "busiest-disks": maxresp must be >= 0, got -2`); unknown keys are
// errors with a "did you mean" when one is close. The package never writes a file that does not
// parse back to what it meant to write, writes only when asked (SaveHotsets), and then atomically,
// keeping every comment and line it did not change.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"dcimon/internal/spell"
	"dcimon/internal/tomlmsg"

	"github.com/pelletier/go-toml/v2"
)

// File is the configuration as the file gives it. Which keys the file set is in Set.
type File struct {
	Interval    Duration `toml:"interval"`
	Theme       string   `toml:"theme"`
	Start       string   `toml:"start"`
	Path        string   `toml:"path"`
	ShowLoop    bool     `toml:"show_loop"`
	Liveness    Duration `toml:"liveness"`
	NetUnits    string   `toml:"net_units"`
	SaveHotsets string   `toml:"save_hotsets"`
	Suppliers   string   `toml:"suppliers"`

	Tables  map[string]Table `toml:"tables"`
	RawKeys map[string]any   `toml:"keys"`
	Hotset  []Hotset         `toml:"hotset"`

	// Keys are the actions the [keys] table binds, by name: dotted names (pane.next) may be
	// written quoted or as TOML's dotted keys.
	Keys map[string][]string `toml:"-"`

	// Name is the file's path as the user gave it, for messages; "" for built-in defaults.
	Name string `toml:"-"`
	// Set holds the position of every key the file sets, by dotted path ("theme",
	// "hotset[2].maxresp", "keys.quit"), and of every table ("hotset[2]").
	Set map[string]Pos `toml:"-"`
}

// Table is the layout of one of the monitor's well-known tables (disk, netif, cpu, fs, proc, cgroup): the
// columns shown, in order, by their headers, and the column sorted at first.
type Table struct {
	Columns    []string `toml:"columns"`
	Sort       string   `toml:"sort"`
	Descending bool     `toml:"descending"`
}

// Hotset is one saved SPMI hotset: every field of SpmiHotSet's peer set (SPMI-HOT).
type Hotset struct {
	Name string `toml:"name"`
	Path string `toml:"path"` // the grandparent ("Disk")
	// Stats are the statistic ranked ("busy"), or names to try in order, the first the peers
	// carry being ranked (["busy", "%util"]): `stat` in the file, a string or a list.
	Stats     []string `toml:"-"`
	StatRaw   any      `toml:"stat"`
	MaxResp   int      `toml:"maxresp"`
	Threshold float64  `toml:"threshold"` // in the units the statistic is shown in (50 = 50%)
	// Critical is `hot --name NAME --check`'s critical threshold, typed as Threshold; 0 for
	// none (issue 42 item 4). The monitor keeps it as it is.
	Critical   float64 `toml:"critical"`
	Feed       string  `toml:"feed"`       // none, threshold, always
	Exceptions string  `toml:"exceptions"` // none, exception, trap, both
	Frequency  int     `toml:"frequency"`  // minutes between exceptions
	Severity   int     `toml:"severity"`
	Trap       int     `toml:"trap"`
	// OnScreen opens the hotset only while its class is on screen (the top processes, while
	// the process table is shown), so a class read on demand is not read for it otherwise.
	OnScreen bool `toml:"on_screen"`
}

// Pos is where a key is in the file.
type Pos struct{ Line, Col int }

// Duration is a time.Duration written as Go writes it ("1s", "500ms").
type Duration struct{ time.Duration }

// UnmarshalText reads "1s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration such as 1s or 500ms, got %q", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes "1s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Choices of the enumerated settings, in the order the default file lists them.
var (
	Panes       = []string{"overview", "tree", "values", "hotsets", "inspector", "events"}
	SaveChoices = []string{"ask", "always", "never"}
	NetUnits    = []string{"bytes", "bits"}
	Feeds       = []string{"none", "threshold", "always"}
	Exceptions  = []string{"none", "exception", "trap", "both"}
	TableNames  = []string{"disk", "netif", "cpu", "fs"}
)

// Limits of the numeric settings (the same as the command line's).
const (
	MinInterval = 100 * time.Millisecond
	MaxInterval = time.Hour
)

// Error is a configuration error at a place in a file.
type Error struct {
	File string
	Pos  Pos // zero when the error has no place (the file as a whole)
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Pos.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Pos.Line, e.Pos.Col)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(tomlmsg.Cut(e.Key) + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parse reads a configuration from data (name is the file's path, for messages). Unknown keys,
// wrong types and values out of range are errors; the first of them is returned.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name}
	// A UTF-8 byte order mark, which some editors write, is no part of the text (issue 41 item
	// 10: it was refused as U+00EF); line 1's columns count after it.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	set, shapes, err := positions(data)
	if err != nil {
		return nil, err.withFile(name)
	}
	f.Set = set
	if err := checkShapes(name, shapes); err != nil {
		return nil, err
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		return nil, decodeError(name, err)
	}
	if err := f.validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeError turns go-toml's errors into Errors with the file's name.
func decodeError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		de := strict.Errors[0]
		line, col := de.Position()
		key := strings.Join(de.Key(), ".")
		return &Error{File: name, Pos: Pos{line, col}, Key: key, Msg: "unknown key" + suggest(de.Key())}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return &Error{File: name, Pos: Pos{line, col}, Key: strings.Join(de.Key(), "."), Msg: plainDecodeMsg(de.Error())}
	}
	return &Error{File: name, Msg: err.Error()}
}

var typeMsg = regexp.MustCompile(`cannot decode TOML (\w+) into (?:struct field \S+ of type |a Go value of type )?(\S+)`)

// plainDecodeMsg says what was expected and what was found in a user's words:
// "want a string, got an integer" for go-toml's "cannot decode TOML integer into struct field
// config.File.Theme of type string".
func plainDecodeMsg(msg string) string {
	msg = strings.TrimPrefix(msg, "toml: ")
	if m := typeMsg.FindStringSubmatch(msg); m != nil {
		want := map[string]string{"string": "a string", "bool": "true or false", "int": "a whole number", "float64": "a number",
			"[]string": "a list of strings", "[]config.Hotset": "[[hotset]] tables", "map[string][]string": "a table of key lists",
			"map[string]config.Table": "a table of tables", "config.Duration": "a duration such as \"1s\""}[m[2]]
		if want == "" {
			want = m[2]
		}
		return "want " + want + ", got a TOML " + m[1]
	}
	return msg
}

// known are the keys of each table, for "did you mean".
var known = map[string][]string{
	"":       append(slices.Clone(Scalars), "tables", "keys", "hotset"),
	"tables": {"columns", "sort", "descending"},
	"hotset": {"name", "path", "stat", "maxresp", "threshold", "critical", "feed", "exceptions", "frequency", "severity", "trap", "on_screen"},
}

// suggest is " (did you mean X?)" when an unknown key is close to a known one.
func suggest(key []string) string {
	if len(key) == 0 {
		return ""
	}
	table := ""
	switch {
	case len(key) == 1:
	case key[0] == "hotset":
		table = "hotset"
	case key[0] == "tables" && len(key) == 3:
		table = "tables"
	default:
		return ""
	}
	last := key[len(key)-1]
	best, bestD := "", 3
	for _, k := range known[table] {
		if d := spell.Distance(last, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// errAt is an Error at key's position (or the file's start when the file does not set it).
func (f *File) errAt(key, format string, args ...any) *Error {
	return &Error{File: f.Name, Pos: f.Set[key], Key: key, Msg: fmt.Sprintf(format, args...)}
}

// scalarValue is the file's value of a top-level setting as text, as the environment gives it.
func (f *File) scalarValue(key string) string {
	if s, ok := settingOf(key); ok {
		return s.fromFile(f)
	}
	return ""
}

func oneOf(v string, choices []string) bool { return slices.Contains(choices, v) }

// validate checks the file's settings, tables, keys and hotsets, in that order; the error names
// the first wrong one where it is.
func (f *File) validate() error {
	if err := f.validateScalars(); err != nil {
		return err
	}
	for _, name := range sortedKeys(f.Tables) {
		if !oneOf(name, TableNames) {
			return f.errAt("tables."+name, "unknown table %q (tables: %s)", name, strings.Join(TableNames, ", "))
		}
	}
	if err := f.validateKeys(); err != nil {
		return err
	}
	names := map[string]int{}
	for i := range f.Hotset {
		if err := f.validateHotset(i, names); err != nil {
			return err
		}
	}
	return nil
}

// validateScalars checks the settings the environment and flags can give too, by the same rule.
func (f *File) validateScalars() error {
	for _, k := range Scalars {
		if _, ok := f.Set[k]; ok {
			if err := (&Effective{}).setText(k, f.scalarValue(k)); err != nil {
				return f.errAt(k, "%v", err)
			}
		}
	}
	return nil
}

// validateKeys flattens the key bindings into Keys and checks every action keeps a key and
// every key is a name.
func (f *File) validateKeys() error {
	f.Keys = map[string][]string{}
	if err := f.flattenKeys("", f.RawKeys); err != nil {
		return err
	}
	for action, keys := range f.Keys {
		if len(keys) == 0 {
			return f.errAt("keys."+action, "needs at least one key (an action cannot be left without one)")
		}
		for _, k := range keys {
			if k == "" || strings.ContainsAny(k, "\x00\n") {
				return f.errAt("keys."+action, "%q is not a key name", k)
			}
		}
	}
	return nil
}

// hotsetErr is the error of a field of one hotset.
type hotsetErr func(field, format string, args ...any) error

// validateHotset checks the i-th hotset: its name, unique among names (which it joins), its
// statistics (kept in Stats), its fields and its exceptions' and traps' settings.
func (f *File) validateHotset(i int, names map[string]int) error {
	h := f.Hotset[i]
	at := func(field string) string { return fmt.Sprintf("hotset[%d].%s", i, field) }
	who := fmt.Sprintf("hotset %q", h.Name)
	err := func(field, format string, args ...any) error {
		e := f.errAt(at(field), format, args...)
		if _, ok := f.Set[at(field)]; !ok {
			e.Pos = f.Set[fmt.Sprintf("hotset[%d]", i)]
		}
		e.Key = who
		e.Msg = field + " " + e.Msg
		return e
	}
	switch {
	case h.Name == "":
		return err("name", "is missing: every hotset needs a name (for `dcimon hot --name`)")
	case strings.ContainsAny(h.Name, " \t/\x00"):
		return err("name", "must not contain spaces or slashes, got %q", h.Name)
	}
	if j, dup := names[h.Name]; dup {
		return err("name", "is used twice (hotsets %d and %d)", j+1, i+1)
	}
	names[h.Name] = i
	stats, ok := statNames(h.StatRaw)
	if !ok {
		return err("stat", "must be a statistic name or a list of names to try in order, got %v", h.StatRaw)
	}
	f.Hotset[i].Stats, f.Hotset[i].StatRaw = stats, nil
	if e := hotsetFieldsErr(h, len(stats), err); e != nil {
		return e
	}
	return hotsetAlertsErr(h, err)
}

// hotsetFieldsErr checks a hotset's fields one by one (nstats: how many statistics it names).
func hotsetFieldsErr(h Hotset, nstats int, err hotsetErr) error {
	switch {
	case h.Path == "":
		return err("path", "is missing: the context whose subcontexts are ranked (\"Disk\")")
	case nstats == 0:
		return err("stat", "is missing: the statistic ranked (\"busy\")")
	case h.MaxResp < 0:
		return err("maxresp", "must be >= 0, got %d", h.MaxResp)
	case math.IsNaN(h.Threshold) || math.IsInf(h.Threshold, 0):
		return err("threshold", "must be a number, got %v", h.Threshold)
	case math.IsNaN(h.Critical) || math.IsInf(h.Critical, 0):
		return err("critical", "must be a number, got %v", h.Critical)
	case h.Critical != 0 && h.Threshold != 0 && (h.Critical < 0) != (h.Threshold < 0):
		return err("critical", "must point the way threshold does (both above, positive, or both below, negative), got %v and %v", h.Critical, h.Threshold)
	case h.Feed != "" && !oneOf(h.Feed, Feeds):
		return err("feed", "must be none, threshold or always, got %q", h.Feed)
	case h.Exceptions != "" && !oneOf(h.Exceptions, Exceptions):
		return err("exceptions", "must be none, exception, trap or both, got %q", h.Exceptions)
	case h.Frequency < 0:
		return err("frequency", "must be >= 0, got %d", h.Frequency)
	case h.Severity < 0:
		return err("severity", "must be >= 0, got %d", h.Severity)
	case h.Trap < 0:
		return err("trap", "must be >= 0, got %d", h.Trap)
	}
	return nil
}

// hotsetAlertsErr checks what a hotset's exceptions and traps need (SPMI): a frequency of 5
// minutes at least, a severity, a trap number.
func hotsetAlertsErr(h Hotset, err hotsetErr) error {
	exc := h.Exceptions == "exception" || h.Exceptions == "both"
	trap := h.Exceptions == "trap" || h.Exceptions == "both"
	switch {
	case (exc || trap) && h.Frequency < 5:
		return err("frequency", "must be at least 5 minutes with exceptions or traps (SPMI), got %d", h.Frequency)
	case exc && h.Severity <= 0:
		return err("severity", "must be > 0 with exceptions, got %d", h.Severity)
	case trap && h.Trap <= 0:
		return err("trap", "must be > 0 with traps, got %d", h.Trap)
	}
	return nil
}

// statNames reads a hotset's stat: a name, or a list of names; ok false for anything else.
func statNames(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		if v == "" {
			return nil, true
		}
		return []string{v}, true
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := x.(string)
			if !ok || s == "" {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// flattenKeys reads the [keys] table into Keys: a list of key names per action, nested tables
// being dotted action names.
func (f *File) flattenKeys(prefix string, t map[string]any) error {
	for _, name := range sortedKeys(t) {
		action := prefix + name
		switch v := t[name].(type) {
		case map[string]any:
			if err := f.flattenKeys(action+".", v); err != nil {
				return err
			}
		case []any:
			keys := make([]string, 0, len(v))
			for _, k := range v {
				s, ok := k.(string)
				if !ok {
					return f.errAt("keys."+action, "want a list of key names (strings), got %v", k)
				}
				keys = append(keys, s)
			}
			f.Keys[action] = keys
		case string:
			f.Keys[action] = []string{v}
		default:
			return f.errAt("keys."+action, "want a list of key names, got %v", v)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// HotsetByName is the hotset called name.
func (f *File) HotsetByName(name string) (Hotset, bool) {
	for _, h := range f.Hotset {
		if h.Name == name {
			return h, true
		}
	}
	return Hotset{}, false
}

// Base is the file name without its directory, for short messages.
func (f *File) Base() string { return filepath.Base(f.Name) }
