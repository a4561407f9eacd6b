package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"dcimon/namespace"
	"dcimon/views"
)

// formField is one field of the hotset form: a number typed in, or a choice among names.
type formField struct {
	label   string
	input   lineInput
	choices []string // a choice field when not nil
	choice  int
	hint    string
	// fresh marks a number field whose text is as the form filled it in: the first character
	// typed replaces it, as a selected text is replaced (issue 42 item 4: `n`, 80, Shift-Tab, 3,
	// Enter is "the top 3 above 80%").
	fresh bool
}

func (f *formField) value() string {
	if f.choices != nil {
		return f.choices[f.choice]
	}
	return f.input.Value()
}

var (
	feedChoices   = []string{"none", "threshold", "always"}
	exceptChoices = []string{"none", "event", "SNMP trap", "event and trap"}
)

// hotForm creates or edits a peer set for a statistic: the grandparent and statistic come from
// the selection; the person chooses max responses, threshold, feed, exceptions, frequency,
// severity and trap number. The name space checks the combination and the form shows its
// refusal (SPMI-HOT-13), so the rules live in one place.
type hotForm struct {
	keys    *formKeys
	inKeys  *inputKeys
	grandpa string
	stat    string
	edit    *namespace.HotVals
	measure views.Measure // how the statistic is shown: the threshold's units
	fields  []formField
	focus   int
	err     string
}

// hotFormDone is what a key did to the form.
type hotFormDone int

const (
	formOpen   hotFormDone = iota // open
	formSubmit                    // submit
	formCancel                    // cancel
)

// newHotForm prepares the form for grandpa's peers ranked by stat, filled from spec.
//
// m is how the statistic is shown: the threshold is typed and shown in its units (issue 12).
func newHotForm(keys *formKeys, inKeys *inputKeys, grandpa, stat string, m views.Measure, spec namespace.HotSpec, edit *namespace.HotVals) *hotForm {
	num := func(label string, v string, hint string) formField {
		return formField{label: label, input: newLineInput(inKeys, v, 12), hint: hint, fresh: true}
	}
	f := &hotForm{keys: keys, inKeys: inKeys, grandpa: grandpa, stat: stat, edit: edit, measure: m}
	unit := m.BaseLabel()
	if unit == "" {
		unit = "the statistic's units"
	}
	f.fields = []formField{
		num("max responses", strconv.Itoa(spec.MaxResp), "0 = every qualifying peer"),
		num("threshold", views.ThresholdInput(m, spec.Threshold), "in "+unit+": > 0 above, < 0 below |T|, 0 all"),
		{label: "feed", choices: feedChoices, choice: int(spec.Feed), hint: "←/→, space or PgUp/PgDn: which peers are listed"},
		{label: "alerts", choices: exceptChoices, choice: int(spec.Except), hint: "←/→, space, PgUp/PgDn: to the event log, no SNMP"},
		num("frequency", strconv.Itoa(spec.Frequency), "minutes between alerts, at least 5 with them"),
		num("severity", strconv.Itoa(spec.Severity), "positive with alerts, else 0"),
		num("trap number", strconv.Itoa(spec.TrapNo), "positive with traps, else 0"),
	}
	if edit == nil {
		f.focus = formThreshold // a new hotset starts where it is decided: over what
	}
	return f
}

// formThreshold is the place of the threshold among the form's fields.
const formThreshold = 1

// Update handles a key; it reports whether the form was submitted or cancelled.
func (f *hotForm) Update(km tea.KeyMsg) hotFormDone {
	fld := &f.fields[f.focus]
	f.err = "" // an error stays only until the person acts on it (issue 12)
	switch {
	case key.Matches(km, f.keys.Cancel):
		return formCancel
	case key.Matches(km, f.keys.Submit):
		return formSubmit
	case key.Matches(km, f.keys.Next):
		f.focus = (f.focus + 1) % len(f.fields)
		f.fields[f.focus].fresh = true
	case key.Matches(km, f.keys.Prev):
		f.focus = (f.focus + len(f.fields) - 1) % len(f.fields)
		f.fields[f.focus].fresh = true
	case fld.choices != nil && (key.Matches(km, f.keys.Inc) || key.Matches(km, f.inKeys.Right) || km.Type == tea.KeySpace):
		f.step(f.focus, 1)
	case fld.choices != nil && (key.Matches(km, f.keys.Dec) || key.Matches(km, f.inKeys.Left)):
		f.step(f.focus, -1)
	case fld.choices == nil:
		if fld.fresh && km.Type == tea.KeyRunes && !km.Paste {
			fld.input.SetValue("") // the first character typed replaces the text filled in
		}
		fld.fresh = false
		fld.input.Update(km)
	}
	return formOpen
}

