package headless

// `dcimon hot … --check` (issue 42 item 4): the hotset as a monitoring plugin, so Nagios, Icinga,
// Zabbix or Sensu can run it against this host, a fleet or an archive. It follows the
// Monitoring Plugins development guidelines: one status line `HOT STATE - text | perfdata`, the
// performance data as 'label'=value[UOM];[warn];[crit];[min];[max], the thresholds as ranges
// (`80` alerts above 80, `5:` below 5), and the exit status by state: 0 OK, 1 WARNING,
// 2 CRITICAL, 3 UNKNOWN.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	ns "dcimon/namespace"
	"dcimon/views"
)

// Plugin states, as the exit status of a monitoring plugin.
const (
	PluginOK       = 0
	PluginWarning  = 1
	PluginCritical = 2
	PluginUnknown  = 3
)

var pluginStates = [...]string{"OK", "WARNING", "CRITICAL", "UNKNOWN"}

// PluginExit is the exit status of `hot --check` once its status line is printed: 0 OK,
// 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
type PluginExit struct{ Code int }

// Error names the state: "hot --check: WARNING".
func (e *PluginExit) Error() string { return "hot --check: " + pluginStates[e.Code] }

// WritePluginUnknown writes err as a plugin's UNKNOWN status line (a usage error, a source that
// cannot be opened) and returns the UNKNOWN exit status.
func WritePluginUnknown(w io.Writer, err error) int {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	fmt.Fprintf(w, "HOT UNKNOWN - %s\n", statusText(msg))
	return PluginUnknown
}

// statusText keeps a text fit for a status line: no control characters, and no `|`, which
// would start the performance data.
func statusText(s string) string { return strings.ReplaceAll(safe(s), "|", "/") }

