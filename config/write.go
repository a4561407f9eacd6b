package config

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func tomlFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// writeHotset writes one [[hotset]] table; every field, so the file says what is in force.
func writeHotset(w io.Writer, h Hotset, note string) {
	if note != "" {
		fmt.Fprintf(w, "[[hotset]]  # %s\n", note)
	} else {
		fmt.Fprintln(w, "[[hotset]]")
	}
	fmt.Fprintf(w, "name = %s\npath = %s\nstat = %s\nmaxresp = %d\nthreshold = %s\nfeed = %s\nexceptions = %s\nfrequency = %d\nseverity = %d\ntrap = %d\n",
		tomlString(h.Name), tomlString(h.Path), tomlStat(h.Stats), h.MaxResp, tomlFloat(h.Threshold),
		tomlString(orDefault(h.Feed, "threshold")), tomlString(orDefault(h.Exceptions, "none")), h.Frequency, h.Severity, h.Trap)
	if h.Critical != 0 {
		fmt.Fprintf(w, "critical = %s\n", tomlFloat(h.Critical))
	}
	if h.OnScreen {
		fmt.Fprintln(w, "on_screen = true")
	}
}

// tomlStat is a hotset's stat: one name as a string, alternatives as a list.
func tomlStat(ss []string) string {
	if len(ss) == 1 {
		return tomlString(ss[0])
	}
	return tomlStrings(ss)
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

const header = `# dcimon's configuration file.
#
# Read from --config FILE, else $DCIMON_CONFIG, else $XDG_CONFIG_HOME/dcimon/config.toml
# (~/.config/dcimon/config.toml). A setting left out keeps its default; a flag beats the
# environment (DCIMON_INTERVAL, DCIMON_THEME, ... for the settings at the top), which beats
# this file. ` + "`dcimon config`" + ` prints what is in force and where each value comes from;
# ` + "`dcimon config check [FILE]`" + ` validates a file. Unknown keys are errors.
`

// WriteDefault writes the annotated default file: every setting at its default, every action
// with its keys, the default hotsets. It parses back to the defaults (a test checks it).
func WriteDefault(w io.Writer, d Defaults) error {
	e, err := Resolve(d, nil, "", func(string) string { return "" }, nil)
	if err != nil {
		return err
	}
	fmt.Fprint(w, header)
	for _, s := range settings {
		fmt.Fprintf(w, "\n# %s\n%s = %s\n", s.help, s.key, s.toml(e))
	}
	writeKeys(w, d, nil, "")
	fmt.Fprint(w, "\n# Tables: the columns of the disk, netif, cpu, fs, proc and cgroup tables, in order, by their\n"+
		"# headers as the monitor prints them, and the column they are sorted by at first. For example:\n"+
		"# [tables.disk]\n# columns = [\"r/s\", \"w/s\", \"rkB/s\", \"wkB/s\", \"r_await\", \"w_await\", \"%util\"]\n"+
		"# sort = \"%util\"\n# descending = true\n")
	fmt.Fprint(w, "\n# Hotsets (SPMI): the top maxresp subcontexts of path by stat. threshold is in the units stat is\n"+
		"# shown in (50 = 50%): > threshold qualifies, a negative one ranks below |threshold|, 0 all. feed:\n"+
		"# none, threshold (qualifying peers only) or always; exceptions: none, exception, trap or both,\n"+
		"# at most one every frequency minutes (5 or more), with severity (and trap, a trap number) > 0.\n"+
		"# critical (typed as threshold) is `dcimon hot --name NAME --check`'s CRITICAL; threshold its WARNING.\n"+
		"# on_screen = true opens one only while its class is selected (the top processes while the\n"+
		"# process table is shown), so the processes are not read for it otherwise.\n"+
		"# These are the defaults; once the file has a [[hotset]], the file's are all there are.\n"+
		"# `dcimon hot --name NAME` reads one.\n")
	for _, h := range d.Hotsets {
		fmt.Fprintln(w)
		writeHotset(w, h, "")
	}
	return nil
}

// writeKeys writes the [keys] table: each action's keys (rebound ones from keys) and a comment
// with its scope and what it does, or where the binding came from when origin is set.
func writeKeys(w io.Writer, d Defaults, keys map[string][]string, origin string) {
	fmt.Fprint(w, "\n# Keys: each action of the monitor and the keys that do it. Key names as bubbletea writes\n"+
		"# them: \"q\", \"ctrl+c\", \"shift+tab\", \"up\", \"pgdown\", \"enter\", \"esc\", \" \" (space).\n"+
		"# Two actions of one scope (global with one pane's) cannot share a key.\n[keys]\n")
	width := 0
	for _, k := range d.Keys {
		width = max(width, len(k.Action)+3+len(tomlStrings(k.Keys)))
	}
	for _, k := range d.Keys {
		ks, note := k.Keys, k.Scope+": "+k.Help
		if r, ok := keys[k.Action]; ok {
			ks = r
			note = origin
		} else if origin != "" {
			note = "default"
		}
		line := fmt.Sprintf("%s = %s", tomlKey(k.Action), tomlStrings(ks))
		fmt.Fprintf(w, "%-*s  # %s\n", width, line, note)
	}
}

// tomlKey writes an action's name: a dotted name is a TOML dotted key, which [keys] reads back
// as the same name.
func tomlKey(k string) string {
	if strings.ContainsAny(k, " \"=#") {
		return tomlString(k)
	}
	return k
}

// WriteEffective writes the configuration in force as TOML, each value with where it came from.
func WriteEffective(w io.Writer, e *Effective, d Defaults) {
	if e.File != nil {
		fmt.Fprintf(w, "# configuration file: %s\n", e.FilePath)
	} else {
		fmt.Fprintf(w, "# configuration file: %s (none there: built-in defaults)\n", e.FilePath)
	}
	fmt.Fprintln(w, "# each value is followed by where it comes from: default, FILE:LINE, DCIMON_*, or a flag")
	fmt.Fprintln(w)
	width := 0
	for _, s := range settings {
		width = max(width, len(s.key)+3+len(s.toml(e)))
	}
	for _, s := range settings {
		fmt.Fprintf(w, "%-*s  # %s\n", width, s.key+" = "+s.toml(e), e.Origin[s.key])
	}
	origin := ""
	if e.File != nil {
		origin = e.File.Base()
	}
	writeKeys(w, d, e.Keys, origin)
	for _, name := range sortedKeys(e.Tables) {
		t := e.Tables[name]
		fmt.Fprintf(w, "\n[tables.%s]  # %s\ncolumns = %s\nsort = %s\ndescending = %v\n", name, origin, tomlStrings(t.Columns), tomlString(t.Sort), t.Descending)
	}
	for _, h := range e.Hotsets {
		fmt.Fprintln(w)
		writeHotset(w, h, e.Origin["hotset"])
	}
}
