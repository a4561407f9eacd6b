package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"dcimon/internal/spell"
)

// keymap is every rebindable binding of the monitor: the global ones, each pane's and the
// overview's. The configuration's [keys] table rebinds an action by name (issue 16); help
// follows by itself, since it is built from the same bindings.
type keymap struct {
	global   globalKeys
	tree     treeKeys
	values   valuesKeys
	procs    procKeys
	hot      hotKeys
	insp     scrollKeys
	events   eventsKeys
	overview overviewKeys
}

// KeyAction is one action of the monitor: its name in the configuration, the scope it works in
// (global, list: every pane's cursor, or one pane), what it does and its keys.
type KeyAction struct {
	Name, Scope, Help string
	Keys              []string
}

// keyScopes are the panes a key is looked up in, each with the global and list actions.
var keyScopes = []string{"tree", "values", "processes", "hotsets", "inspector", "events", "overview"}

type keyAction struct {
	name, scope string
	binds       func(*keymap) []*key.Binding
}

func one(f func(*keymap) *key.Binding) func(*keymap) []*key.Binding {
	return func(k *keymap) []*key.Binding { return []*key.Binding{f(k)} }
}

// list is a cursor action of every list pane (and, for up and down, the overview).
func list(f func(*listKeys) *key.Binding, overview func(*overviewKeys) *key.Binding) func(*keymap) []*key.Binding {
	return func(k *keymap) []*key.Binding {
		out := []*key.Binding{f(&k.tree.listKeys), f(&k.values.listKeys), f(&k.hot.listKeys), f(&k.insp.listKeys), f(&k.events.listKeys)}
		if overview != nil {
			out = append(out, overview(&k.overview))
		}
		return out
	}
}

