package screen

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// paintOn paints frame and feeds the bytes to the terminal, failing on anything it cannot read.
func paintOn(t testing.TB, p *Painter, v *vt, frame string, fw int) []byte {
	t.Helper()
	b := p.Paint(frame, fw, v.w, v.h)
	if err := v.write(b); err != nil {
		t.Fatalf("painting %q: %v\nbytes %q", frame, err, b)
	}
	return bytes.Clone(b)
}

func TestPainterWritesOnlyWhatChanged(t *testing.T) {
	const w, h = 20, 4
	red := func(s string) string { return "\x1b[31m" + s + "\x1b[m" }
	tests := []struct {
		name  string
		frame string
		rows  int // rows the paint must write; -1: nothing at all
		erase bool
	}{
		{"first frame writes every line", "one\n" + red("two") + "\nthree\nfour", 4, false},
		{"same frame writes nothing", "one\n" + red("two") + "\nthree\nfour", -1, false},
		{"one changed line is one row", "one\n" + red("TWO") + "\nthree\nfour", 1, false},
		{"a style change alone is a change", "one\n\x1b[32mTWO\x1b[m\nthree\nfour", 1, false},
		{"shorter frame erases below", "one\n\x1b[32mTWO\x1b[m", 0, true},
		{"longer frame writes the new rows", "one\n\x1b[32mTWO\x1b[m\nthree\nfour", 2, false},
		{"lines past the last row are dropped", "one\n\x1b[32mTWO\x1b[m\nthree\nfour\nfive\nsix", -1, false},
		{"an empty frame erases everything but the first row", "", 1, true},
	}
	var p Painter
	p.Invalidate()
	v := newVT(w, h)
	for _, tt := range tests {
		b := paintOn(t, &p, v, tt.frame, w)
		if got, want := v.text(), shown(tt.frame, w, h); got != want {
			t.Fatalf("%s: the terminal shows\n%s\nwant\n%s", tt.name, got, want)
		}
		if tt.rows < 0 {
			if b != nil {
				t.Errorf("%s: wrote %q, want nothing", tt.name, b)
			}
			continue
		}
		if got := bytes.Count(b, []byte(eraseLine)); got != tt.rows {
			t.Errorf("%s: wrote %d rows, want %d: %q", tt.name, got, tt.rows, b)
		}
		if got := bytes.Contains(b, []byte(eraseBelow)); got != tt.erase {
			t.Errorf("%s: erased below = %v, want %v: %q", tt.name, got, tt.erase, b)
		}
		if !bytes.HasPrefix(b, []byte(syncBegin)) || !bytes.HasSuffix(b, []byte(syncEnd)) {
			t.Errorf("%s: not wrapped in synchronized output: %q", tt.name, b)
		}
	}
}

func TestPainterAfterResize(t *testing.T) {
	var p Painter
	p.Invalidate()
	v := newVT(30, 3)
	wide := "abcdefghijklmnopqrstuvwxyz0123\n\x1b[1mABCDEFGHIJKLMNOPQRSTUVWXYZ\x1b[m\nend"
	paintOn(t, &p, v, wide, 30)
	// The terminal narrows to 10 columns before a frame laid out for it arrives: the old frame is
	// cut to fit, and the whole screen is written again.
	v = newVT(10, 2)
	for i := range v.cells {
		copy(v.cells[i], []rune("garbage!!!"))
	}
	p.Invalidate()
	paintOn(t, &p, v, wide, 30)
	if got, want := v.text(), "abcdefghij\nABCDEFGHIJ"; got != want {
		t.Fatalf("after the resize the terminal shows\n%s\nwant\n%s", got, want)
	}
	// The frame for the new size only writes what differs from what the rows show: the first
	// row is the cut text already, the second is no longer bold.
	b := paintOn(t, &p, v, "abcdefghij\nABCDEFGHIJ", 10)
	if n := bytes.Count(b, []byte(eraseLine)); n != 1 || !bytes.Contains(b, []byte("\x1b[2;1H")) {
		t.Errorf("a frame differing from the cut rows in its second row wrote %q", b)
	}
	paintOn(t, &p, v, "abcdefghij\nxyz", 10)
	if got, want := v.text(), "abcdefghij\nxyz"; got != want {
		t.Fatalf("the terminal shows\n%s\nwant\n%s", got, want)
	}
}

