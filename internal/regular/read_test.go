package regular

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SPMI-INIT-2 / issue 29 item 9: a file the user names is read only if it is a regular file, of
// bounded size, within a deadline; a named pipe or /dev/zero is an error naming the file, at once.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 1025), 0o600); err != nil {
		t.Fatal(err)
	}
	exact := filepath.Join(dir, "exact")
	if err := os.WriteFile(exact, make([]byte, 1024), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want string // "" for success
		is   error
	}{
		{small, "", nil},
		{exact, "", nil},
		{fifo, fifo + ": not a regular file (a named pipe)", ErrNotRegular},
		{"/dev/zero", "/dev/zero: not a regular file (a character device)", ErrNotRegular},
		{dir, dir + ": not a regular file (a directory)", ErrNotRegular},
		{big, big + ": file too large: more than 1 KiB", ErrTooLarge},
		{filepath.Join(dir, "none"), filepath.Join(dir, "none") + ": no such file or directory", os.ErrNotExist},
	} {
		start := time.Now()
		data, err := ReadFile(context.Background(), tc.path, 1024)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v: a file that is not regular must be refused at once", tc.path, d)
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.path, err)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) || !errors.Is(err, tc.is) {
			t.Errorf("%s: got %v (%d bytes), want an error ending %q, is %v", tc.path, err, len(data), tc.want, tc.is)
		}
	}
	if data, err := ReadFile(context.Background(), small, 1024); err != nil || string(data) != "secret\n" {
		t.Errorf("small: %q %v", data, err)
	}
}

// Issue 29 item 9: a read that hangs (a network file system that stopped answering) ends at the
// deadline, or as soon as the command is cancelled (one SIGTERM), with the file's name.
func TestReadFileDeadline(t *testing.T) {
	hang := func(string, int64) ([]byte, error) { select {} }
	start := time.Now()
	_, err := readFile(context.Background(), "/mnt/nfs/config.toml", 10, 50*time.Millisecond, hang)
	if err == nil || err.Error() != "read /mnt/nfs/config.toml: not read within 50ms" {
		t.Errorf("timeout: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err = readFile(ctx, "/mnt/nfs/config.toml", 10, time.Hour, hang)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "/mnt/nfs/config.toml") {
		t.Errorf("cancel: %v", err)
	}
}

// Issue 29 item 9: --debug FILE naming a named pipe nobody reads is an error at once, not a
// wait for a reader; a regular file and /dev/null are taken, and a directory is refused.
func TestOpenLog(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenLog(fifo); err == nil || err.Error() != "open "+fifo+": a named pipe with no reader" {
		t.Errorf("fifo: %v", err)
	}
	if _, err := OpenLog(dir); err == nil {
		t.Errorf("a directory taken as a log")
	}
	for _, p := range []string{filepath.Join(dir, "log"), "/dev/null"} {
		f, err := OpenLog(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if _, err := f.WriteString("x\n"); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		f.Close()
	}
	// A pipe with a reader is a log too (tail -f on a FIFO).
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := OpenLog(fifo)
	if err != nil {
		t.Fatalf("fifo with a reader: %v", err)
	}
	f.Close()
}

// Issue 41 item 2: a regular file that polls (/proc/kmsg, /proc/self/mounts) is not handed to Go's
// poller, where a read of one with nothing to give would wait for ever: Go says such a file takes
// no deadline, and a read with nothing to give fails with EAGAIN at once.
func TestOpenNeverPolls(t *testing.T) {
	f, err := Open("/proc/self/mounts")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if err := f.SetReadDeadline(time.Now().Add(time.Second)); !errors.Is(err, os.ErrNoDeadline) {
		t.Errorf("the file is in Go's poller (SetReadDeadline: %v)", err)
	}
	if b, err := io.ReadAll(f); err != nil || len(b) == 0 {
		t.Errorf("read: %d bytes, %v", len(b), err)
	}
}
