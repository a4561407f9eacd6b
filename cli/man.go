package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	dcfg "dcimon/config"
)

// manCmd is `dcimon man`: the dcimon(1) manual page, made from the command tree that parses the
// command line, so it can never describe flags the binary does not have.
func manCmd(cfg *config) *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "the dcimon(1) manual page, in roff",
		Long: `Print the dcimon(1) manual page, every command and flag of this binary, in roff. Read it with
man -l, or install it where man looks.`,
		Example: `  dcimon man | man -l -
  dcimon man > /usr/local/share/man/man1/dcimon.1`,
		RunE:              ranCmd(cfg, "man"),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
}

// monitorText is the monitor's section of the man page.
const monitorText = `With no command, dcimon opens the interactive monitor: an overview of the host, then panes for
the name space, the values of the context chosen, hotsets, processes and events. It refreshes
every --interval; ? shows its keys. On PCP archives it replays them with a time cursor.`

// The groups of flags every command reading a source shares: the man page lists them once.
var sharedGroups = map[string]bool{grpSource: true, grpTime: true, grpConfig: true}

// roff escapes text for a roff line: backslashes, hyphens (which man renders as the minus that
// options need) and a leading period or quote, which would start a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	s = strings.ReplaceAll(s, "'", `\(aq`)
	s = strings.ReplaceAll(s, "—", `\(em`)
	if strings.HasPrefix(s, ".") {
		s = `\&` + s
	}
	return s
}

// roffFlag is a flag as a tagged paragraph.
func roffFlag(b *strings.Builder, f *pflag.Flag) {
	name := flagArg(f)
	b.WriteString(".TP\n")
	if f.Shorthand != "" {
		fmt.Fprintf(b, `\fB\-%s\fR, `, f.Shorthand)
	}
	fmt.Fprintf(b, `\fB\-\-%s\fR`, roff(f.Name))
	if name != "" {
		fmt.Fprintf(b, ` \fI%s\fR`, roff(name))
	}
	fmt.Fprintf(b, "\n%s\n", roff(flagText(f)))
}

// roffText is a paragraph of help text: lines joined, so that man fills them.
func roffText(b *strings.Builder, text string) {
	b.WriteString(".PP\n")
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(roff(strings.TrimSpace(l)) + "\n")
	}
}

// roffExamples is a command's examples, unfilled, as they are typed.
func roffExamples(b *strings.Builder, ex string) {
	b.WriteString(".PP\nExamples:\n.PP\n.RS 4\n.nf\n")
	for _, l := range strings.Split(ex, "\n") {
		b.WriteString(roff(strings.TrimSpace(l)) + "\n")
	}
	b.WriteString(".fi\n.RE\n")
}

// manDate is the page's date: the commit's, else SOURCE_DATE_EPOCH's (reproducible builds), else
// none.
func manDate() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.time" {
				if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
					return t.UTC().Format("2006-01-02")
				}
			}
		}
	}
	if n, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(n, 0).UTC().Format("2006-01-02")
	}
	return ""
}