// keyActions name every rebindable action, in the order `dcimon config default` lists them.
var keyActions = []keyAction{
	{"quit", "global", one(func(k *keymap) *key.Binding { return &k.global.Quit })},
	{"help", "global", one(func(k *keymap) *key.Binding { return &k.global.Help })},
	{"filter", "global", one(func(k *keymap) *key.Binding { return &k.global.Filter })},
	{"goto", "global", one(func(k *keymap) *key.Binding { return &k.global.Goto })},
	{"pause", "global", one(func(k *keymap) *key.Binding { return &k.global.Pause })},
	{"refresh", "global", one(func(k *keymap) *key.Binding { return &k.global.Refresh })},
	{"theme", "global", one(func(k *keymap) *key.Binding { return &k.global.Theme })},
	{"suspend", "global", one(func(k *keymap) *key.Binding { return &k.global.Suspend })},
	{"interval.longer", "global", one(func(k *keymap) *key.Binding { return &k.global.Longer })},
	{"interval.shorter", "global", one(func(k *keymap) *key.Binding { return &k.global.Shorter })},
	{"processes", "global", one(func(k *keymap) *key.Binding { return &k.global.Procs })},
	{"replay.back", "global", one(func(k *keymap) *key.Binding { return &k.global.Back })},
	{"replay.forward", "global", one(func(k *keymap) *key.Binding { return &k.global.Forward })},
	{"replay.minute.back", "global", one(func(k *keymap) *key.Binding { return &k.global.MinBack })},
	{"replay.minute.forward", "global", one(func(k *keymap) *key.Binding { return &k.global.MinFwd })},
	{"replay.hour.back", "global", one(func(k *keymap) *key.Binding { return &k.global.HourBack })},
	{"replay.hour.forward", "global", one(func(k *keymap) *key.Binding { return &k.global.HourFwd })},
	{"pane.overview", "global", one(func(k *keymap) *key.Binding { return &k.global.Overview })},
	{"pane.next", "global", one(func(k *keymap) *key.Binding { return &k.global.NextPane })},
	{"pane.prev", "global", one(func(k *keymap) *key.Binding { return &k.global.PrevPane })},
	{"pane.tree", "global", one(func(k *keymap) *key.Binding { return &k.global.Tree })},
	{"pane.values", "global", one(func(k *keymap) *key.Binding { return &k.global.Values })},
	{"pane.hotsets", "global", one(func(k *keymap) *key.Binding { return &k.global.Hot })},
	{"pane.inspector", "global", one(func(k *keymap) *key.Binding { return &k.global.Insp })},
	{"pane.events", "global", one(func(k *keymap) *key.Binding { return &k.global.Evs })},
	{"up", "list", list(func(l *listKeys) *key.Binding { return &l.Up }, func(o *overviewKeys) *key.Binding { return &o.Up })},
	{"down", "list", list(func(l *listKeys) *key.Binding { return &l.Down }, func(o *overviewKeys) *key.Binding { return &o.Down })},
	{"page.up", "list", list(func(l *listKeys) *key.Binding { return &l.PageUp }, nil)},
	{"page.down", "list", list(func(l *listKeys) *key.Binding { return &l.PageDown }, nil)},
	{"top", "list", list(func(l *listKeys) *key.Binding { return &l.Top }, nil)},
	{"bottom", "list", list(func(l *listKeys) *key.Binding { return &l.Bottom }, nil)},
	{"tree.toggle", "tree", one(func(k *keymap) *key.Binding { return &k.tree.Toggle })},
	{"tree.expand", "tree", one(func(k *keymap) *key.Binding { return &k.tree.Expand })},
	{"tree.collapse", "tree", one(func(k *keymap) *key.Binding { return &k.tree.Collapse })},
	{"values.sort", "values", one(func(k *keymap) *key.Binding { return &k.values.Sort })},
	{"values.reverse", "values", one(func(k *keymap) *key.Binding { return &k.values.Reverse })},
	{"values.left", "values", one(func(k *keymap) *key.Binding { return &k.values.Left })},
	{"values.right", "values", one(func(k *keymap) *key.Binding { return &k.values.Right })},
	{"values.open", "values", one(func(k *keymap) *key.Binding { return &k.values.Open })},
	{"values.autoscale", "values", one(func(k *keymap) *key.Binding { return &k.values.Autoscale })},
	{"values.raw", "values", one(func(k *keymap) *key.Binding { return &k.values.Raw })},
	{"values.tree", "processes", one(func(k *keymap) *key.Binding { return &k.procs.Forest })},
	{"proc.sort.cpu", "processes", one(func(k *keymap) *key.Binding { return &k.procs.SortCPU })},
	{"proc.sort.memory", "processes", one(func(k *keymap) *key.Binding { return &k.procs.SortMem })},
	{"proc.sort.time", "processes", one(func(k *keymap) *key.Binding { return &k.procs.SortTime })},
	{"proc.sort.next", "processes", one(func(k *keymap) *key.Binding { return &k.procs.SortNext })},
	{"proc.sort.previous", "processes", one(func(k *keymap) *key.Binding { return &k.procs.SortPrev })},
	{"proc.search", "processes", one(func(k *keymap) *key.Binding { return &k.procs.Search })},
	{"proc.threads", "processes", one(func(k *keymap) *key.Binding { return &k.procs.Threads })},
	{"proc.user", "processes", one(func(k *keymap) *key.Binding { return &k.procs.User })},
	{"proc.kill", "processes", one(func(k *keymap) *key.Binding { return &k.procs.Kill })},
	{"values.goaway", "values", one(func(k *keymap) *key.Binding { return &k.values.GoAway })},
	{"hot.new", "hotsets", one(func(k *keymap) *key.Binding { return &k.hot.New })},
	{"hot.edit", "hotsets", one(func(k *keymap) *key.Binding { return &k.hot.Edit })},
	{"hot.delete", "hotsets", one(func(k *keymap) *key.Binding { return &k.hot.Delete })},
	{"hot.open", "hotsets", one(func(k *keymap) *key.Binding { return &k.hot.Open })},
	{"events.open", "events", one(func(k *keymap) *key.Binding { return &k.events.Open })},
	{"overview.open", "overview", one(func(k *keymap) *key.Binding { return &k.overview.Open })},
}

func defaultKeymap() keymap {
	return keymap{global: newGlobalKeys(), tree: newTreeKeys(), values: newValuesKeys(), procs: newProcKeys(), hot: newHotKeys(),
		insp: newScrollKeys(), events: newEventsKeys(), overview: newOverviewKeys()}
}

// KeyActions lists every action with its scope, what it does and its built-in keys.
func KeyActions() []KeyAction {
	km := defaultKeymap()
	out := make([]KeyAction, 0, len(keyActions))
	for _, a := range keyActions {
		b := a.binds(&km)[0]
		out = append(out, KeyAction{Name: a.name, Scope: a.scope, Help: b.Help().Desc, Keys: b.Keys()})
	}
	return out
}

