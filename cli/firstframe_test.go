//go:build linux

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair of the given size.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("unlocking the pty: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, fmt.Errorf("pty size: %w", err)
	}
	return master, slave, nil
}

// dataShown is the status bar's mark of a frame with collected data.
var dataShown = regexp.MustCompile(`sample [0-9]{2}:[0-9]{2}:[0-9]{2}`)

// firstFrame starts the monitor on a 200×50 pseudo-terminal and returns how long after the
// start the bytes of the first frame with data had been read from the terminal; then it stops the
// monitor with SIGTERM and checks it left the alternate screen.
func firstFrame(bin string, args ...string) (time.Duration, error) {
	master, slave, err := openPTY(200, 50)
	if err != nil {
		return 0, err
	}
	defer master.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return 0, err
	}
	slave.Close()
	var out bytes.Buffer
	buf := make([]byte, 64<<10)
	var took time.Duration
	readErr := make(chan error, 1)
	go func() {
		for {
			n, err := master.Read(buf)
			if took == 0 {
				out.Write(buf[:n])
				if dataShown.MatchString(ansi.Strip(out.String())) {
					took = time.Since(start)
					_ = cmd.Process.Signal(syscall.SIGTERM)
				}
			} else {
				out.Write(buf[:n])
			}
			if err != nil { // EIO once the monitor has exited and the terminal is closed
				readErr <- err
				return
			}
		}
	}()
	select {
	case <-readErr:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-readErr
	}
	werr := cmd.Wait()
	if took == 0 {
		return 0, fmt.Errorf("no frame with data within 10 s (exit %v); the terminal got %q", werr, out.String())
	}
	// Ended by SIGTERM, it exits as a signalled program does: 128+15 (issue 21).
	if ee, ok := werr.(*exec.ExitError); !ok || ee.ExitCode() != 128+int(syscall.SIGTERM) {
		return 0, fmt.Errorf("the monitor exited with %v, want exit status 143", werr)
	}
	if !bytes.Contains(out.Bytes(), []byte("\x1b[?1049l")) {
		return 0, errors.New("the monitor did not leave the alternate screen")
	}
	// No query of the terminal (theme/quiet.go): its answer would cost a round trip at start.
	for _, q := range []string{"\x1b]11;?", "\x1b]10;?", "\x1b[6n"} {
		if bytes.Contains(out.Bytes(), []byte(q)) {
			return 0, fmt.Errorf("the monitor queried the terminal with %q", q)
		}
	}
	return took, nil
}

// BenchmarkFirstFrame measures, per start of the real binary on this host, the time from starting
// it on a 200×50 terminal to reading its first frame with data from the terminal (issue budget:
// 50 ms). Run with -benchtime=20x or so: each start is a whole process.
func BenchmarkFirstFrame(b *testing.B) {
	bin := buildDcimon(b)
	var total time.Duration
	for b.Loop() {
		d, err := firstFrame(bin, "--interval", "1s")
		if err != nil {
			b.Fatal(err)
		}
		total += d
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-frame")
	b.ReportMetric(0, "ns/op") // the process's exit is in the loop: ns/op is not the figure
}

// TestFirstFrameOnAPseudoTerminal runs the monitor once on a pseudo-terminal (no tmux): it must
// draw a frame with data and give the terminal back on SIGTERM. The time is the benchmark's.
func TestFirstFrameOnAPseudoTerminal(t *testing.T) {
	if m, s, err := openPTY(80, 24); err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	} else {
		m.Close()
		s.Close()
	}
	bin := binaryOrSkip(t)
	if _, err := firstFrame(bin, "--source", "synthetic:disks=4,nics=2,cpus=4,seed=1"); err != nil {
		t.Fatal(err)
	}
}
