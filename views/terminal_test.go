package views

import (
	"bytes"
	"testing"
)

// Issue 41 item 6: what others wrote reaches a terminal neutralised, lines and tabs kept, whatever
// the writes' boundaries (a character cut between two writes is whole once its end comes).
func TestTerminalWriter(t *testing.T) {
	t.Parallel()
	in := "proc_cpu{comm=\"x\x1b]52;c;ZXZpbA==\x07\x1b[2J\"} 1\n\tdé€\u202e\xff\x9b1m end\r\n"
	want := "proc_cpu{comm=\"x\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\"} 1\n\tdé€\\u202e\\xff\\x9b1m end\\x0d\n"
	for _, size := range []int{1, 2, 3, 5, len(in)} {
		var out bytes.Buffer
		w := NewTerminalWriter(&out)
		for i := 0; i < len(in); i += size {
			n, err := w.Write([]byte(in[i:min(i+size, len(in))]))
			if err != nil || n != min(size, len(in)-i) {
				t.Fatalf("write: %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("writes of %d bytes:\n got %q\nwant %q", size, out.String(), want)
		}
	}
	var out bytes.Buffer
	w := NewTerminalWriter(&out)
	w.Write([]byte("a\xe2\x82"))
	w.Flush()
	if out.String() != `a\xe2\x82` {
		t.Errorf("a character cut at the end: %q", out.String())
	}
}
