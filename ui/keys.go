package ui

import "github.com/charmbracelet/bubbles/key"

// Every action has one key.Binding, matched with key.Matches; help is built from these maps, so a
// disabled binding vanishes from it by itself (house style rule 11).

// globalKeys work whatever pane has the focus (routing rule 3).
type globalKeys struct {
	Quit, Help, Filter, Goto     key.Binding
	Suspend, Theme               key.Binding
	Pause, Longer, Shorter       key.Binding
	NextPane, PrevPane           key.Binding
	Tree, Values, Hot, Insp, Evs key.Binding
	Overview, Refresh            key.Binding
	Procs                        key.Binding
	// The time cursor of a replay (issue 15), enabled only then.
	Back, Forward, MinBack, MinFwd, HourBack, HourFwd key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c", "f10"), key.WithHelp("q", "quit")), // F10: htop's
		Suspend:  key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("^z", "suspend")),
		Help:     key.NewBinding(key.WithKeys("?", "f1"), key.WithHelp("?", "help")), // F1: htop's
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Goto:     key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "go to path")),
		Pause:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause")),
		Theme:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "theme")),
		Longer:   key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "longer interval")),
		Shorter:  key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "shorter interval")),
		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Tree:     key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "tree")),
		Values:   key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "values")),
		Hot:      key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "hotsets")),
		Insp:     key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "inspector")),
		Evs:      key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "events")),
		Overview: key.NewBinding(key.WithKeys("o", "0"), key.WithHelp("o", "overview")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh all")),
		Procs:    key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "processes (by I/O from a disk)")),
		Back:     key.NewBinding(key.WithKeys(","), key.WithHelp(",", "one sample back"), key.WithDisabled()),
		Forward:  key.NewBinding(key.WithKeys("."), key.WithHelp(".", "one sample forward"), key.WithDisabled()),
		MinBack:  key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "a minute back"), key.WithDisabled()),
		MinFwd:   key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "a minute forward"), key.WithDisabled()),
		HourBack: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "an hour back"), key.WithDisabled()),
		HourFwd:  key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "an hour forward"), key.WithDisabled()),
	}
}

// replaying turns the keys into a replay's: the time cursor's keys, and play, pause and the
// speed where the live monitor pauses and sets its interval.
func (k *globalKeys) replaying() {
	for _, b := range []*key.Binding{&k.Back, &k.Forward, &k.MinBack, &k.MinFwd, &k.HourBack, &k.HourFwd} {
		b.SetEnabled(true)
	}
	k.Pause.SetHelp(k.Pause.Help().Key, "play / pause")
	k.Longer.SetHelp(k.Longer.Help().Key, "faster: ×1 ×10 ×100")
	k.Shorter.SetHelp(k.Shorter.Help().Key, "slower")
	k.Goto.SetHelp(k.Goto.Help().Key, "go to path, or @TIME")
}

// ShortHelp is the help line's global part.
func (k globalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.NextPane, k.Overview, k.Filter, k.Pause, k.Help, k.Quit}
}

// FullHelp is the help overlay's global columns.
func (k globalKeys) FullHelp() [][]key.Binding {
	cols := [][]key.Binding{
		{k.Overview, k.NextPane, k.PrevPane, k.Tree, k.Values, k.Hot, k.Insp, k.Evs},
		{k.Filter, k.Goto, k.Procs, k.Pause, k.Refresh, k.Longer, k.Shorter, k.Theme, k.Help, k.Suspend, k.Quit},
	}
	if k.Back.Enabled() {
		cols = append(cols, []key.Binding{k.Back, k.Forward, k.MinBack, k.MinFwd, k.HourBack, k.HourFwd})
	}
	return cols
}

// listKeys move a cursor or a scroll position; every list pane embeds them.
type listKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

func newListKeys() listKeys {
	return listKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
	}
}

func (k listKeys) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// treeKeys are the tree pane's bindings.
type treeKeys struct {
	listKeys
	Toggle, Expand, Collapse key.Binding
}

func newTreeKeys() treeKeys {
	return treeKeys{
		listKeys: newListKeys(),
		Toggle:   key.NewBinding(key.WithKeys("enter", " "), key.WithHelp("enter/space", "expand/collapse")),
		Expand:   key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "expand")),
		Collapse: key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "collapse / parent")),
	}
}

// valuesKeys are the values pane's bindings.
type valuesKeys struct {
	listKeys
	Sort, Reverse, Left, Right, Open, Autoscale, Raw key.Binding
	GoAway                                           key.Binding
}

func newValuesKeys() valuesKeys {
	return valuesKeys{
		listKeys:  newListKeys(),
		Sort:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by next column")),
		Reverse:   key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Left:      key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "scroll columns")),
		Right:     key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "scroll columns")),
		Open:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open in tree")),
		Autoscale: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "autoscale bars")),
		Raw:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "raw readings / rates")),
		GoAway:    key.NewBinding(key.WithKeys("X"), key.WithHelp("X X", "send a user's supplier away (SPMI-DDS-5)")),
	}
}

