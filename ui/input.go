package ui

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// lineInput is a one-line text input for the filter, the go-to prompt and the form fields. It is
// small on purpose: bubbles/textinput would pull in a clipboard dependency the module does not
// have, and these inputs need no clipboard, suggestions or masking.
type lineInput struct {
	keys  *inputKeys
	runes []rune
	pos   int
	limit int // most runes accepted; 0 = no limit
}

func newLineInput(keys *inputKeys, value string, limit int) lineInput {
	in := lineInput{keys: keys, limit: limit}
	in.SetValue(value)
	return in
}

// Value is the text.
func (in *lineInput) Value() string { return string(in.runes) }

// SetValue replaces the text and puts the cursor at its end.
func (in *lineInput) SetValue(s string) {
	in.runes = []rune(s)
	if in.limit > 0 && len(in.runes) > in.limit {
		in.runes = in.runes[:in.limit]
	}
	in.pos = len(in.runes)
}

// Update edits the text with a key; it reports whether the text changed. Accept and Cancel are
// left to the owner.
func (in *lineInput) Update(km tea.KeyMsg) bool {
	k := in.keys
	switch {
	case key.Matches(km, k.Backspace):
		if in.pos > 0 {
			in.runes = append(in.runes[:in.pos-1], in.runes[in.pos:]...)
			in.pos--
			return true
		}
	case key.Matches(km, k.Delete):
		if in.pos < len(in.runes) {
			in.runes = append(in.runes[:in.pos], in.runes[in.pos+1:]...)
			return true
		}
	case key.Matches(km, k.Left):
		in.pos = max(in.pos-1, 0)
	case key.Matches(km, k.Right):
		in.pos = min(in.pos+1, len(in.runes))
	case key.Matches(km, k.Home):
		in.pos = 0
	case key.Matches(km, k.End):
		in.pos = len(in.runes)
	case key.Matches(km, k.Clear):
		changed := len(in.runes) > 0
		in.runes, in.pos = in.runes[:0], 0
		return changed
	case key.Matches(km, k.DeleteWord):
		i := in.pos
		for i > 0 && unicode.IsSpace(in.runes[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(in.runes[i-1]) && in.runes[i-1] != '/' {
			i--
		}
		if i == in.pos && i > 0 {
			i--
		}
		if i < in.pos {
			in.runes = append(in.runes[:i], in.runes[in.pos:]...)
			in.pos = i
			return true
		}
	case km.Type == tea.KeyRunes || km.Type == tea.KeySpace:
		rs := km.Runes
		if km.Type == tea.KeySpace {
			rs = []rune{' '}
		}
		ins := make([]rune, 0, len(rs))
		for _, r := range rs {
			if unicode.IsPrint(r) {
				ins = append(ins, r)
			}
		}
		if in.limit > 0 && len(in.runes)+len(ins) > in.limit {
			ins = ins[:max(in.limit-len(in.runes), 0)]
		}
		if len(ins) == 0 {
			return false
		}
		in.runes = append(in.runes[:in.pos], append(ins, in.runes[in.pos:]...)...)
		in.pos += len(ins)
		return true
	}
	return false
}

// View renders the text in w cells with the cursor when focused; long text scrolls so the cursor
// stays visible.
func (in *lineInput) View(st *styles, w int, focused bool) string {
	if w <= 0 {
		return ""
	}
	start := 0
	if in.pos >= w {
		start = in.pos - w + 1
	}
	end := min(len(in.runes), start+w)
	var sb strings.Builder
	for i := start; i < end; i++ {
		c := string(in.runes[i])
		if focused && i == in.pos {
			sb.WriteString(st.Input.Cursor.Render(c))
			continue
		}
		sb.WriteString(st.Input.Text.Render(c))
	}
	n := end - start
	if focused && in.pos == end && n < w {
		sb.WriteString(st.Input.Cursor.Render(" "))
		n++
	}
	if n < w {
		sb.WriteString(strings.Repeat(" ", w-n))
	}
	return sb.String()
}
