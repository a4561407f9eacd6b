package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpWidth is the width help text is wrapped to, as GNU tools' --help is.
const helpWidth = 80

// flagGroup is one group of a command's flags, in help's order.
type flagGroup struct {
	name  string
	flags []*pflag.Flag
}

// groupedFlags returns the command's flags by group, in flagGroups' order, each group's flags
// in the order they were defined.
func groupedFlags(c *cobra.Command) []flagGroup {
	c.InitDefaultHelpFlag()
	c.InitDefaultVersionFlag()
	by := map[string][]*pflag.Flag{}
	fs := c.Flags()
	fs.SortFlags = false
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := grpOtherFlags
		if a := f.Annotations[groupKey]; len(a) == 1 {
			g = a[0]
		}
		by[g] = append(by[g], f)
	})
	var out []flagGroup
	for _, g := range flagGroups {
		if len(by[g]) > 0 {
			out = append(out, flagGroup{g, by[g]})
		}
	}
	return out
}

// flagSynopsis is how a flag is written: "-i, --interval D" or "    --json".
func flagSynopsis(f *pflag.Flag) string {
	name := flagArg(f)
	s := "    --" + f.Name
	if f.Shorthand != "" {
		s = "-" + f.Shorthand + ", --" + f.Name
	}
	if name != "" {
		s += " " + name
	}
	return s
}

// flagText is a flag's description, with its default when it has one worth saying.
func flagText(f *pflag.Flag) string {
	usage := f.Usage
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
	default:
		if f.Value.Type() != "bool" {
			usage += " (default " + f.DefValue + ")"
		}
	}
	return usage
}

// wrap breaks text into lines of at most width columns (a longer word gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// writeHelp is every command's --help: GNU-style, each flag once with its short form beside its
// long one, the flags grouped, then examples and the exit status.
func writeHelp(w io.Writer, c *cobra.Command) {
	var b strings.Builder
	title := "dcimon"
	if c.HasParent() {
		title = "dcimon " + c.Name()
	}
	fmt.Fprintf(&b, "%s — %s\n\nUsage:\n  %s\n", title, c.Short, useLine(c))
	if !c.HasParent() {
		b.WriteString("  dcimon COMMAND [flags]\n")
	}
	if c.Long != "" {
		fmt.Fprintf(&b, "\n%s\n", c.Long)
	}
	if !c.HasParent() {
		b.WriteString("\nCommands:\n")
		const width = 32 // a longer synopsis has its text on the next line
		for _, s := range orderedCommands(c) {
			if !s.IsAvailableCommand() {
				continue
			}
			if syn := "dcimon " + s.Use; len(syn) > width {
				fmt.Fprintf(&b, "  %s\n  %-*s  %s\n", syn, width, "", s.Short)
			} else {
				fmt.Fprintf(&b, "  %-*s  %s\n", width, syn, s.Short)
			}
		}
		b.WriteString("Run 'dcimon COMMAND --help' for a command's flags and examples.\n")
	}
	groups := groupedFlags(c)
	width := 0
	for _, g := range groups {
		for _, f := range g.flags {
			width = max(width, len(flagSynopsis(f)))
		}
	}
	width = min(width, 30)
	for _, g := range groups {
		fmt.Fprintf(&b, "\n%s:\n", g.name)
		for _, f := range g.flags {
			syn := flagSynopsis(f)
			text := wrap(flagText(f), helpWidth-2-width-2)
			if len(syn) > width {
				// A long synopsis gets a line of its own, its text below it.
				fmt.Fprintf(&b, "  %s\n", syn)
				syn = ""
			}
			for i, l := range text {
				if i > 0 {
					syn = ""
				}
				fmt.Fprintf(&b, "  %-*s  %s\n", width, syn, l)
			}
		}
	}
	if c.Example != "" {
		fmt.Fprintf(&b, "\nExamples:\n%s\n", c.Example)
	}
	fmt.Fprintf(&b, "\n%s\n", exitStatus)
	_, _ = io.WriteString(w, b.String())
}
