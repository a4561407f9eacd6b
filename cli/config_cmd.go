package cli

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	dcfg "dcimon/config"
	"dcimon/headless"
	"dcimon/internal/spell"
	ns "dcimon/namespace"
	"dcimon/theme"
	"dcimon/ui"
)

// The hotset fields as the file writes them and as the name space has them.
var (
	feedNames   = map[string]ns.HotFeed{"none": ns.SiHotNoFeed, "threshold": ns.SiHotThreshold, "always": ns.SiHotAlways}
	exceptNames = map[string]ns.HotExcept{"none": ns.SiHotNoException, "exception": ns.SiHotException, "trap": ns.SiHotTrap, "both": ns.SiHotBoth}
)

func nameOf[V comparable](m map[string]V, v V) string {
	for k, x := range m {
		if x == v {
			return k
		}
	}
	return ""
}

func hotsetToUI(h dcfg.Hotset) ui.HotsetConfig {
	return ui.HotsetConfig{Name: h.Name, Grandpa: h.Path, Stats: h.Stats, MaxResp: h.MaxResp, Threshold: h.Threshold, Critical: h.Critical,
		Feed: feedNames[orString(h.Feed, "threshold")], Except: exceptNames[orString(h.Exceptions, "none")],
		Frequency: h.Frequency, Severity: h.Severity, TrapNo: h.Trap, OnScreen: h.OnScreen}
}

func hotsetFromUI(c ui.HotsetConfig) dcfg.Hotset {
	return dcfg.Hotset{Name: c.Name, Path: c.Grandpa, Stats: c.Stats, MaxResp: c.MaxResp, Threshold: c.Threshold, Critical: c.Critical,
		Feed: nameOf(feedNames, c.Feed), Exceptions: nameOf(exceptNames, c.Except), Frequency: c.Frequency,
		Severity: c.Severity, Trap: c.TrapNo, OnScreen: c.OnScreen}
}

