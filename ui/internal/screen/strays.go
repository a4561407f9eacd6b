package screen

import (
	"fmt"
	"io"
	"log"
	"os"
)

// strayLimit bounds how much stray output is replayed after the monitor exits.
const strayLimit = 64 << 10

// Strays holds what anything other than the screen prints to standard output or standard error
// while the monitor owns the terminal: a library's log line, or bubbletea's report of a panic it
// caught. Written over the alternate screen it would garble the picture and then vanish with it
// on exit; instead it goes to an unnamed temporary file and is replayed on standard error once
// the terminal is restored. The screen writes through its own handle, opened before.
type Strays struct {
	f           *os.File
	out, errOut *os.File
	logOut      io.Writer // the standard logger's, which holds its own handle on standard error
}

// CatchStrays points os.Stdout, os.Stderr and the standard logger at a temporary file until
// release. Without a temporary directory it catches nothing.
func CatchStrays() *Strays {
	s := &Strays{out: os.Stdout, errOut: os.Stderr, logOut: log.Writer()}
	f, err := os.CreateTemp("", "dcimon-stray-*")
	if err != nil {
		return s
	}
	_ = os.Remove(f.Name()) // nameless: gone when closed, whatever happens
	s.f = f
	os.Stdout, os.Stderr = f, f
	if s.logOut != io.Discard { // a logger the program silenced stays so
		log.SetOutput(f)
	}
	return s
}

// Release restores os.Stdout and os.Stderr and copies what was caught (at most strayLimit bytes)
// to w under a heading. It reports whether anything was caught.
func (s *Strays) Release(w io.Writer) bool {
	os.Stdout, os.Stderr = s.out, s.errOut
	if s.f == nil {
		return false
	}
	log.SetOutput(s.logOut)
	defer s.f.Close()
	n, err := s.f.Seek(0, io.SeekEnd)
	if err != nil || n == 0 {
		return false
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return false
	}
	fmt.Fprintln(w, "dcimon: this was printed while the monitor ran:")
	_, _ = io.Copy(w, io.LimitReader(s.f, strayLimit))
	if n > strayLimit {
		fmt.Fprintf(w, "\n... %d more bytes\n", n-strayLimit)
	}
	return true
}

// Stderr is the standard error the process had before CatchStrays: where Release's report goes.
func (s *Strays) Stderr() *os.File { return s.errOut }
