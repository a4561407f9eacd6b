package cli

// Issue 29 item 9: every file a user names is read as a regular file of bounded size, under a
// deadline (internal/regular.ReadFile): a named pipe, /dev/zero or a directory named where a
// file belongs is a clear error naming it, at once, never a hang or an out-of-memory.

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestUserNamedFilesNeverBlock(t *testing.T) {
	t.Parallel()
	bin := binaryOrSkip(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// An archive whose metadata file is a named pipe.
	if err := syscall.Mkfifo(filepath.Join(dir, "arch.meta"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A theme file that is a named pipe, in the themes directory beside the configuration.
	cfgDir := filepath.Join(dir, "cfg")
	if err := os.MkdirAll(filepath.Join(cfgDir, "themes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cfgDir, "themes", "mine.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("theme = \"dark\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixture := []string{"--procfs", "../collect/linux/testdata/basic/t0/proc", "--sysfs", "../collect/linux/testdata/basic/t0/sys"}
	pcp := []string{"get", "CPU/user", "--source", "pcp://127.0.0.1:1"}
	for _, tc := range []struct {
		name string
		args []string
		env  string
		want string // in stderr
	}{
		{"config FIFO", append([]string{"list", "--config", fifo}, fixture...), "",
			fifo + ": cannot read: not a regular file (a named pipe)"},
		{"config /dev/zero", append([]string{"list", "--config", "/dev/zero"}, fixture...), "",
			"/dev/zero: cannot read: not a regular file (a character device)"},
		{"config a directory", []string{"config", "check", dir}, "",
			dir + ": cannot read: not a regular file (a directory)"},
		{"DCIMON_CONFIG FIFO", append([]string{"list"}, fixture...), "DCIMON_CONFIG=" + fifo,
			fifo + ": cannot read: not a regular file (a named pipe)"},
		{"password FIFO", pcp, "DCIMON_PCP_PASSWORD_FILE=" + fifo,
			"DCIMON_PCP_PASSWORD_FILE: open " + fifo + ": not a regular file (a named pipe)"},
		{"password /dev/zero", pcp, "DCIMON_PCP_PASSWORD_FILE=/dev/zero",
			"DCIMON_PCP_PASSWORD_FILE: open /dev/zero: not a regular file (a character device)"},
		{"hosts @FIFO", append(pcp, "--hosts", "@"+fifo), "",
			"--hosts @" + fifo + ": open " + fifo + ": not a regular file (a named pipe)"},
		{"archive meta FIFO", []string{"get", "CPU/user", "--archive", filepath.Join(dir, "arch")}, "",
			filepath.Join(dir, "arch.meta") + ": not a regular file (a named pipe)"},
		{"theme FIFO", append([]string{"list", "--config", filepath.Join(cfgDir, "config.toml")}, fixture...), "",
			"open " + filepath.Join(cfgDir, "themes", "mine.toml") + ": not a regular file (a named pipe)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.args...)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME=", "DCIMON_CONFIG=", "DCIMON_PCP_PASSWORD=")
			if tc.env != "" {
				cmd.Env = append(cmd.Env, tc.env)
			}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			start := time.Now()
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("hung (killed after %v)", time.Since(start))
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v: a file that is not regular is refused at once", d)
			}
			if err == nil {
				t.Fatalf("exit 0, want an error\n%s", out.String())
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Errorf("stderr %q, want it to contain %q", errb.String(), tc.want)
			}
			if strings.Contains(errb.String(), "out of memory") || strings.Contains(errb.String(), "goroutine") {
				t.Errorf("crashed: %s", errb.String())
			}
		})
	}
}
