package views

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// TerminalWriter is a writer for a terminal that neutralises what others wrote (issue 41 item
// 6): the headless commands' output (`metrics`, `list`, `describe`, `get`, `hot`) and dcimon's
// errors hold names and texts from processes, hosts and users' files, and a name holding
// `ESC]52` (the clipboard) or `ESC[2J` must never reach the administrator's terminal as it is.
// Everything written is passed through AppendSafe's rule, line by line (a newline and a tab
// stay; every other control character, escape sequence and invalid byte becomes a visible
// escape). It is used only when the output is a terminal: to a pipe or a file the documented
// formats are written exactly. A UTF-8 character cut between two writes is held back until its
// end comes; Flush writes what is held at the end.
type TerminalWriter struct {
	w     io.Writer
	carry []byte
	buf   []byte
}

// NewTerminalWriter returns a TerminalWriter writing to w.
func NewTerminalWriter(w io.Writer) *TerminalWriter { return &TerminalWriter{w: w} }

// Write writes p made safe; it reports len(p) written when w took all it was given.
func (t *TerminalWriter) Write(p []byte) (int, error) {
	data := p
	if len(t.carry) > 0 {
		data = append(t.carry, p...)
		t.carry = nil
	}
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(data[i]) {
			if data[i] >= utf8.RuneSelf && !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	if cut < len(data) {
		t.carry = append([]byte(nil), data[cut:]...)
	}
	t.buf = t.appendSafe(t.buf[:0], data[:cut])
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// appendSafe appends b under AppendSafe's rule, newlines and tabs kept.
func (t *TerminalWriter) appendSafe(dst, b []byte) []byte {
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\n\t")
		if i < 0 {
			dst, _ = appendSafeBytes(dst, b)
			break
		}
		dst, _ = appendSafeBytes(dst, b[:i])
		dst = append(dst, b[i])
		b = b[i+1:]
	}
	return dst
}

// Flush writes a character cut short at the end of the output, escaped as the invalid bytes it is.
func (t *TerminalWriter) Flush() error {
	if len(t.carry) == 0 {
		return nil
	}
	t.buf, _ = appendSafeBytes(t.buf[:0], t.carry)
	t.carry = nil
	_, err := t.w.Write(t.buf)
	return err
}
