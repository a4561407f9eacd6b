package cli

import (
	"bytes"
	"context"
	"dcimon/headless"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name string
		args []string
		err  string // substring of a usage error; "" = accepted
		chk  func(*config) bool
	}{
		{"monitor defaults", nil, "", func(c *config) bool { return c.cmd == "" && c.interval == time.Second && c.theme == "dark" }},
		{"interval", []string{"--interval", "250ms"}, "", func(c *config) bool { return c.interval == 250*time.Millisecond }},
		{"malformed interval", []string{"--interval", "fast"}, `invalid value "fast" for -i, --interval`, nil},
		{"interval too small", []string{"--interval", "1ms"}, "out of range", nil},
		{"unknown flag", []string{"--nope"}, "unknown flag: --nope", nil},
		{"unknown command", []string{"frobnicate"}, "unknown command", nil},
		{"fps", []string{"--fps", "30"}, "", func(c *config) bool { return c.fps == 30 }},
		{"fps out of range", []string{"--fps", "0"}, "--fps 0", nil},
		{"SPMI-DDS-4 liveness 10s", []string{"--liveness", "10s"}, "--liveness", nil},
		{"SPMI-DDS-4 liveness 601s", []string{"--liveness", "601s"}, "--liveness", nil},
		{"SPMI-DDS-4 liveness 0 disables", []string{"--liveness", "0"}, "", func(c *config) bool { return c.c.Liveness == 0 }},
		{"SPMI-DDS-4 liveness default", nil, "", func(c *config) bool { return c.c.Liveness == 30*time.Second }},
		{"missing procfs dir", []string{"--procfs", "/does/not/exist"}, "--procfs /does/not/exist", nil},
		{"procfs is a file", []string{"--procfs", "/etc/hostname"}, "not a directory", nil},
		{"bad source", []string{"--source", "remote"}, "--source", nil},
		{"synthetic with procfs", []string{"--source", "synthetic:disks=3", "--procfs", "/proc"}, "apply to the host source", nil},
		{"list", []string{"list", "CPU", "--types"}, "", func(c *config) bool { return c.cmd == "list" && c.types && c.args[0] == "CPU" }},
		{"list two paths", []string{"list", "a", "b"}, "at most one PATH", nil},
		{"describe needs a path", []string{"describe"}, "exactly one PATH", nil},
		{"get flags after paths", []string{"get", "CPU/user", "Disk/*/busy", "-n", "3", "-i", "2s", "--json"}, "", func(c *config) bool {
			return c.count == 3 && c.interval == 2*time.Second && c.c.JSON && len(c.args) == 2
		}},
		{"get without paths", []string{"get"}, "at least one PATH", nil},
		{"get negative count", []string{"get", "x", "-n", "-1"}, "negative", nil},
		{"hot", []string{"hot", "Disk", "busy", "--max", "2", "--threshold", "-25", "--feed", "always"}, "", func(c *config) bool {
			return c.max == 2 && c.threshold == "-25" && c.feed == "always"
		}},
		// issue 12: --interval is accepted wherever -i is.
		{"get --interval", []string{"get", "CPU/user", "--interval", "500ms"}, "", func(c *config) bool {
			return c.interval == 500*time.Millisecond
		}},
		{"hot --interval", []string{"hot", "Disk", "busy", "--interval", "2s"}, "", func(c *config) bool {
			return c.interval == 2*time.Second
		}},
		{"hot bad feed", []string{"hot", "Disk", "busy", "--feed", "sometimes"}, "--feed", nil},
		{"hot bad exceptions", []string{"hot", "Disk", "busy", "--exceptions", "maybe"}, "--exceptions", nil},
		{"hot one arg", []string{"hot", "Disk"}, "GRANDPARENT and STAT", nil},
		{"monitor extra arg", []string{"--interval", "1s", "extra"}, "unexpected argument", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseArgs(context.Background(), tt.args, fakeEnv(), &bytes.Buffer{}, &bytes.Buffer{})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				if ue := (*headless.UsageError)(nil); !errors.As(err, &ue) {
					t.Fatalf("error %T is not a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.chk != nil && !tt.chk(cfg) {
				t.Fatalf("config %+v", cfg)
			}
		})
	}
}

func TestRunExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "dcimon ") {
		t.Fatalf("--version: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "dcimon hot GRANDPARENT STAT") {
		t.Fatalf("--help: %d", code)
	}
	errb.Reset()
	if code := run([]string{"--interval", "x"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "dcimon: ") {
		t.Fatalf("usage error: %d %q", code, errb.String())
	}
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runEnv(context.Background(), args, headless.RealEnv(), stdout, stderr)
}

// parseArgs reads the arguments it is given, never the process's: cobra takes os.Args for a nil
// list, so `go test ./... -update` failed here (issue 37 item 1: the flag accepted by every
// package), and a caller with no arguments got its process's.
func TestParseArgsNeverTheProcesss(t *testing.T) {
	defer func(a []string) { os.Args = a }(os.Args)
	os.Args = []string{"dcimon", "--no-such-flag", "extra"}
	if _, err := parseArgs(context.Background(), nil, fakeEnv(), &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatalf("no arguments read as the process's: %v", err)
	}
}
