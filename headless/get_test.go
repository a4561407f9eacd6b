package headless

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// issue 32 item 12: `get Nope/x -i 5s` says the path does not exist at once: names are resolved
// after the first reading, before the first wait (SPMI-HIER-7: SiInvalidCx). A statistic a
// class does not have fails at once too; a path that a real slash split gets the escaped form.
// Issue 42 item 3: in people's words, with the nearest name, and no SPMI or DCI code.
func TestGetUnknownPathFailsBeforeWaiting(t *testing.T) {
	for path, want := range map[string]string{
		"Nope/x":        "no statistic Nope/x (see `dcimon list`)",
		"CPU/nope":      "no statistic CPU/nope (see `dcimon list CPU`)",
		"CPU/buzy":      "no statistic CPU/buzy (see `dcimon list CPU`); did you mean CPU/busy?",
		"FS//%used":     `FS/∕/%used`,
		"Host/uptime/x": "no statistic Host/uptime/x (see `dcimon list Host`)",
		"DDS/x":         "no statistic DDS/x (see `dcimon list`)", // FS is near DDS, FS/x names nothing
	} {
		slept := 0
		env := Env{Now: time.Now, Loc: time.UTC, Getenv: func(string) string { return "" },
			Sleep: func(ctx context.Context, d time.Duration) error {
				if d >= 5*time.Second {
					slept++
				}
				return nil
			}}
		var out bytes.Buffer
		err := Get(context.Background(), GetOptions{Common: Common{Source: "synthetic:cpus=2,disks=1,nics=1,seed=3"},
			Paths: []string{path}, Interval: 5 * time.Second, Count: 1}, env, &out)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "DCI_") ||
			(path == "DDS/x" && strings.Contains(err.Error(), "did you mean")) {
			t.Errorf("get %s: %v, want an error saying %q", path, err, want)
		}
		if slept > 0 {
			t.Errorf("get %s waited an interval before saying so", path)
		}
	}
	// A disk that is not there (yet) is waited for: hot-plugged, it would be read.
	waits := 0
	env0 := Env{Now: time.Now, Loc: time.UTC, Getenv: func(string) string { return "" },
		Sleep: func(context.Context, time.Duration) error { waits++; return nil }}
	err := Get(context.Background(), GetOptions{Common: Common{Source: "synthetic:cpus=2,disks=1,seed=3"},
		Paths: []string{"Disk/sdz/reads"}, Interval: 5 * time.Second, Count: 1}, env0, &bytes.Buffer{})
	if waits != 1 || err == nil {
		t.Errorf("get Disk/sdz/reads: %v after %d waits, want one wait and then the error", err, waits)
	}
	// A known path still waits for its rate.
	slept := 0
	env := Env{Now: time.Now, Loc: time.UTC, Getenv: func(string) string { return "" },
		Sleep: func(context.Context, time.Duration) error { slept++; return nil }}
	var out bytes.Buffer
	if err := Get(context.Background(), GetOptions{Common: Common{Source: "synthetic:cpus=2,seed=3"},
		Paths: []string{"CPU/busy"}, Interval: 5 * time.Second, Count: 1}, env, &out); err != nil || slept != 1 {
		t.Errorf("get CPU/busy: %v after %d waits:\n%s", err, slept, out.String())
	}
}