// newKeymap is the built-in bindings with rebind's actions bound to their keys instead; it fails
// on an unknown action and on a key that two actions of one scope share (CheckKeys).
func newKeymap(rebind map[string][]string) (keymap, error) {
	km := defaultKeymap()
	for _, name := range sortedNames(rebind) {
		if err := rebindAction(&km, name, rebind[name]); err != nil {
			return keymap{}, err
		}
	}
	for _, scope := range keyScopes {
		if err := checkScope(&km, scope); err != nil {
			return keymap{}, err
		}
	}
	return km, nil
}

// rebindAction binds the action of this name to keys instead of its own.
func rebindAction(km *keymap, name string, keys []string) error {
	i := slices.IndexFunc(keyActions, func(a keyAction) bool { return a.name == name })
	if i < 0 {
		return fmt.Errorf("keys.%s: no such action%s", name, closeAction(name))
	}
	for _, k := range keys {
		if err := checkKeyName(k); err != nil {
			return fmt.Errorf("keys.%s: %w", name, err)
		}
	}
	for _, b := range keyActions[i].binds(km) {
		b.SetKeys(keys...)
		b.SetHelp(helpKeys(keys), b.Help().Desc)
	}
	return nil
}

// checkScope fails on a key two actions looked up in one scope share.
func checkScope(km *keymap, scope string) error {
	owner := map[string]string{}
	for _, a := range keyActions {
		if !inScope(a, scope) {
			continue
		}
		for _, k := range a.binds(km)[0].Keys() {
			if o, ok := owner[k]; ok && o != a.name {
				return fmt.Errorf("keys: %q is bound to both %s and %s (scope %s)", k, o, a.name, scope)
			}
			owner[k] = a.name
		}
	}
	return nil
}

// inScope says an action's keys are looked up in scope: a key is looked up among the global,
// list and one pane's actions. The process table's keys come before the global ones while it
// has the focus (htop's P, t, /, < and >): they may share a key with a global action, not with
// the values pane's own. The overview takes of the list's keys only up and down.
func inScope(a keyAction, scope string) bool {
	switch {
	case scope == "processes" && a.scope == "global":
		return false
	case scope == "processes" && a.scope == "values":
	case a.scope != "global" && a.scope != "list" && a.scope != scope:
		return false
	}
	return !(scope == "overview" && a.scope == "list" && a.name != "up" && a.name != "down")
}

// CheckKeys reports the first problem of a rebinding: an action that does not exist, or a key
// bound to two actions of one scope. The monitor is never started half-configured.
func CheckKeys(rebind map[string][]string) error {
	_, err := newKeymap(rebind)
	return err
}

func sortedNames(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// closeAction is " (did you mean X?)" for a misspelt action: the same name in other case or
// with _ for ., a pane's action named without its pane, or one a typo or two away.
func closeAction(name string) string {
	for _, a := range keyActions {
		if strings.EqualFold(a.name, name) || strings.ReplaceAll(a.name, ".", "_") == name || strings.HasSuffix(a.name, "."+name) {
			return fmt.Sprintf(" (did you mean %s?)", a.name)
		}
	}
	best, bestD := "", 3
	for _, a := range keyActions {
		if d := spell.Distance(name, a.name); d < bestD {
			best, bestD = a.name, d
		}
	}
	if best != "" && bestD < len(name) {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}

// helpKeys is how the help shows keys: the first two, arrows as arrows (`↑/k`).
func helpKeys(keys []string) string {
	arrows := map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→", " ": "space", "pgdown": "pgdn"}
	var out []string
	for _, k := range keys[:min(2, len(keys))] {
		if a, ok := arrows[k]; ok {
			k = a
		}
		out = append(out, k)
	}
	return strings.Join(out, "/")
}

// keyMaps are the model's key bindings. They never change once built: pointers, so a copy of
// the model does not copy them.
type keyMaps struct {
	keys   *globalKeys
	ovKeys *overlayKeys
	oKeys  *overviewKeys
	inKeys *inputKeys
	fKeys  *formKeys
	help   *help.Model // its styles; never changed after New (helpAt sets a width on a copy)
}
