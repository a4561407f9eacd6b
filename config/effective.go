package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"dcimon/internal/regular"
)

// MaxFileSize bounds the configuration file: a longer one (or /dev/zero named as one) is an
// error, not an allocation of whatever it holds.
const MaxFileSize = 1 << 20

// Defaults are what dcimon does with no configuration at all; the caller (package cli) gives those
// other packages own: the key bindings of the monitor and its default hotsets.
type Defaults struct {
	Keys    []KeyDefault
	Hotsets []Hotset
}

// KeyDefault is one action of the monitor, its scope and its built-in keys.
type KeyDefault struct {
	Action, Scope, Help string
	Keys                []string
}

// Effective is the configuration in force: built-in defaults, then the file, then the
// environment, then the command line, each later one winning (Origin says which gave a key).
type Effective struct {
	Interval    time.Duration
	Theme       string
	Start       string
	Path        string
	ShowLoop    bool
	Liveness    time.Duration
	NetUnits    string
	SaveHotsets string
	// Suppliers are the directories of users' suppliers (issue 18), separated by ":"; "" is
	// suppliers.d beside the configuration file, "off" none (SupplierDirs).
	Suppliers string
	Keys      map[string][]string // only the actions the file rebinds
	Tables    map[string]Table    // only the tables the file lays out
	Hotsets   []Hotset

	// Origin is where each scalar key and the hotsets came from: "default", "config.toml:3",
	// "DCIMON_THEME", "--theme".
	Origin map[string]string
	// File is the configuration file read, nil where there is none; FilePath is its path
	// whether or not it exists (where the monitor saves hotsets).
	File     *File
	FilePath string
	// HotsetsFromFile says the file lists the hotsets ([[hotset]] tables); otherwise they are
	// the defaults, and saving writes them all.
	HotsetsFromFile bool
}

// EnvName is the environment variable of a setting: DCIMON_SHOW_LOOP for show_loop.
func EnvName(key string) string { return "DCIMON_" + strings.ToUpper(key) }

// Locate is the configuration file's path: --config, else DCIMON_CONFIG, else
// $XDG_CONFIG_HOME/dcimon/config.toml; explicit says the user named it (so it must exist).
func Locate(flag string, getenv func(string) string) (path string, explicit bool) {
	switch {
	case flag != "":
		return flag, true
	case getenv("DCIMON_CONFIG") != "":
		return getenv("DCIMON_CONFIG"), true
	}
	// The XDG base directory rule (a relative XDG_CONFIG_HOME is ignored), read through getenv
	// so that a caller's environment is the one used; with no HOME at all, the standard
	// library's answer from the process's.
	home := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(home) {
		if h := getenv("HOME"); h != "" {
			home = filepath.Join(h, ".config")
		} else if d, err := os.UserConfigDir(); err == nil {
			home = d
		}
	}
	return filepath.Join(home, "dcimon", "config.toml"), false
}

// Load reads the file at path. A file that does not exist is no configuration (nil, nil) unless
// explicit; any other failure to read or parse it is an error.
func Load(path string, explicit bool) (*File, error) {
	data, err := regular.ReadFile(context.Background(), path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read: " + errors.Unwrap(err).Error()}
	}
	return Parse(path, data)
}

// Resolve is the effective configuration: d and the file f (nil for none) at path, then the
// environment, then flags (the flags set on the command line, by setting name, with their value
// as text).
func Resolve(d Defaults, f *File, path string, getenv func(string) string, flags map[string]string) (*Effective, error) {
	e := &Effective{Interval: time.Second, Theme: "dark", Start: "overview", Liveness: 30 * time.Second, NetUnits: "bytes",
		SaveHotsets: "ask", Hotsets: d.Hotsets, Origin: map[string]string{}, File: f, FilePath: path, Keys: map[string][]string{}}
	for _, k := range Scalars {
		e.Origin[k] = "default"
	}
	e.Origin["hotset"] = "default"
	if f != nil {
		at := func(key string) string {
			p := f.Set[key]
			return fmt.Sprintf("%s:%d", f.Base(), p.Line)
		}
		set := func(key string) bool {
			if _, ok := f.Set[key]; ok {
				e.Origin[key] = at(key)
				return true
			}
			return false
		}
		for _, k := range Scalars {
			if set(k) {
				_ = e.setText(k, f.scalarValue(k)) // checked by Parse
			}
		}
		if len(f.Hotset) > 0 {
			e.Hotsets, e.HotsetsFromFile = f.Hotset, true
			e.Origin["hotset"] = at("hotset[0]")
		}
		for a, k := range f.Keys {
			e.Keys[a] = k
		}
		e.Tables = f.Tables
	}
	for _, k := range Scalars {
		if v := getenv(EnvName(k)); v != "" {
			if err := e.setText(k, v); err != nil {
				return nil, fmt.Errorf("%s=%q: %w", EnvName(k), v, err)
			}
			e.Origin[k] = EnvName(k)
		}
	}
	for _, k := range Scalars {
		if v, ok := flags[k]; ok {
			if err := e.setText(k, v); err != nil {
				return nil, fmt.Errorf("--%s %s: %w", strings.ReplaceAll(k, "_", "-"), v, err)
			}
			e.Origin[k] = "--" + strings.ReplaceAll(k, "_", "-")
		}
	}
	return e, nil
}

// SupplierDirs are the directories searched for users' suppliers: those the suppliers setting
// lists (separated by ":"), else suppliers.d beside the configuration file; none for "off".
func (e *Effective) SupplierDirs() []string {
	switch e.Suppliers {
	case "off":
		return nil
	case "":
		return []string{filepath.Join(filepath.Dir(e.FilePath), "suppliers.d")}
	}
	var dirs []string
	for _, d := range filepath.SplitList(e.Suppliers) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
