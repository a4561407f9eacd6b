package cli

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"dcimon/views"
)

// isTerminal reports whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// terminalSafe is w, or when w is a terminal, w through a views.TerminalWriter (issue 41 item
// 6): the headless commands and dcimon's errors print names and texts others chose (a process's
// name, a host's, a user's supplier's), which must never reach a terminal as they are. To a
// pipe or a file, the documented formats are written exactly. flush writes what the writer
// holds back at the end.
func terminalSafe(w io.Writer) (safe io.Writer, flush func()) {
	if !isTerminal(w) {
		return w, func() {}
	}
	t := views.NewTerminalWriter(w)
	return t, func() { _ = t.Flush() }
}
