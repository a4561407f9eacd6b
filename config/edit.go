package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/pelletier/go-toml/v2/unstable"
	"golang.org/x/sys/unix"

	"dcimon/internal/regular"
)

// edit replaces data[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// hotsetFields are a hotset's keys in the order a new table lists them, with their TOML text and
// whether two hotsets differ in them.
var hotsetFields = []struct {
	key  string
	text func(Hotset) string
	same func(a, b Hotset) bool
}{
	{"name", func(h Hotset) string { return tomlString(h.Name) }, func(a, b Hotset) bool { return a.Name == b.Name }},
	{"path", func(h Hotset) string { return tomlString(h.Path) }, func(a, b Hotset) bool { return a.Path == b.Path }},
	{"stat", func(h Hotset) string { return tomlStat(h.Stats) }, func(a, b Hotset) bool { return slices.Equal(a.Stats, b.Stats) }},
	{"maxresp", func(h Hotset) string { return strconv.Itoa(h.MaxResp) }, func(a, b Hotset) bool { return a.MaxResp == b.MaxResp }},
	{"threshold", func(h Hotset) string { return tomlFloat(h.Threshold) }, func(a, b Hotset) bool { return a.Threshold == b.Threshold }},
	{"critical", func(h Hotset) string { return tomlFloat(h.Critical) }, func(a, b Hotset) bool { return a.Critical == b.Critical }},
	{"feed", func(h Hotset) string { return tomlString(orDefault(h.Feed, "threshold")) },
		func(a, b Hotset) bool { return orDefault(a.Feed, "threshold") == orDefault(b.Feed, "threshold") }},
	{"exceptions", func(h Hotset) string { return tomlString(orDefault(h.Exceptions, "none")) },
		func(a, b Hotset) bool { return orDefault(a.Exceptions, "none") == orDefault(b.Exceptions, "none") }},
	{"frequency", func(h Hotset) string { return strconv.Itoa(h.Frequency) }, func(a, b Hotset) bool { return a.Frequency == b.Frequency }},
	{"severity", func(h Hotset) string { return strconv.Itoa(h.Severity) }, func(a, b Hotset) bool { return a.Severity == b.Severity }},
	{"trap", func(h Hotset) string { return strconv.Itoa(h.Trap) }, func(a, b Hotset) bool { return a.Trap == b.Trap }},
	{"on_screen", func(h Hotset) string { return strconv.FormatBool(h.OnScreen) }, func(a, b Hotset) bool { return a.OnScreen == b.OnScreen }},
}

// EditHotsets is the text of the file data (named name, for messages) with hs as its hotsets and
// every other byte kept: a hotset already in the file (by name) has only its changed values
// rewritten, in place; one no longer in hs loses its table (and the comment lines right above
// it); a new one is appended. The result is parsed back and must hold exactly hs.
func EditHotsets(name string, data []byte, hs []Hotset) ([]byte, error) {
	old, err := Parse(name, data)
	if err != nil {
		return nil, fmt.Errorf("the file does not parse, so it is not rewritten: %w", err)
	}
	spans, _, perr := scan(data)
	if perr != nil {
		return nil, perr.withFile(name)
	}
	want := map[string]Hotset{}
	for _, h := range hs {
		want[h.Name] = h
	}
	var edits []edit
	for i, cur := range old.Hotset {
		t := hotsetTable(spans, fmt.Sprintf("hotset[%d]", i))
		if h, keep := want[cur.Name]; keep {
			edits = append(edits, t.changes(data, cur, h)...)
		} else {
			edits = append(edits, t.removal(data))
		}
	}
	if e, ok := appendHotsets(data, old, hs); ok {
		edits = append(edits, e)
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := slices.Clone(data)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
	}
	// Never write what does not read back as meant.
	back, err := Parse(name, out)
	if err != nil {
		return nil, fmt.Errorf("the edited file would not parse, so it is not written: %w", err)
	}
	if !sameHotsets(back.Hotset, hs) {
		return nil, errors.New("the edited file would not hold the hotsets meant, so it is not written")
	}
	return out, nil
}

// tableSpans is where one hotset's table stands in the file: its [[hotset]] header, its keys and
// values, and the end of the last of them.
type tableSpans struct {
	name string // hotset[i]
	hdr  span
	kvs  []span
	end  int
}

// hotsetTable finds the spans of table (hotset[i]) among the file's.
func hotsetTable(spans []span, table string) tableSpans {
	t := tableSpans{name: table}
	for _, s := range spans {
		switch {
		case s.kind == unstable.ArrayTable && s.key == table:
			t.hdr = s
		case s.table == table && s.key != table:
			t.kvs = append(t.kvs, s)
		}
	}
	t.end = t.hdr.end
	for _, s := range t.kvs {
		t.end = max(t.end, s.end)
	}
	return t
}

// removal is the edit that takes the table out of data, with the comment lines right above it.
func (t tableSpans) removal(data []byte) edit {
	start := t.hdr.start
	for start > 0 {
		prev := lineStart(data, start-1)
		if !bytes.HasPrefix(bytes.TrimLeft(data[prev:start], " \t"), []byte("#")) {
			break
		}
		start = prev
	}
	return edit{start, t.end, ""}
}

