package pcpwire

import (
	"bytes"
	"strings"
	"testing"
)

// Readers that give their buffer back after each PDU (Release) read every PDU whole and as
// sent, whichever buffer of the pool each takes: small ones, one that grows a buffer, and one
// larger than the pool keeps.
func TestReaderRelease(t *testing.T) {
	texts := []string{"a", strings.Repeat("b", 10000), "cc", strings.Repeat("d", maxPooled+100), "e"}
	var streams [2][]byte
	for i, s := range texts {
		streams[i%2] = AppendText(streams[i%2], 0, uint32(i), s)
		streams[(i+1)%2] = AppendText(streams[(i+1)%2], 0, uint32(i), strings.ToUpper(s))
	}
	rs := [2]*Reader{NewReader(bytes.NewReader(streams[0]), 0), NewReader(bytes.NewReader(streams[1]), 0)}
	for i, s := range texts {
		for k, r := range rs {
			want := s
			if (i+k)%2 == 1 {
				want = strings.ToUpper(s)
			}
			h, body, err := r.Next()
			if err != nil || h.Type != TypeText {
				t.Fatalf("PDU %d of reader %d: %v %v", i, k, h, err)
			}
			if !bytes.Contains(body, []byte(want)) {
				t.Fatalf("PDU %d of reader %d: %d bytes, not the text sent (%d bytes)", i, k, len(body), len(want))
			}
			r.Release()
			if r.buf != nil {
				t.Fatalf("reader %d kept its buffer after Release", k)
			}
		}
	}
}