// procKeys are htop's keys in the process table (issue 32 item 7). While the table has the
// focus they come before the global bindings: P sorts by CPU there, not opens the processes;
// t is the tree, not the theme; / and F3 search the table; < and > choose the sort column, not
// move a replay. There is no kill and no renice: dcimon never changes a process.
type procKeys struct {
	SortCPU, SortMem, SortTime, Forest, Search key.Binding
	SortNext, SortPrev, Threads, User          key.Binding
	// Kill is htop's F9: dcimon says that it only watches, and how to signal the process.
	Kill key.Binding
}

func newProcKeys() procKeys {
	return procKeys{
		SortCPU:  key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "sort by %CPU")),
		SortMem:  key.NewBinding(key.WithKeys("M"), key.WithHelp("M", "sort by %MEM")),
		SortTime: key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "sort by TIME+")),
		Forest:   key.NewBinding(key.WithKeys("t", "f5"), key.WithHelp("t/F5", "tree by parent / list")),
		Search:   key.NewBinding(key.WithKeys("f3", "/"), key.WithHelp("F3 or /", "search user and command")),
		SortNext: key.NewBinding(key.WithKeys("f6", ">"), key.WithHelp("F6 or >", "sort by the next column")),
		SortPrev: key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "sort by the previous column")),
		Threads:  key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "user threads (not listed: see THR)")),
		User:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "one user's processes")),
		Kill:     key.NewBinding(key.WithKeys("f9"), key.WithHelp("F9", "kill: dcimon only watches (says how)")),
	}
}

func (k procKeys) all() []key.Binding {
	return []key.Binding{k.SortCPU, k.SortMem, k.SortTime, k.Forest, k.Search, k.SortNext, k.SortPrev, k.Threads, k.User, k.Kill}
}

// hotKeys are the hotset pane's bindings.
type hotKeys struct {
	listKeys
	New, Edit, Delete, Open key.Binding
}

func newHotKeys() hotKeys {
	return hotKeys{
		listKeys: newListKeys(),
		New:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new hotset from selection")),
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit hotset")),
		Delete:   key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete hotset")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open peer in tree")),
	}
}

// scrollKeys are the bindings of the read-only panes (inspector, events).
type scrollKeys struct{ listKeys }

func newScrollKeys() scrollKeys { return scrollKeys{newListKeys()} }

// eventsKeys move through the event log and open an event's context.
type eventsKeys struct {
	listKeys
	Open key.Binding
}

func newEventsKeys() eventsKeys {
	return eventsKeys{listKeys: newListKeys(),
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open in tree"))}
}

// inputKeys edit a one-line input (filter, go-to, form fields).
type inputKeys struct {
	Accept, Cancel, Backspace, Delete, Left, Right, Home, End, Clear, DeleteWord key.Binding
}

func newInputKeys() inputKeys {
	return inputKeys{
		Accept:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Backspace:  key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("⌫", "delete back")),
		Delete:     key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("del", "delete")),
		Left:       key.NewBinding(key.WithKeys("left", "ctrl+b"), key.WithHelp("←", "left")),
		Right:      key.NewBinding(key.WithKeys("right", "ctrl+f"), key.WithHelp("→", "right")),
		Home:       key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home", "start")),
		End:        key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end", "end")),
		Clear:      key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "clear")),
		DeleteWord: key.NewBinding(key.WithKeys("ctrl+w", "alt+backspace"), key.WithHelp("ctrl+w", "delete word")),
	}
}

// formKeys move between the hotset form's fields.
type formKeys struct {
	Next, Prev, Inc, Dec, Submit, Cancel key.Binding
}

func newFormKeys() formKeys {
	return formKeys{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Inc:    key.NewBinding(key.WithKeys("ctrl+n", "pgup"), key.WithHelp("pgup", "next choice")),
		Dec:    key.NewBinding(key.WithKeys("ctrl+p", "pgdown"), key.WithHelp("pgdn", "previous choice")),
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// overlayKeys scroll and close the help overlay.
// overviewKeys choose a number of the overview and open it.
type overviewKeys struct {
	Up, Down, Open key.Binding
}

func newOverviewKeys() overviewKeys {
	return overviewKeys{
		Up:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Open: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open in the tree")),
	}
}

type overlayKeys struct {
	Up, Down, Close key.Binding
}

func newOverlayKeys() overlayKeys {
	return overlayKeys{
		Up:    key.NewBinding(key.WithKeys("up", "k", "pgup"), key.WithHelp("↑", "scroll up")),
		Down:  key.NewBinding(key.WithKeys("down", "j", "pgdown"), key.WithHelp("↓", "scroll down")),
		Close: key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc/?", "close help")),
	}
}

// all are every global binding, for tests and the help overlay's checks.
func (k globalKeys) all() []key.Binding {
	var out []key.Binding
	for _, g := range k.FullHelp() {
		out = append(out, g...)
	}
	return out
}
