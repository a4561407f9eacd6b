package ui

import (
	"io"
	"time"
)

// Options are the monitor's settings; the zero value is usable (see the field comments for the
// defaults). main fills them from its flags.
type Options struct {
	// Interval is the refresh period; 0 means DefaultInterval. + and - step through Intervals.
	Interval time.Duration
	// Theme names a palette of the theme package ("dark", "light", "high-contrast", "mono");
	// "" is the default. NoColor forces mono whatever the name.
	Theme   string
	NoColor bool
	// Host is the host name shown in the status bar; when empty the monitor shows the value of a
	// `hostname` statistic if the name space has one, and nothing otherwise.
	Host string
	// Location is the zone times are shown in; nil is time.Local.
	Location *time.Location
	// Now is the clock; nil is time.Now. Tests inject a fixed one.
	Now func() time.Time
	// Debug receives the debug log; nil discards it. Run opens DebugFile into it. Nothing is ever
	// written to the terminal while the monitor runs.
	Debug io.Writer
	// DebugFile is a path Run opens (appending) for the debug log.
	DebugFile string
	// FPS is the most frames drawn in a second, 1 to MaxFPS; 0 means DefaultFPS. A frame is
	// drawn only when the screen changes.
	FPS int
	// Started is when the process started, for the debug log's "first frame with data" line;
	// zero means when Run was called.
	Started time.Time
	// Settled, when set, is called once, off the UI goroutine, SettleAfter after the first frame
	// with data reached the terminal: start-up is over (the dcimon command gives back the pages
	// start-up touched, package resident). What it returns goes to the debug log.
	Settled func() string
	// Stop, when not nil, quits the monitor when it is closed, as q does (the terminal's input
	// handed back whole, so that a monitor run after it reads every key: issue 40 item 7).
	Stop <-chan struct{}
	// Hotsets are the peer sets opened at start; nil means DefaultHotsets.
	Hotsets []HotsetConfig
	// StartPane is the pane focused at start (tree, values, hotsets, inspector, events) in place
	// of the overview; StartPath a context or statistic selected at start ("Disk/sda"), once the
	// first collection has filled the name space.
	StartPane, StartPath string
	// SaveHotsets writes the peer sets to the configuration file when one is made, edited or
	// deleted (nil: never); it runs off the UI goroutine. SaveMode is "always", "never" or "ask"
	// (the first change asks; the answer holds for the run). ConfigName names the file.
	SaveHotsets func([]HotsetConfig) error
	SaveMode    string
	ConfigName  string
	// Tables lay out the well-known tables (disk, netif, cpu, fs, proc, cgroup): columns and first sort.
	Tables map[string]TableLayout
	// NetBits shows interfaces' byte rates in bits per second (net_units = "bits").
	NetBits bool
	// Keys rebinds actions by name (KeyActions): `quit` to ["x"]. Check them with CheckKeys
	// first: New falls back to the built-in keys when they do not hold together.
	Keys map[string][]string
	// Overview opens the monitor on the overview (processors, memory, load, the hotsets) rather
	// than on the panes; o goes back and forth. The dcimon command sets it.
	Overview bool
}

// SettleAfter is how long after the first frame with data Options.Settled is called: the
// second collection (the first rates) and a few frames are past, the slow read of every class
// (collect.Options.IdleEvery) not always.
const SettleAfter = 2 * time.Second

// DefaultInterval is the refresh period when Options.Interval is zero (SPMI-INIT-3: 1–2 s).
const DefaultInterval = time.Second

// Intervals are the refresh periods + and - step through.
var Intervals = []time.Duration{
	250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
	5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute,
}

// stepInterval returns the next period of Intervals above (dir > 0) or below (dir < 0) d.
func stepInterval(d time.Duration, dir int) time.Duration {
	if dir > 0 {
		for _, v := range Intervals {
			if v > d {
				return v
			}
		}
		return max(d, Intervals[len(Intervals)-1])
	}
	for i := len(Intervals) - 1; i >= 0; i-- {
		if Intervals[i] < d {
			return Intervals[i]
		}
	}
	return min(d, Intervals[0])
}