// changes are the edits that make the table, which holds cur, hold h: each changed value
// rewritten in place, the values the table does not set added at its end.
func (t tableSpans) changes(data []byte, cur, h Hotset) []edit {
	var edits []edit
	var missing bytes.Buffer
	for _, fd := range hotsetFields {
		if fd.same(cur, h) {
			continue
		}
		at := slices.IndexFunc(t.kvs, func(s span) bool { return s.key == t.name+"."+fd.key })
		if at < 0 {
			fmt.Fprintf(&missing, "%s = %s\n", fd.key, fd.text(h))
			continue
		}
		edits = append(edits, edit{t.kvs[at].vstart, t.kvs[at].vend, fd.text(h)})
	}
	if missing.Len() > 0 {
		text := missing.String()
		if t.end > 0 && data[t.end-1] != '\n' {
			text = "\n" + text
		}
		edits = append(edits, edit{t.end, t.end, text})
	}
	return edits
}

// appendHotsets is the edit that appends to data the hotsets of hs that old does not have; false
// when there are none.
func appendHotsets(data []byte, old *File, hs []Hotset) (edit, bool) {
	var add bytes.Buffer
	for _, h := range hs {
		if _, ok := old.HotsetByName(h.Name); ok {
			continue
		}
		add.WriteString("\n")
		writeHotset(&add, h, "")
	}
	if add.Len() == 0 {
		return edit{}, false
	}
	text := add.String()
	if len(data) > 0 && data[len(data)-1] != '\n' {
		text = "\n" + text
	}
	return edit{len(data), len(data), text}, true
}

func sameHotsets(a, b []Hotset) bool {
	if len(a) != len(b) {
		return false
	}
	for _, h := range b {
		g, ok := (&File{Hotset: a}).HotsetByName(h.Name)
		if !ok {
			return false
		}
		for _, fd := range hotsetFields {
			if !fd.same(g, h) {
				return false
			}
		}
	}
	return true
}

// SaveHotsets makes hs the hotsets of the file at path (created, with its directory, when there
// is none), keeping everything else in it (EditHotsets), atomically: a temporary file in the same
// directory, synced, then renamed over the old one. A file that does not parse is not touched.
//
// A path that is a symbolic link (config.toml → ../../dotfiles/dcimon.toml, a dotfiles setup) is
// saved to the file it leads to, beside which the temporary file is made, so the link stays a
// link; the file keeps its mode (and, where the process may, its owner). A file that is
// read-only, or in a directory that is, is an error that says so; nothing is written then.
func SaveHotsets(path string, hs []Hotset) error {
	target, err := linkTarget(path)
	if err != nil {
		return fmt.Errorf("saving hotsets to %s: %w", path, err)
	}
	shown := path // what messages call the file: the user's name, and where it leads
	if target != path {
		shown = path + " → " + target
	}
	data, err := regular.ReadFile(context.Background(), target, MaxFileSize)
	mode := fs.FileMode(0o644)
	var owner *unix.Stat_t
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = []byte(header)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("saving hotsets to %s: %w", shown, err)
		}
	case err != nil:
		return fmt.Errorf("saving hotsets to %s: %w", shown, err)
	default:
		var st unix.Stat_t
		if err := unix.Stat(target, &st); err == nil {
			mode, owner = fs.FileMode(st.Mode).Perm(), &st
		}
		// Read-only by its mode is read-only even to root, who could write it: the user made it so.
		if mode&0o222 == 0 {
			return fmt.Errorf("saving hotsets to %s: the file is read-only (mode %#o); it is left as it was", shown, mode)
		}
		if err := unix.Access(target, unix.W_OK); err != nil {
			return fmt.Errorf("saving hotsets to %s: the file is not writable (%v); it is left as it was", shown, err)
		}
	}
	out, err := EditHotsets(path, data, hs)
	if err != nil {
		return err
	}
	if err := writeAtomic(target, out, mode, owner); err != nil {
		return fmt.Errorf("saving hotsets to %s: %w; the file is left as it was", shown, err)
	}
	return nil
}

// maxLinks bounds a chain of symbolic links, as the kernel's own limit (40) does.
const maxLinks = 40

// linkTarget is the file path leads to through symbolic links, each relative one taken from the
// directory of its link; path itself when it is not a link or does not exist. A link to nowhere
// leads to the file it names, which a save creates.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("more than %d symbolic links in a row", maxLinks)
}

// WriteAtomic writes data to path through a temporary file in its directory, synced before it
// is renamed over path and the directory synced after: a reader sees the old file or the new
// one, never a part, and a full disk leaves the old file as it was.
func WriteAtomic(path string, data []byte, mode fs.FileMode) error {
	return writeAtomic(path, data, mode, nil)
}

// writeAtomic is WriteAtomic giving the new file the owner of old (the file it replaces) when
// old is not nil and the process may: root saving a user's file leaves it the user's.
func writeAtomic(path string, data []byte, mode fs.FileMode, old *unix.Stat_t) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if old != nil && (int(old.Uid) != os.Geteuid() || int(old.Gid) != os.Getegid()) {
		_ = tmp.Chown(int(old.Uid), int(old.Gid)) // allowed to root, or to a group of one's own
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	done = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}