// step moves field i's choice by n (round the list); a text field has none to move.
func (f *hotForm) step(i, n int) {
	fld := &f.fields[i]
	if fld.choices == nil {
		return
	}
	k := len(fld.choices)
	fld.choice = ((fld.choice+n)%k + k) % k
}

// formFieldsTop is the form box's line of its first field: the border, the title, a blank.
const formFieldsTop = 3

// Spec reads the fields into a peer set specification; a field that is not a number is an error
// naming the field.
func (f *hotForm) Spec() (namespace.HotSpec, error) {
	sp := namespace.HotSpec{Stat: f.stat, Grandpa: f.grandpa, Format: f.measure.Format}
	ints := map[string]*int{"max responses": &sp.MaxResp, "frequency": &sp.Frequency, "severity": &sp.Severity, "trap number": &sp.TrapNo}
	for i := range f.fields {
		fld := &f.fields[i]
		switch fld.label {
		case "threshold":
			v, err := views.ParseThreshold(f.measure, fld.value())
			if err != nil {
				return sp, err
			}
			sp.Threshold = v
		case "feed":
			sp.Feed = namespace.HotFeed(fld.choice)
		case "alerts":
			sp.Except = namespace.HotExcept(fld.choice)
		default:
			p := ints[fld.label]
			v, err := strconv.Atoi(strings.TrimSpace(fld.value()))
			if err != nil {
				return sp, fmt.Errorf("%s %q is not a whole number", fld.label, fld.value())
			}
			*p = v
		}
	}
	return sp, nil
}

// ShortHelp is the form's key help.
func (f *hotForm) ShortHelp() []key.Binding {
	return []key.Binding{f.keys.Next, f.keys.Inc, f.keys.Submit, f.keys.Cancel}
}

// View renders the form as a box w cells wide; keys is its key help, rendered by the caller.
func (f *hotForm) View(st *styles, w int, keys string) []string {
	inner := max(w-4, 10)
	title := "New hotset"
	if f.edit != nil {
		title = "Edit hotset"
	}
	var lines []string
	lines = append(lines, st.Text.Accent.Render(pad(title+": rank "+f.grandpa+" peers by "+f.stat, inner)))
	lines = append(lines, "")
	lw := 14
	for i := range f.fields {
		fld := &f.fields[i]
		focused := i == f.focus
		label := pad(fld.label, lw)
		ls := st.Text.Muted
		if focused {
			ls = st.Input.Prompt
		}
		var val string
		if fld.choices != nil {
			val = "‹ " + fld.choices[fld.choice] + " ›"
			if focused {
				val = st.Row.Selected.Render(val)
			}
			val = fitLine(val, 16)
		} else {
			val = fld.input.View(st, 16, focused)
			if focused && fld.fresh && fld.input.Value() != "" {
				// Shown selected: typing replaces it.
				val = fitLine(st.Row.Selected.Render(cut(fld.input.Value(), 15)), 16)
			}
		}
		hint := ""
		if hw := inner - lw - 18; hw > 8 {
			hint = st.Text.Muted.Render(cut(fld.hint, hw))
		}
		lines = append(lines, ls.Render(label)+" "+val+"  "+hint)
	}
	lines = append(lines, "")
	if f.err != "" {
		for _, l := range wrapText(f.err, inner) {
			lines = append(lines, st.Input.Error.Render(l))
		}
	} else {
		lines = append(lines, st.Text.Muted.Render(cut("the name space checks the combination when you save", inner)))
	}
	lines = append(lines, "", fitLine(keys, inner))
	return boxed(st, title, lines, w)
}

// boxed frames lines as an overlay box w cells wide.
func boxed(st *styles, title string, lines []string, w int) []string {
	h := len(lines) + 2
	b := box{Outer: rect{0, 0, w, h}, Inner: rect{1, 1, w - 2, len(lines)}}
	padded := make([]string, len(lines))
	for i, l := range lines {
		padded[i] = " " + l
	}
	return frame(st, b, title, "", true, padded)
}
