// Package tomlmsg holds what the messages about a user's TOML file (the configuration, a theme)
// share: the line and column of a byte, found without counting the file's lines again at every
// key, and how much of a key or value a message repeats (issue 37: config and theme each kept a
// copy).
package tomlmsg

import (
	"sort"
	"unicode/utf8"
)

// Lines is where each line of a file starts, so that a byte offset's line and column are found
// by a binary search (issue 41 item 4): go-toml's Parser.Shape counts the lines from the file's
// start at every call, and a call per key made a 1 MB file take more than 10 minutes.
type Lines []int

// NewLines indexes data's lines.
func NewLines(data []byte) Lines {
	l := Lines{0}
	for i, c := range data {
		if c == '\n' {
			l = append(l, i+1)
		}
	}
	return l
}

// Pos is the line and column (from 1, in bytes, as go-toml counts) of the byte at off.
func (l Lines) Pos(off int) (line, col int) {
	i := sort.SearchInts(l, off+1) - 1 // the last line starting at or before off
	return i + 1, off - l[i] + 1
}

// MaxText is how much of a key or value a message repeats (issue 41 item 10): a key of 900 KB is
// cut, not repeated whole.
const MaxText = 80

// Cut is s cut to MaxText bytes on a character's first byte, with "…" for what is left out.
func Cut(s string) string {
	if len(s) <= MaxText {
		return s
	}
	i := MaxText
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