// TestPainterRandomFrames paints random sequences of frames, with random sizes and resizes,
// and checks after every paint that the terminal shows exactly the frame.
func TestPainterRandomFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"cpu0", "disk", "12.5", "n/a", "│", "─", "▁▂▃", "·", " ", "eth0", "%busy"}
	styles := []string{"", "\x1b[1m", "\x1b[38;5;203m", "\x1b[7m"}
	line := func(w int) string {
		var sb strings.Builder
		n := 0
		for n < w {
			s := words[rng.IntN(len(words))]
			if n+len([]rune(s)) > w {
				break
			}
			st := styles[rng.IntN(len(styles))]
			sb.WriteString(st + s)
			if st != "" {
				sb.WriteString("\x1b[m")
			}
			n += len([]rune(s))
		}
		return sb.String()
	}
	for run := 0; run < 200; run++ {
		w, h := 1+rng.IntN(60), 1+rng.IntN(20)
		var p Painter
		p.Invalidate()
		v := newVT(w, h)
		var lines []string
		for range 1 + rng.IntN(h+3) {
			lines = append(lines, line(w))
		}
		for step := 0; step < 30; step++ {
			switch rng.IntN(6) {
			case 0: // resize: a new terminal, the old frame cut to it
				w, h = 1+rng.IntN(60), 1+rng.IntN(20)
				v = newVT(w, h)
				p.Invalidate()
			case 1: // drop or add lines
				if len(lines) > 1 && rng.IntN(2) == 0 {
					lines = lines[:rng.IntN(len(lines))]
				} else {
					lines = append(lines, line(w))
				}
			default: // change a few lines
				for range 1 + rng.IntN(3) {
					if len(lines) > 0 {
						lines[rng.IntN(len(lines))] = line(w)
					}
				}
			}
			fw := w
			for _, l := range lines {
				fw = max(fw, len([]rune(ansi.Strip(l))))
			}
			frame := strings.Join(lines, "\n")
			paintOn(t, &p, v, frame, fw)
			if got, want := v.text(), shown(frame, w, h); got != want {
				t.Fatalf("run %d step %d (%dx%d): the terminal shows\n%s\nwant\n%s", run, step, w, h, got, want)
			}
		}
	}
}

func TestPainterAllocatesNothingInSteadyState(t *testing.T) {
	var p Painter
	p.Invalidate()
	frames := [2]string{}
	for k := range frames {
		var sb strings.Builder
		for i := range 60 {
			fmt.Fprintf(&sb, "\x1b[1mrow %3d\x1b[m %s frame %d\n", i, strings.Repeat("─", 150), k*(i%3))
		}
		frames[k] = sb.String()
	}
	p.Paint(frames[0], 200, 200, 60)
	p.Paint(frames[1], 200, 200, 60)
	k := 0
	if n := testing.AllocsPerRun(100, func() {
		k ^= 1
		p.Paint(frames[k], 200, 200, 60)
	}); n != 0 {
		t.Errorf("a frame allocates %v times, want 0", n)
	}
}

// recorder is a terminal for the screen's tests: every write is fed to a vt and counted.
type recorder struct {
	mu     sync.Mutex
	v      *vt
	writes int
	err    error
	block  chan struct{} // when not nil, each write waits for a receive... of a value
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.block != nil {
		<-r.block
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes++
	if err := r.v.write(b); err != nil && r.err == nil {
		r.err = err
	}
	return len(b), nil
}

func (r *recorder) state() (string, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.v.text(), r.writes, r.err
}

// waitShown waits until the recorder's terminal shows want.
func waitShown(t *testing.T, r *recorder, want string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, n, err := r.state()
		if err != nil {
			t.Fatal(err)
		}
		if got == want {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal shows\n%s\nwant\n%s", got, want)
		}
		time.Sleep(time.Millisecond)
	}
}

