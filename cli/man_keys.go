package cli

// The manual page's KEYS and FILES sections (issue 42 item 3), from the monitor's own bindings
// (ui.KeyActions, the table `?` shows and the configuration's [keys] rebinds) and the files
// dcimon reads and writes.

import (
	"fmt"
	"slices"
	"strings"

	"dcimon/ui"
)

// manKeys writes the KEYS section: each scope's actions with their built-in keys.
func manKeys(b *strings.Builder) {
	b.WriteString(".SH KEYS\n")
	roffText(b, `The monitor's built-in keys, by where they act; each can be rebound in the configuration's
[keys] table by the action's name (in parentheses). ? in the monitor lists the keys in force.
The mouse focuses and selects with a click and scrolls with the wheel; in the process table a
click on a column's header sorts by it, and a second click reverses the order.`)
	acts := ui.KeyActions()
	var scopes []string // in the order they first appear
	for _, a := range acts {
		if !slices.Contains(scopes, a.Scope) {
			scopes = append(scopes, a.Scope)
		}
	}
	for _, sc := range scopes {
		name := manScopes[sc]
		if name == "" {
			name = sc
		}
		fmt.Fprintf(b, ".SS %s\n", roff(name))
		for _, a := range acts {
			if a.Scope == sc {
				fmt.Fprintf(b, ".TP\n.B %s\n%s (%s)\n", roff(strings.Join(a.Keys, ", ")), roff(a.Help), roff(a.Name))
			}
		}
	}
}

// manScopes are the key scopes as the page heads them.
var manScopes = map[string]string{
	"global": "Everywhere", "list": "In lists and tables", "tree": "In the tree", "values": "In the values pane",
	"processes": "In the process table (htop's keys)", "hotsets": "In the hotsets pane", "events": "In the events pane",
	"overview": "On the overview", "inspector": "In the inspector",
}

// manFiles writes the FILES section.
func manFiles(b *strings.Builder) {
	b.WriteString(".SH FILES\n")
	for _, f := range [][2]string{
		{"$XDG_CONFIG_HOME/dcimon/config.toml", "the configuration file (~/.config/dcimon/config.toml without XDG_CONFIG_HOME): settings, keys, tables and hotsets; dcimon config default prints an annotated one. Rewritten only when asked (the monitor's hotsets), whole and atomically."},
		{"$XDG_CONFIG_HOME/dcimon/themes/*.toml", "the user's colour themes, beside the configuration file; dcimon config theme NAME prints a built-in one to copy."},
		{"/proc, /sys", "this host's statistics (--procfs and --sysfs read copies of them instead)."},
		{"BASE.meta, BASE.index, BASE.0 ...", "a PCP archive: what dcimon record writes and --archive BASE reads."},
	} {
		fmt.Fprintf(b, ".TP\n.B %s\n%s\n", roff(f[0]), roff(f[1]))
	}
}

// manExitExtra is what the EXIT STATUS section says beyond the help's line.
const manExitExtra = `hot --check is a monitoring plugin: its status is 0 OK, 1 WARNING, 2 CRITICAL or 3 UNKNOWN
(a usage error included), with its status line on standard output. hot --watch ended by SIGINT
or SIGTERM exits 0.`
