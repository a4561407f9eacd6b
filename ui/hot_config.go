package ui

import (
	"dcimon/namespace"
	"fmt"
	"slices"
	"strconv"
)

// HotsetConfig is a peer set the monitor opens at start: a value, so a configuration file can
// supply them later.
type HotsetConfig struct {
	// Name names the peer set in the configuration file (`dcimon hot --name`); a peer set made in
	// the monitor gets one from its path and statistic.
	Name string
	// Grandpa is the path of the context whose subcontexts are ranked ("Disk").
	Grandpa string
	// Stats are statistic names to try in order; the first one the peers carry is ranked, so one
	// default works whatever a provider calls its busy percentage.
	Stats   []string
	MaxResp int
	// Threshold is in the units the statistic is shown in (50 is 50% on a percentage, issue 12).
	Threshold float64
	// Critical is `dcimon hot --name --check`'s critical threshold, in the same units; the
	// monitor does not use it, and keeps it when it saves the peer set (issue 42 item 4).
	Critical  float64
	Feed      namespace.HotFeed
	Except    namespace.HotExcept
	Frequency int
	Severity  int
	TrapNo    int
	// OnScreen opens the peer set only while a context of its class is selected (the top
	// processes while the process table is shown), and closes it when the selection leaves:
	// a class read on demand is then not read for it (issue 17).
	OnScreen bool
}

// DefaultHotsets are the top 5 busiest disks by busy %, the top 5 interfaces by bytes per second,
// the busiest CPUs by busy %, the fullest file systems by used % and the most pressured resources.
func DefaultHotsets() []HotsetConfig {
	return []HotsetConfig{
		{Name: "busiest-disks", Grandpa: "Disk", Stats: []string{"%util", "%busy", "busy", "util"}, MaxResp: 5, Feed: namespace.SiHotAlways},
		{Name: "busiest-interfaces", Grandpa: "NetIf", Stats: []string{"bytes", "tbytes", "xbytes", "ibytes"}, MaxResp: 5, Feed: namespace.SiHotAlways},
		{Name: "busiest-cpus", Grandpa: "CPU", Stats: []string{"%busy", "busy%", "busy"}, MaxResp: 5, Feed: namespace.SiHotAlways},
		// The fullest file systems, with an exception in the event log past 90% (issue 19).
		{Name: "fullest-filesystems", Grandpa: "FS", Stats: []string{"%used"}, MaxResp: 5, Threshold: fsFullAt, Feed: namespace.SiHotAlways,
			Except: namespace.SiHotException, Frequency: 5, Severity: 1},
		// The most pressured resources: the share of the last 10 s some task stalled.
		{Name: "most-pressured", Grandpa: "Pressure", Stats: []string{"some_avg10"}, MaxResp: 3, Feed: namespace.SiHotAlways},
		// While processes or control groups are on screen (issue 17): the top processes by CPU,
		// with an exception for one above 90% of a processor for the exception frequency, by
		// I/O and by memory; the busiest groups by CPU and by I/O.
		{Name: "top-processes-cpu", Grandpa: "Proc", Stats: []string{"cpu"}, MaxResp: 5, Threshold: procBusyAt, Feed: namespace.SiHotAlways,
			Except: namespace.SiHotException, Frequency: 5, Severity: 1, OnScreen: true},
		{Name: "top-processes-io", Grandpa: "Proc", Stats: []string{"io_bytes"}, MaxResp: 5, Feed: namespace.SiHotAlways, OnScreen: true},
		{Name: "top-processes-memory", Grandpa: "Proc", Stats: []string{"rss"}, MaxResp: 5, Feed: namespace.SiHotAlways, OnScreen: true},
		{Name: "busiest-cgroups-cpu", Grandpa: "CGroup", Stats: []string{"cpu"}, MaxResp: 5, Feed: namespace.SiHotAlways, OnScreen: true},
		{Name: "busiest-cgroups-io", Grandpa: "CGroup", Stats: []string{"io_bytes"}, MaxResp: 5, Feed: namespace.SiHotAlways, OnScreen: true},
	}
}

// openPending adds the configured peer sets whose grandparent and statistic exist now.
func (p *hotPane) openPending() {
	if p.reg == nil || len(p.pending) == 0 {
		return
	}
	gen := p.reg.Generation()
	if gen == p.tried {
		return
	}
	p.tried = gen
	keep := p.pending[:0]
	for _, c := range p.pending {
		if _, err := p.addConfig(c); err != nil {
			keep = append(keep, c)
		}
	}
	p.pending = keep
	p.rebuildRows()
}

func (p *hotPane) addConfig(c HotsetConfig) (*namespace.HotVals, error) {
	var err error = fmt.Errorf("no statistic to rank")
	for _, stat := range c.Stats {
		var v *namespace.HotVals
		cl, d, serr := p.hs.Statistic(nil, c.Grandpa, stat)
		if serr != nil {
			err = serr
			continue
		}
		m := p.vf.measure(cl, d)
		v, err = p.hs.Add(namespace.HotSpec{Stat: stat, Grandpa: c.Grandpa, MaxResp: c.MaxResp, Threshold: c.Threshold / m.Base(1), Format: m.Format,
			Frequency: c.Frequency, Feed: c.Feed, Except: c.Except, Severity: c.Severity, TrapNo: c.TrapNo})
		if err == nil {
			p.name(v, c.Name)
			if p.alts == nil {
				p.alts = map[*namespace.HotVals][]string{}
			}
			p.alts[v] = c.Stats
			if c.Critical != 0 {
				if p.critical == nil {
					p.critical = map[*namespace.HotVals]float64{}
				}
				p.critical[v] = c.Critical
			}
			return v, nil
		}
	}
	return nil, err
}

// Configs are the peer sets as the configuration file keeps them: the open ones in order, then
// those still waiting for their peers; thresholds in the units the statistic is shown in.
func (p *hotPane) Configs() []HotsetConfig {
	var out []HotsetConfig
	onScreen := map[*namespace.HotVals]bool{}
	for _, v := range p.shown {
		onScreen[v] = true
	}
	for _, v := range p.Entries() {
		if onScreen[v] {
			continue // listed below, as configured
		}
		sp := v.Spec()
		th := sp.Threshold
		if c, d := v.StatClass(), v.Stat(); c != nil && d != nil {
			th *= p.vf.measure(c, d).Base(1)
			// 0.9 × 100 is 90.00000000000001: the user wrote 90.
			th, _ = strconv.ParseFloat(strconv.FormatFloat(th, 'g', 12, 64), 64)
		}
		stats := []string{sp.Stat}
		if a := p.alts[v]; slices.Contains(a, sp.Stat) {
			stats = a
		}
		out = append(out, HotsetConfig{Name: p.names[v], Grandpa: sp.Grandpa, Stats: stats, MaxResp: sp.MaxResp,
			Threshold: th, Critical: p.critical[v], Feed: sp.Feed, Except: sp.Except, Frequency: sp.Frequency, Severity: sp.Severity, TrapNo: sp.TrapNo})
	}
	out = append(out, p.pending...)
	return append(out, p.onScreen...)
}