func startTestScreen(t *testing.T, r *recorder, gap time.Duration) *Screen {
	t.Helper()
	s := newScreen(r, gap)
	s.w, s.h = r.v.w, r.v.h
	go s.loop()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func TestScreenDrawsTheFirstFrameWithDataAtOnce(t *testing.T) {
	r := &recorder{v: newVT(10, 2)}
	var mu sync.Mutex
	var told []time.Time
	drawn := func(at time.Time) { mu.Lock(); told = append(told, at); mu.Unlock() }
	// A gap of an hour: were the provisional frame to hold back the next one, this would time out.
	s := startTestScreen(t, r, time.Hour)
	s.Submit(Frame{Text: "starting", Width: 10, HoldUntil: time.Now()})
	waitShown(t, r, shown("starting", 10, 2))
	s.Submit(Frame{Text: "cpu 12%", Width: 10, Drawn: drawn})
	waitShown(t, r, shown("cpu 12%", 10, 2))
	// The next frame waits out the gap: it is not drawn while the test looks.
	s.Submit(Frame{Text: "cpu 13%", Width: 10, Drawn: drawn})
	time.Sleep(20 * time.Millisecond)
	if got, _, _ := r.state(); got != shown("cpu 12%", 10, 2) {
		t.Errorf("a frame within the gap was drawn:\n%s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 1 {
		t.Errorf("Drawn called %d times, want 1 (the frame within the gap is not drawn yet)", len(told))
	}
}

func TestScreenDrawsOnlyTheNewestFrame(t *testing.T) {
	r := &recorder{v: newVT(20, 1), block: make(chan struct{})}
	s := startTestScreen(t, r, 0)
	s.Submit(Frame{Text: "frame 0", Width: 20})
	// The first write is stuck in a slow terminal while 100 more frames come.
	for i := 1; i <= 100; i++ {
		s.Submit(Frame{Text: fmt.Sprintf("frame %d", i), Width: 20})
	}
	close(r.block)
	n := waitShown(t, r, "frame 100")
	if n > 2 {
		t.Errorf("%d writes for frames made while the terminal was busy, want 2 (the stuck one and the newest)", n)
	}
}

func TestScreenKeepsTheGap(t *testing.T) {
	r := &recorder{v: newVT(20, 1)}
	const gap = 25 * time.Millisecond
	s := startTestScreen(t, r, gap)
	start := time.Now()
	for i := 0; i < 200; i++ {
		s.Submit(Frame{Text: fmt.Sprintf("frame %d", i), Width: 20})
		time.Sleep(time.Millisecond / 2)
	}
	n := waitShown(t, r, "frame 199")
	// A slow machine only makes fewer frames: the bound holds however long the loop took.
	if most := int(time.Since(start)/gap) + 2; n > most {
		t.Errorf("%d frames in %v, want at most %d (one a %v)", n, time.Since(start), most, gap)
	}
}

func TestScreenRedrawsEverythingAfterAResize(t *testing.T) {
	r := &recorder{v: newVT(12, 2)}
	s := startTestScreen(t, r, 0)
	s.Submit(Frame{Text: "hello\nworld", Width: 12})
	waitShown(t, r, "hello\nworld")
	// The terminal reflowed its cells on the resize; the same frame is drawn again, whole.
	r.mu.Lock()
	r.v = newVT(8, 2)
	copy(r.v.cells[0], []rune("xxxxxxxx"))
	r.mu.Unlock()
	s.Resize(8, 2)
	waitShown(t, r, "hello\nworld")
}

// FuzzPaint paints two frames made from the fuzzer's bytes (mapped to printable text, styles and
// line breaks) one after the other, on a terminal whose size also comes from the input, and
// checks the terminal then shows exactly the second.
func FuzzPaint(f *testing.F) {
	f.Add([]byte("ab\ncd"), []byte("ab\nce\nf"), uint8(10), uint8(3))
	f.Add([]byte("\x01x\x02y"), []byte(""), uint8(1), uint8(1))
	f.Add([]byte("long line that is wider than the terminal"), []byte("short"), uint8(8), uint8(2))
	frame := func(b []byte) (string, int) {
		var sb strings.Builder
		wid, cur := 0, 0
		for _, c := range b {
			switch {
			case c == '\n' || c%17 == 0:
				sb.WriteByte('\n')
				wid, cur = max(wid, cur), 0
			case c%13 == 0:
				sb.WriteString("\x1b[1;38;5;" + strconv.Itoa(int(c)) + "m")
			case c%11 == 0:
				sb.WriteString("\x1b[m")
			case c%7 == 0:
				sb.WriteString("│")
				cur++
			default:
				sb.WriteByte(' ' + c%94)
				cur++
			}
		}
		return sb.String(), max(wid, cur)
	}
	f.Fuzz(func(t *testing.T, a, b []byte, w, h uint8) {
		tw, th := 1+int(w)%120, 1+int(h)%50
		var p Painter
		p.Invalidate()
		v := newVT(tw, th)
		fa, wa := frame(a)
		fb, wb := frame(b)
		paintOn(t, &p, v, fa, max(wa, tw))
		paintOn(t, &p, v, fb, max(wb, tw))
		if got, want := v.text(), shown(fb, tw, th); got != want {
			t.Fatalf("%dx%d: the terminal shows\n%q\nwant\n%q", tw, th, got, want)
		}
	})
}

// failingWriter refuses every write, as a terminal that hung up.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("input/output error") }

// TestScreenStopsWritingToAGoneTerminal: after a failed write the screen writes no more frames.
func TestScreenStopsWritingToAGoneTerminal(t *testing.T) {
	s := newScreen(failingWriter{}, 0)
	s.w, s.h = 10, 2
	drawn := func(time.Time) { t.Error("Drawn called on a gone terminal") }
	go s.loop()
	s.Submit(Frame{Text: "a", Width: 10, Drawn: drawn})
	s.Submit(Frame{Text: "b", Width: 10, Drawn: drawn})
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.wmu.Lock()
		if s.werr != nil {
			s.wmu.Unlock()
			break
		}
		s.wmu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("no write error recorded")
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// TestScreenSkipsAProvisionalFrameReplacedInTime: a provisional frame waits for its time; when a
// newer frame comes meanwhile, only the newer one is ever written.
func TestScreenSkipsAProvisionalFrameReplacedInTime(t *testing.T) {
	r := &recorder{v: newVT(10, 1)}
	s := startTestScreen(t, r, 0)
	s.Submit(Frame{Text: "starting", Width: 10, HoldUntil: time.Now().Add(time.Hour)})
	s.Submit(Frame{Text: "cpu 12%", Width: 10})
	if n := waitShown(t, r, "cpu 12%"); n != 1 {
		t.Errorf("%d writes, want 1 (the provisional frame was drawn)", n)
	}
}

// TestScreenDrawsAProvisionalFrameAtItsTime: a provisional frame nobody replaces is drawn once its
// time has come, not before.
func TestScreenDrawsAProvisionalFrameAtItsTime(t *testing.T) {
	r := &recorder{v: newVT(10, 1)}
	s := startTestScreen(t, r, 0)
	const hold = 60 * time.Millisecond
	start := time.Now()
	s.Submit(Frame{Text: "starting", Width: 10, HoldUntil: start.Add(hold)})
	waitShown(t, r, "starting")
	if took := time.Since(start); took < hold {
		t.Errorf("drawn after %v, before its time (%v)", took, hold)
	}
}
