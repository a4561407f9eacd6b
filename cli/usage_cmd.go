package cli

// Usage errors that point where help is (issue 42 item 3): a usage error names the command's
// own --help (`Run 'dcimon get --help' for usage.`), and an unknown flag gets the nearest flag
// of that command (`unknown flag --intervl; did you mean --interval?`).

import (
	"errors"
	"fmt"
	"strings"

	"dcimon/headless"
	"dcimon/internal/spell"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commandFlagError is a malformed flag of command c as a usage error of c, with the nearest
// flag c has when the flag is unknown.
func commandFlagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		flag, _, _ := strings.Cut(name, "=")
		msg = "unknown flag: --" + flag
		if near := spell.Closest(flag, names); near != "" {
			msg += "; did you mean --" + near + "?"
		}
		err = usagef("%s", msg)
	} else {
		err = flagError(err)
	}
	var ue *headless.UsageError
	if errors.As(err, &ue) {
		ue.Cmd = commandName(c)
	}
	return err
}

// commandName is c's name on the command line: "" for the root (the monitor).
func commandName(c *cobra.Command) string {
	if c == nil || !c.HasParent() {
		return ""
	}
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// helpHint is the line after a usage error: the --help of the command it is about.
func helpHint(cfg *config, err error) string {
	cmd := ""
	var ue *headless.UsageError
	switch {
	case errors.As(err, &ue) && ue.Cmd != "":
		cmd = ue.Cmd
	case cfg != nil && cfg.cmd != "" && cfg.cmd != "help-shown":
		cmd = cfg.cmd
	}
	if cmd == "" {
		return "Run 'dcimon --help' for usage."
	}
	return fmt.Sprintf("Run 'dcimon %s --help' for usage.", cmd)
}

// isUsage says whether err is a usage error (exit status 2).
func isUsage(err error) bool {
	var ue *headless.UsageError
	return errors.As(err, &ue)
}

// nearestCommand is the command nearest to a mistyped word: the fewest letters off (two at
// most: `lsit` is list), else the first whose name it begins (`desc`); "" for none.
func nearestCommand(root *cobra.Command, word string) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	if near := spell.Closest(word, names); near != "" {
		return near
	}
	if s := root.SuggestionsFor(word); len(s) > 0 {
		return s[0]
	}
	return ""
}
