package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dcimon/headless"
	"dcimon/theme"
)

// completeTimeout bounds the reading of a source for a path's completion: a shell waits for the
// answer, so a source that does not answer in time completes nothing rather than hanging.
const completeTimeout = 2 * time.Second

// completer answers the shells' completion requests (cobra's hidden __complete command) from
// the flags parsed so far: cfg holds them when a completion function runs.
type completer struct {
	ctx context.Context
	cfg *config
	env headless.Env
}

// completionCmd is `dcimon completion SHELL`.
func completionCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "a completion script for bash, zsh or fish",
		Long: `Print a completion script for SHELL. It completes commands and flags, and name-space paths
from the source the other flags on the line name (CPU/ offers CPU/cpu0/, CPU/busy...), read
under a short deadline. Load it into the running shell, or install it where the shell loads
completions from.`,
		Example: `  source <(dcimon completion bash)
  dcimon completion bash > /etc/bash_completion.d/dcimon
  dcimon completion zsh > "${fpath[1]}/_dcimon"
  dcimon completion fish > ~/.config/fish/completions/dcimon.fish`,
		ValidArgs: []string{"bash\tBourne-again shell", "zsh\tZ shell", "fish\tfriendly interactive shell"},
		RunE:      ranCmd(cfg, "completion"),
	}
}

// writeCompletion writes the completion script for shell, with descriptions.
func writeCompletion(root *cobra.Command, shell string, w io.Writer) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, true)
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	}
	return usagef("completion %q: want bash, zsh or fish", shell)
}

// paths completes PATH arguments, at most max of them (-1: any number).
func (c completer) paths(kind headless.CompleteKind, max int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
		if max >= 0 && len(args) >= max {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return c.names(kind, typed, "")
	}
}

// hot completes hot's GRANDPARENT (a context) and STAT (its children's statistics).
func (c completer) hot() cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
		switch {
		case c.cfg.hotName != "":
			return nil, cobra.ShellCompDirectiveNoFileComp
		case len(args) == 0:
			return c.names(headless.CompleteContext, typed, "")
		case len(args) == 1:
			return c.names(headless.CompleteStat, typed, args[0])
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// files completes the first n arguments as file names.
func (c completer) files(n int) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) < n {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// config completes config's words, check's FILE and theme's NAME.
func (c completer) config() cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return []string{"default\tthe annotated default file", "check\tcheck a configuration file", "theme\ta built-in theme as a file"}, cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "check":
			return []string{"toml"}, cobra.ShellCompDirectiveFilterFileExt
		case len(args) == 1 && args[0] == "theme":
			return theme.Names(), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// names reads the source the flags name, within completeTimeout, for what may follow typed.
func (c completer) names(kind headless.CompleteKind, typed, grandparent string) ([]string, cobra.ShellCompDirective) {
	common := c.cfg.c
	common.Fleet = len(common.Archives) > 1 || common.Series != ""
	if common.Series == "" && (strings.HasPrefix(common.Source, "pcp://") || strings.HasPrefix(common.Source, "pcps://")) {
		hosts, err := headless.ParseHosts(common.Hosts, os.ReadFile)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		common.HostList, common.Fleet = hosts, len(hosts) > 1
	}
	ctx, cancel := context.WithTimeout(c.ctx, completeTimeout)
	defer cancel()
	type result struct {
		names []string
		err   error
	}
	// The reading runs apart, so that a source that ignores the deadline cannot hold the shell:
	// the process ends once the answer (or no answer) is written.
	done := make(chan result, 1)
	go func() {
		names, err := headless.Complete(ctx, common, c.env, kind, typed, grandparent)
		done <- result{names, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			cobra.CompDebugln(fmt.Sprintf("dcimon: completing %q: %v", typed, r.err), false)
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		dir := cobra.ShellCompDirectiveNoFileComp
		for _, n := range r.names {
			if strings.HasSuffix(n, "/") {
				dir |= cobra.ShellCompDirectiveNoSpace // a context: its children come next
				break
			}
		}
		return r.names, dir
	case <-ctx.Done():
		cobra.CompDebugln(fmt.Sprintf("dcimon: completing %q: no answer within %v", typed, completeTimeout), false)
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// registerFlagCompletions gives every command's flags their values' completion.
func registerFlagCompletions(root *cobra.Command, c completer) {
	fixed := func(words ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
	}
	dirs := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	anyFile := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault
	}
	byFlag := map[string]cobra.CompletionFunc{
		"source": cobra.FixedCompletions([]string{"host\tthis host's /proc and /sys", "pcp://\thosts through PCP's pmproxy",
			"synthetic:\ta made-up host: disks=N,nics=N,cpus=N,procs=N,seed=N"}, cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace),
		"procfs":    dirs,
		"sysfs":     dirs,
		"suppliers": dirs,
		"archive":   archiveBases,
		"config":    cobra.FixedCompletions([]string{"toml"}, cobra.ShellCompDirectiveFilterFileExt),
		"output":    anyFile,
		"debug":     anyFile,
		"theme": func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return theme.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		"feed":            fixed("none", "threshold", "always"),
		"exceptions":      fixed("none", "exception", "trap", "both"),
		"archive-version": fixed("2", "3"),
		"format":          fixed("prometheus", "openmetrics"),
		"name":            c.hotsetNames,
	}
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for name, f := range byFlag {
			if cmd.Flags().Lookup(name) != nil {
				_ = cmd.RegisterFlagCompletionFunc(name, f)
			}
		}
		// The flags whose values are words no list can give: no file names either.
		cmd.Flags().VisitAll(func(fl *pflag.Flag) {
			if _, ok := byFlag[fl.Name]; !ok && fl.Value.Type() != "bool" {
				_ = cmd.RegisterFlagCompletionFunc(fl.Name, cobra.NoFileCompletions)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// hotsetNames completes hot --name: the configuration's hotsets (the defaults without a file).
func (c completer) hotsetNames(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	eff, err := loadSettings(c.cfg, c.env)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, h := range eff.Hotsets {
		names = append(names, h.Name)
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// archiveBases completes --archive: directories, and the archives in them by their base name
// (the BASE of BASE.meta), which is what --archive takes.
func archiveBases(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	dir, shown := ".", ""
	if i := strings.LastIndex(typed, "/"); i >= 0 {
		dir, shown = typed[:i+1], typed[:i+1]
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	hidden := strings.HasPrefix(filepath.Base(typed), ".") && !strings.HasSuffix(typed, "/")
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && !hidden {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, shown+name+"/")
		case strings.HasSuffix(name, ".meta"):
			out = append(out, shown+strings.TrimSuffix(name, ".meta"))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