// perfLabel is a performance-data label: always quoted, a quote doubled as the guidelines
// escape it, and `=`, which no label may hold, made `_`.
func perfLabel(s string) string {
	s = strings.ReplaceAll(safe(s), "=", "_")
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// perfNumber is a number as performance data writes it, digits, a minus and a point, to six
// significant digits (a rate's noise past them is not data): 79.9404, 1048580.
func perfNumber(x float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	if err != nil {
		r = x
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// perfRange is a threshold as a plugin range: `80` alerts above 80, `5:` below 5; "" for none.
func perfRange(m views.Measure, t float64) string {
	switch {
	case t > 0:
		return perfNumber(m.Base(t))
	case t < 0:
		return perfNumber(m.Base(-t)) + ":"
	}
	return ""
}

// perfUOM is the unit of measurement the guidelines know for a display unit (%, B, s), or ""
// when it has none (a rate): then the label names the unit.
func perfUOM(base string) string {
	switch base {
	case "%", "B", "s":
		return base
	}
	return ""
}

// beyond says whether x is past threshold t as SPMI-HOT-7 reads it: above a positive one, below
// the magnitude of a negative one; 0 is no threshold.
func beyond(x, t float64) bool {
	switch {
	case t > 0:
		return x > t
	case t < 0:
		return x < -t
	}
	return false
}

// hotCheck reads the hotset twice (a counter's rate needs an interval), judges every peer by the
// warning threshold (--threshold, the hotset's) and the critical one (--critical), and prints
// one status line. Its error is a *PluginExit, or any other error for UNKNOWN.
func hotCheck(ctx context.Context, o HotOptions, e Env, w io.Writer) error {
	var warn, crit float64
	r, err := openHot(ctx, o, e, func(spec *ns.HotSpec, m views.Measure) error {
		warn = spec.Threshold
		if c := strings.TrimSpace(o.Critical); c != "" {
			v, err := views.ParseThreshold(m, c)
			if err != nil {
				return &UsageError{Msg: "--critical: " + err.Error()}
			}
			crit = v
		}
		if warn != 0 && crit != 0 && (warn < 0) != (crit < 0) {
			return &UsageError{Msg: fmt.Sprintf("--threshold %s and --critical %s point different ways: both above (positive) or both below (negative)", o.Threshold, o.Critical)}
		}
		if warn == 0 {
			spec.Threshold = crit // only its sign counts with every peer fed: the order
		}
		// Every valid peer, ranked, so the state and the performance data see them all.
		spec.Feed, spec.MaxResp, spec.Except, spec.Frequency, spec.Severity, spec.TrapNo = ns.SiHotAlways, 0, ns.SiHotNoException, 0, 0, 0
		return nil
	})
	if err != nil {
		return err
	}
	snap, _, ok, err := r.next(ctx)
	if err != nil {
		return damaged(r.as, err)
	}
	if !ok {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return damaged(r.as, errors.New("there is no second reading to take a rate over (the archive ends, or --to is reached)"))
	}
	code, line := checkLine(r, snap, warn, crit)
	if derr := damaged(r.as, nil); derr != nil {
		line += "\n" + statusText(derr.Error()) // a long-output line: what the archive lost
	}
	if _, err := fmt.Fprintln(w, line); err != nil {
		return err
	}
	return &PluginExit{Code: code}
}

// checkLine is the plugin's state and output for the hotset's reading.
func checkLine(r *hotRun, snap *ns.Snapshot, warn, crit float64) (int, string) {
	m := r.measure
	title := checkTitle(r)
	var peers, nWarn, nCrit int
	var over []string // the peers past a threshold, worst first, for the text
	var perf []string
	for _, v := range peerSets(r.entry) {
		for i, it := range v.Items {
			x := it.Val.V
			if math.IsInf(x, 0) {
				continue
			}
			peers++
			isCrit := beyond(x, crit)
			isWarn := !isCrit && beyond(x, warn)
			switch {
			case isCrit:
				nCrit++
			case isWarn:
				nWarn++
			}
			if isCrit || isWarn {
				over = append(over, itemText(it)+" "+m.Format(x))
			}
			if r.o.Max != 0 && i >= r.o.Max {
				continue // the performance data of the top --max peers of each set
			}
			perf = append(perf, perfDatum(r, it, warn, crit))
		}
	}
	if peers == 0 {
		why := "no peer has a valid value yet"
		if r.entry.Err != ns.SiSuccess {
			why = hotErrText(r.entry, snap, r.entry)
		}
		return PluginUnknown, fmt.Sprintf("HOT UNKNOWN - %s: %s", title, statusText(why))
	}
	code := pluginCode(nWarn, nCrit)
	var b strings.Builder
	fmt.Fprintf(&b, "HOT %s - %s: ", pluginStates[code], title)
	writeCheckCounts(&b, m, peers, nWarn, nCrit, warn, crit)
	writeCheckPeers(&b, r, over)
	if len(perf) > 0 {
		b.WriteString(" | " + strings.Join(perf, " "))
	}
	return code, b.String()
}

// checkTitle names the hotset in the plugin's output: its name, or its statistic's.
func checkTitle(r *hotRun) string {
	title := r.o.Name
	if title == "" {
		title = r.o.Grandparent + " " + r.o.Stat
	}
	return statusText(title)
}

// perfDatum is a peer's performance datum: its label (with the unit a plugin's UOM cannot say),
// value, thresholds and, for a rate, its floor of 0.
func perfDatum(r *hotRun, it ns.HotItem, warn, crit float64) string {
	m := r.measure
	label := it.Name + " " + r.o.Stat
	uom := perfUOM(m.BaseLabel())
	if uom == "" && m.BaseLabel() != "" {
		label += " " + m.BaseLabel()
	}
	lo := ""
	if stat := r.entry.Stat(); stat != nil && stat.IsCounter() {
		lo = "0" // a rate is never below 0
	}
	return fmt.Sprintf("%s=%s%s;%s;%s;%s;", perfLabel(label), perfNumber(m.Base(it.Val.V)), uom,
		perfRange(m, warn), perfRange(m, crit), lo)
}

// pluginCode is the plugin's state for the counts of peers past the warning and the critical
// thresholds.
func pluginCode(nWarn, nCrit int) int {
	switch {
	case nCrit > 0:
		return PluginCritical
	case nWarn > 0:
		return PluginWarning
	}
	return PluginOK
}

// writeCheckCounts says how many of the peers are past which threshold, or that none is.
func writeCheckCounts(b *strings.Builder, m views.Measure, peers, nWarn, nCrit int, warn, crit float64) {
	switch {
	case nCrit > 0:
		fmt.Fprintf(b, "%d of %d %s %s", nCrit, peers, peerWord(peers), views.ThresholdText(m, crit))
		if nWarn > 0 {
			fmt.Fprintf(b, ", %d more %s", nWarn, views.ThresholdText(m, warn))
		}
	case nWarn > 0:
		fmt.Fprintf(b, "%d of %d %s %s", nWarn, peers, peerWord(peers), views.ThresholdText(m, warn))
	case warn == 0 && crit == 0:
		fmt.Fprintf(b, "%d %s, no threshold", peers, peerWord(peers))
	default:
		t := warn
		if t == 0 {
			t = crit
		}
		fmt.Fprintf(b, "none of %d %s %s", peers, peerWord(peers), views.ThresholdText(m, t))
	}
}

// writeCheckPeers names the peers past a threshold, the first five, or else the top peer.
func writeCheckPeers(b *strings.Builder, r *hotRun, over []string) {
	if len(over) > 0 {
		const most = 5
		if len(over) > most {
			over = append(over[:most], fmt.Sprintf("and %d more", len(over)-most))
		}
		b.WriteString(": " + statusText(strings.Join(over, ", ")))
	} else if top := firstItem(r.entry); top != nil {
		b.WriteString(" (top " + statusText(itemText(*top)+" "+r.measure.Format(top.Val.V)) + ")")
	}
}

func peerWord(n int) string {
	if n == 1 {
		return "peer"
	}
	return "peers"
}

// firstItem is the best-ranked peer of the entry's sets, nil when there is none.
func firstItem(entry *ns.HotVals) *ns.HotItem {
	var best *ns.HotItem
	asc := entry.Spec().Threshold < 0
	for _, v := range peerSets(entry) {
		if len(v.Items) == 0 {
			continue
		}
		it := &v.Items[0] // each set is ranked: its first is its best
		if best == nil || (asc && it.Val.V < best.Val.V) || (!asc && it.Val.V > best.Val.V) {
			best = it
		}
	}
	return best
}