func orString(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// configDefaults are the built-in defaults the configuration is laid over: the monitor's keys
// and its default hotsets.
func configDefaults() dcfg.Defaults {
	var d dcfg.Defaults
	for _, a := range ui.KeyActions() {
		d.Keys = append(d.Keys, dcfg.KeyDefault{Action: a.Name, Scope: a.Scope, Help: a.Help, Keys: a.Keys})
	}
	for _, h := range ui.DefaultHotsets() {
		d.Hotsets = append(d.Hotsets, hotsetFromUI(h))
	}
	return d
}

// loadSettings reads the configuration file and lays the environment and the command line's
// flags over it (cfg.set: the settings given as flags). A bad file, value or key binding is an
// error: the program never starts half-configured.
func loadSettings(cfg *config, e headless.Env) (*dcfg.Effective, error) {
	path, explicit := dcfg.Locate(cfg.configFile, e.Env)
	// DCIMON_CONFIG may name a file that does not exist yet: the first save creates it (issue 42
	// item 3); --config FILE must name one that does.
	f, err := dcfg.Load(path, explicit && cfg.configFile != "")
	if err != nil {
		return nil, usagef("%v", err)
	}
	if err := theme.LoadDir(themesDir(path)); err != nil {
		return nil, usagef("%v", err)
	}
	eff, err := dcfg.Resolve(configDefaults(), f, path, e.Env, cfg.set)
	if err != nil {
		return nil, usagef("%v", err)
	}
	if err := checkSettings(eff); err != nil {
		return nil, err
	}
	return eff, nil
}

// themesDir is where the user's themes are: themes/ beside the configuration file.
func themesDir(configPath string) string { return filepath.Join(filepath.Dir(configPath), "themes") }

// checkSettings checks what only the monitor knows: the theme's name and the key bindings.
func checkSettings(eff *dcfg.Effective) error {
	if _, err := theme.Lookup(eff.Theme); err != nil {
		return usagef("theme %q (%s): want %s", eff.Theme, eff.Origin["theme"], joinNames(theme.Names()))
	}
	known := ui.TableColumns()
	for name, t := range eff.Tables {
		at := func(key string) string {
			if p, ok := eff.File.Set[key]; ok {
				return fmt.Sprintf("%s:%d:%d: ", eff.File.Name, p.Line, p.Col)
			}
			return eff.File.Name + ": "
		}
		for _, c := range t.Columns {
			if !slices.Contains(known[name], c) {
				return usagef("%stables.%s.columns: no column %q (columns: %s)", at("tables."+name+".columns"), name, c, strings.Join(known[name], " "))
			}
		}
		if t.Sort != "" && !slices.Contains(known[name], t.Sort) {
			return usagef("%stables.%s.sort: no column %q (columns: %s)", at("tables."+name+".sort"), name, t.Sort, strings.Join(known[name], " "))
		}
	}
	if err := ui.CheckKeys(eff.Keys); err != nil {
		where := ""
		if eff.File != nil {
			where = eff.File.Name + ": "
			for a := range eff.Keys {
				if p, ok := eff.File.Set["keys."+a]; ok && bytes.Contains([]byte(err.Error()), []byte(a)) {
					where = fmt.Sprintf("%s:%d:%d: ", eff.File.Name, p.Line, p.Col)
					break
				}
			}
		}
		return usagef("%s%v", where, err)
	}
	return nil
}

func joinNames(ns []string) string {
	var b bytes.Buffer
	for i, n := range ns {
		switch {
		case i == len(ns)-1 && i > 0:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// applySettings puts the effective configuration into the command's options.
func applySettings(cfg *config, eff *dcfg.Effective) {
	cfg.eff = eff
	cfg.c.ShowLoop = eff.ShowLoop
	cfg.c.Liveness = eff.Liveness
	cfg.c.Suppliers = eff.SupplierDirs()
	cfg.c.NetBits = eff.NetUnits == "bits"
	if cfg.cmd == "" {
		cfg.interval = eff.Interval
		cfg.theme = eff.Theme
	}
}

// monitorSettings are the monitor's options from the configuration.
func monitorSettings(eff *dcfg.Effective, o *ui.Options) {
	o.Overview = eff.Start == "overview"
	if !o.Overview {
		o.StartPane = eff.Start
	}
	o.StartPath = eff.Path
	o.Keys = eff.Keys
	o.NetBits = eff.NetUnits == "bits"
	o.Tables = map[string]ui.TableLayout{}
	for name, t := range eff.Tables {
		o.Tables[name] = ui.TableLayout{Columns: t.Columns, Sort: t.Sort, Descending: t.Descending}
	}
	if eff.HotsetsFromFile {
		o.Hotsets = make([]ui.HotsetConfig, 0, len(eff.Hotsets))
		for _, h := range eff.Hotsets {
			o.Hotsets = append(o.Hotsets, hotsetToUI(h))
		}
	}
	o.SaveMode, o.ConfigName = eff.SaveHotsets, eff.FilePath
	path := eff.FilePath
	o.SaveHotsets = func(cs []ui.HotsetConfig) error {
		hs := make([]dcfg.Hotset, 0, len(cs))
		for _, c := range cs {
			hs = append(hs, hotsetFromUI(c))
		}
		return dcfg.SaveHotsets(path, hs)
	}
}

// savedHotset fills `hot --name NAME`'s hotset from the configuration; a flag given beats the
// saved field.
func savedHotset(cfg *config) error {
	var h dcfg.Hotset
	found := false
	for _, x := range cfg.eff.Hotsets {
		if x.Name == cfg.hotName {
			h, found = x, true
		}
	}
	if !found {
		var names []string
		for _, x := range cfg.eff.Hotsets {
			names = append(names, x.Name)
		}
		if near := spell.Closest(cfg.hotName, names); near != "" { // issue 42 item 3
			return usagef("hot --name %s: no such hotset in %s; did you mean %s?", cfg.hotName, cfg.eff.FilePath, near)
		}
		return usagef("hot --name %s: no such hotset in %s (hotsets: %s)", cfg.hotName, cfg.eff.FilePath, joinNames(names))
	}
	cfg.args, cfg.hotStats = []string{h.Path, ""}, h.Stats
	given := cfg.hotFlags
	if !given["max"] {
		cfg.max = h.MaxResp
	}
	if !given["threshold"] {
		cfg.threshold = strconv.FormatFloat(h.Threshold, 'g', -1, 64)
	}
	if !given["feed"] {
		cfg.feed = orString(h.Feed, "threshold")
	}
	if !given["exceptions"] {
		cfg.except = orString(h.Exceptions, "none")
	}
	if !given["frequency"] {
		cfg.frequency = h.Frequency
	}
	if !given["severity"] {
		cfg.severity = h.Severity
	}
	if !given["trap"] {
		cfg.trapNo = h.Trap
	}
	if !given["critical"] && h.Critical != 0 && cfg.alert.check {
		cfg.alert.critical = strconv.FormatFloat(h.Critical, 'g', -1, 64) // the saved hotset's CRITICAL
	}
	return nil
}

// runConfig is `dcimon config`: the effective configuration with each value's origin;
// `config default`: the annotated default file; `config check [FILE]`: validate a file.
func runConfig(cfg *config, e headless.Env, stdout io.Writer) error {
	d := configDefaults()
	sub := ""
	if len(cfg.args) > 0 {
		sub = cfg.args[0]
	}
	switch sub {
	case "":
		eff, err := loadSettings(cfg, e)
		if err != nil {
			return err
		}
		dcfg.WriteEffective(stdout, eff, d)
		return nil
	case "default":
		return dcfg.WriteDefault(stdout, d)
	case "theme":
		if len(cfg.args) != 2 {
			return usagef("config theme NAME: which built-in theme (%s)", joinNames([]string{"dark", "high-contrast", "light", "mono"}))
		}
		data, err := theme.Builtin(cfg.args[1])
		if err != nil {
			return usagef("%v", err)
		}
		_, err = stdout.Write(data)
		return err
	case "check":
		path, explicit := dcfg.Locate(cfg.configFile, e.Env)
		explicit = explicit && cfg.configFile != "" // DCIMON_CONFIG may name a file not made yet
		if len(cfg.args) == 2 {
			path, explicit = cfg.args[1], true
		}
		f, err := dcfg.Load(path, explicit)
		if err != nil {
			return usagef("%v", err)
		}
		if err := theme.LoadDir(themesDir(path)); err != nil {
			return usagef("%v", err)
		}
		if f == nil {
			fmt.Fprintf(stdout, "%s: no such file: the built-in defaults are in force\n", path)
			return nil
		}
		eff, err := dcfg.Resolve(d, f, path, func(string) string { return "" }, nil)
		if err != nil {
			return usagef("%v", err)
		}
		if err := checkSettings(eff); err != nil {
			return err
		}
		notes, err := checkSourceHotsets(cfg, e, eff) // as hot --name resolves them (issue 29 item 17)
		if err != nil {
			return usagef("%v", err)
		}
		for _, n := range notes {
			fmt.Fprintf(stdout, "note: %s\n", n)
		}
		fmt.Fprintf(stdout, "%s: ok (%d settings, %d key bindings, %d hotsets)\n", path, len(f.Set), len(f.Keys), len(f.Hotset))
		return nil
	}
	return usagef("config %q: want no argument (the configuration in force), default, check [FILE] or theme NAME", sub)
}