// writeMan writes dcimon(1): one page, every command with its own flags and examples, then the
// flags the commands share, the environment and the exit status.
func writeMan(root *cobra.Command, date, ver string, w io.Writer) error {
	var b strings.Builder
	b.WriteString(".\\\" Made by `dcimon man` from dcimon's command definitions; do not edit.\n")
	fmt.Fprintf(&b, ".TH DCIMON 1 %q %q \"User Commands\"\n", date, roff(ver))
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "dcimon \\- %s\n", roff(root.Short))
	cmds := manCommands(root)
	manSynopsis(&b, cmds)
	b.WriteString(".SH DESCRIPTION\n")
	roffText(&b, root.Long)
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		manCommand(&b, c)
	}
	manSharedFlags(&b, mostSharedFlags(cmds))
	manKeys(&b)
	manFiles(&b)
	manEnvironment(&b)
	b.WriteString(".SH EXIT STATUS\n")
	roffText(&b, strings.TrimPrefix(exitStatus, "Exit status: "))
	roffText(&b, manExitExtra)
	b.WriteString(".SH SEE ALSO\n")
	b.WriteString(".BR PCPIntro (1),\n.BR pmcd (1),\n.BR pmproxy (1),\n.BR pmlogger (1),\n.BR pmrep (1)\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// manCommands are the commands the page documents: the monitor, then every available command
// but help, in the help's order.
func manCommands(root *cobra.Command) []*cobra.Command {
	cmds := []*cobra.Command{root}
	for _, c := range orderedCommands(root) {
		if c.IsAvailableCommand() && c.Name() != "help" {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// manSynopsis writes the SYNOPSIS section: a line per command.
func manSynopsis(b *strings.Builder, cmds []*cobra.Command) {
	b.WriteString(".SH SYNOPSIS\n")
	for i, c := range cmds {
		if i > 0 {
			b.WriteString(".br\n")
		}
		// \& after a final period: the synopsis line does not end a sentence.
		fmt.Fprintf(b, ".B %s\\&\n", roff(strings.TrimSuffix(useLine(c), " [flags]")))
		b.WriteString("[\\fIflags\\fR]\n")
	}
}

// manCommand writes a command's subsection: its text, its own flags (the shared ones and --help
// and --version are said once, below) and its examples.
func manCommand(b *strings.Builder, c *cobra.Command) {
	title := "dcimon (the monitor)"
	if c.HasParent() {
		title = "dcimon " + c.Use
	}
	fmt.Fprintf(b, ".SS %s\n", roff(title))
	text := c.Long
	if !c.HasParent() {
		text = monitorText
	}
	if text == "" {
		text = c.Short
	}
	roffText(b, text)
	for _, g := range groupedFlags(c) {
		if sharedGroups[g.name] || g.name == grpOtherFlags {
			continue
		}
		for _, f := range g.flags {
			roffFlag(b, f)
		}
	}
	if c.Example != "" {
		roffExamples(b, c.Example)
	}
}

// mostSharedFlags is the command with the most shared flags (get's, with --from and --to), the
// first of those with as many: the page lists the shared flags as it has them.
func mostSharedFlags(cmds []*cobra.Command) *cobra.Command {
	var shared *cobra.Command
	for _, c := range cmds {
		if shared == nil || sharedCount(c) > sharedCount(shared) {
			shared = c
		}
	}
	return shared
}

// manSharedFlags writes the section of the flags the commands share, by group, as command
// shared has them.
func manSharedFlags(b *strings.Builder, shared *cobra.Command) {
	b.WriteString(".SH SOURCE AND CONFIGURATION OPTIONS\n")
	roffText(b, `The commands that read a source take these flags (record reads a live source only, without
--archive and --at; --from and --to are get's and hot's; config takes --config, --show-loop,
--liveness and --suppliers). Every command takes -h, --help; dcimon takes -v, --version.`)
	for _, g := range groupedFlags(shared) {
		if !sharedGroups[g.name] {
			continue
		}
		fmt.Fprintf(b, ".SS %s\n", roff(g.name))
		for _, f := range g.flags {
			roffFlag(b, f)
		}
	}
}

// manEnvironment writes the ENVIRONMENT section: the variables dcimon reads.
func manEnvironment(b *strings.Builder) {
	b.WriteString(".SH ENVIRONMENT\n")
	for _, e := range [][2]string{
		{"DCIMON_CONFIG", "the configuration file, when --config is not given."},
		{"XDG_CONFIG_HOME", "the configuration file is $XDG_CONFIG_HOME/dcimon/config.toml (~/.config without it)."},
		{settingVars(), "a setting of the configuration file (DCIMON_ and its name in capitals); a flag beats it, and it beats the file."},
		{"DCIMON_PCP_PASSWORD, DCIMON_PCP_PASSWORD_FILE", "the password of a pcp://USER@PROXY source, or the file whose first line it is; never a flag."},
		{"NO_COLOR", "when set and not empty, the monitor draws without colour (the mono theme)."},
	} {
		// \% keeps man from hyphenating a variable's name at the end of a line.
		names := strings.Split(e[0], ", ")
		for i, n := range names {
			names[i] = `\%` + roff(n)
		}
		fmt.Fprintf(b, ".TP\n.B %s\n%s\n", strings.Join(names, ", "), roff(e[1]))
	}
}

// settingVars names the environment variables of the configuration's settings.
func settingVars() string {
	var vs []string
	for _, k := range dcfg.Scalars {
		vs = append(vs, dcfg.EnvName(k))
	}
	return strings.Join(vs, ", ")
}

// sharedCount is how many of the shared flags c takes.
func sharedCount(c *cobra.Command) int {
	n := 0
	for _, g := range groupedFlags(c) {
		if sharedGroups[g.name] {
			n += len(g.flags)
		}
	}
	return n
}
