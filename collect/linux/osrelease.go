package linux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// readOSRelease returns the operating system's name and version from os-release(5):
// <etc>/os-release, else <root>/usr/lib/os-release. We read it ourselves rather than through
// gopsutil's host.PlatformInformation, which, when the tree has no etc/lsb-release, runs the
// running host's /usr/bin/lsb_release (13 ms, and the wrong host under a tree).
func readOSRelease(ctx context.Context, fr *fileReader) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	r := rootsFrom(ctx)
	var first error
	for _, p := range []string{filepath.Join(r.etc, "os-release"), filepath.Join(r.root, "usr", "lib", "os-release")} {
		data, err := fr.read(p)
		if err == nil {
			return parseOSRelease(data), nil
		}
		if first == nil {
			first = err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return "", fmt.Errorf("host: %w", first)
}

// parseOSRelease returns PRETTY_NAME, else NAME and VERSION_ID (or VERSION), from the content of
// an os-release file: shell-style assignments whose values may be quoted; "" when it has none.
func parseOSRelease(data []byte) string {
	vals := map[string]string{}
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		line = trimSpace(line)
		eq := bytes.IndexByte(line, '=')
		if len(line) == 0 || line[0] == '#' || eq <= 0 {
			continue
		}
		switch key := string(line[:eq]); key {
		case "PRETTY_NAME", "NAME", "VERSION_ID", "VERSION":
			vals[key] = unquoteShell(string(line[eq+1:]))
		}
	}
	if v := vals["PRETTY_NAME"]; v != "" {
		return v
	}
	ver := vals["VERSION_ID"]
	if ver == "" {
		ver = vals["VERSION"]
	}
	return strings.TrimSpace(vals["NAME"] + " " + ver)
}

// unquoteShell removes one level of double or single quotes, with backslash escapes inside
// double quotes, as os-release(5) allows.
func unquoteShell(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return s[1 : len(s)-1]
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
