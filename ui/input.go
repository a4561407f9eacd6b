package ui

import (
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is a one-line text input for the filter, the go-to prompt and the form fields:
// bubbles/textinput, which measures text in terminal cells (a wide name takes two cells a
// character), with the monitor's key map, a cursor that does not blink (a blinking cursor would
// wake the screen twice a second while nothing changes), no clipboard and no suggestions. Two
// edits keep dcimon's meaning: Clear empties the whole line, and DeleteWord stops at a '/', so
// ctrl+w takes back one level of a path.
type lineInput struct {
	keys *inputKeys
	ti   *textinput.Model // a pointer: the model is copied at every message, the input is 4 KB
}

func newLineInput(keys *inputKeys, value string, limit int) lineInput {
	ti := textinput.New()
	ti.Prompt = ""
	ti.CharLimit = limit
	ti.Cursor.SetMode(cursor.CursorStatic)
	none := key.NewBinding(key.WithDisabled())
	ti.KeyMap = textinput.KeyMap{
		CharacterForward: keys.Right, CharacterBackward: keys.Left,
		LineStart: keys.Home, LineEnd: keys.End,
		DeleteCharacterBackward: keys.Backspace, DeleteCharacterForward: keys.Delete,
		WordForward: none, WordBackward: none, DeleteWordBackward: none, DeleteWordForward: none,
		DeleteAfterCursor: none, DeleteBeforeCursor: none, Paste: none,
		AcceptSuggestion: none, NextSuggestion: none, PrevSuggestion: none,
	}
	ti.Focus()
	in := lineInput{keys: keys, ti: &ti}
	in.SetValue(value)
	return in
}

// Value is the text.
func (in *lineInput) Value() string {
	if in.ti == nil {
		return ""
	}
	return in.ti.Value()
}

// SetValue replaces the text and puts the cursor at its end.
func (in *lineInput) SetValue(s string) {
	in.ti.SetValue(s)
	in.ti.CursorEnd()
}

// Update edits the text with a key; it reports whether the text changed. Accept and Cancel are
// left to the owner.
func (in *lineInput) Update(km tea.KeyMsg) bool {
	before := in.ti.Value()
	switch {
	case key.Matches(km, in.keys.Clear):
		in.ti.SetValue("")
	case key.Matches(km, in.keys.DeleteWord):
		rs, pos := []rune(before), in.ti.Position()
		i := pos
		for i > 0 && unicode.IsSpace(rs[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(rs[i-1]) && rs[i-1] != '/' {
			i--
		}
		if i == pos && i > 0 {
			i--
		}
		in.ti.SetValue(string(rs[:i]) + string(rs[pos:]))
		in.ti.SetCursor(i)
	case km.Type == tea.KeyRunes || km.Type == tea.KeySpace:
		// Only printable characters: a control character typed or pasted is dropped, not
		// turned into a space.
		rs := km.Runes
		if km.Type == tea.KeySpace {
			rs = []rune{' '}
		}
		keep := rs[:0:0]
		for _, r := range rs {
			if unicode.IsPrint(r) {
				keep = append(keep, r)
			}
		}
		if len(keep) == 0 {
			return false
		}
		km = tea.KeyMsg{Type: tea.KeyRunes, Runes: keep, Paste: km.Paste}
		*in.ti, _ = in.ti.Update(km)
	default:
		*in.ti, _ = in.ti.Update(km)
	}
	return in.ti.Value() != before
}

// View renders the text in exactly w cells, with the cursor when focused; long text scrolls so
// the cursor stays visible.
func (in *lineInput) View(st *styles, w int, focused bool) string {
	if w <= 0 {
		return ""
	}
	ti := *in.ti           // a copy: drawing changes nothing
	ti.Width = max(w-1, 1) // textinput draws one cell more than Width, for the cursor
	ti.TextStyle = st.Input.Text.Style()
	ti.Cursor.Style = st.Input.Cursor.Style()
	ti.Cursor.TextStyle = st.Input.Text.Style()
	if !focused {
		ti.Blur()
	}
	return fitLine(ansi.Truncate(ti.View(), w, ""), w)
}
