package pcpwire

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzPDU feeds a stream of PDUs, as a pmcd or a proxy might send them, through the reader and
// every decoder (whatever type each PDU says it is: they must all be safe on any bytes). Seeds
// are conversations recorded from a real pmcd 6.0.3 (testdata/captures, written by the pmcd
// package's TestRecordCaptures) and the encodings of this package's own tests. A result that
// decodes must encode and decode again to the same result.
func FuzzPDU(f *testing.F) {
	caps, _ := filepath.Glob("testdata/captures/*.pdus")
	if len(caps) == 0 {
		f.Fatal("no captures in testdata/captures")
	}
	for _, c := range caps {
		b, err := os.ReadFile(c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(AppendResult(nil, 0, false, sampleResult()))
	f.Add(AppendResult(nil, 0, true, sampleResult()))
	f.Add(hostResult(2, 2, 1))
	f.Add(AppendLabels(nil, 0, 60, LabelDomain, []LabelSet{{Inst: InNull, JSON: `{"a":1}`, Labels: []Label{{Name: "a", Value: "1"}}}}))
	f.Add(AppendNameList(nil, 0, []string{"a", "bc"}, []int32{0, 1}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(bytes.NewReader(b), 1<<20)
		var res, again Result
		for range 64 {
			h, body, err := r.Next()
			if err != nil {
				return
			}
			_, _ = DecodeError(body)
			_, _ = DecodeGreeting(body)
			_, _ = DecodeDesc(body)
			_, _ = DecodeDescs(body, len(body)/20, nil)
			_, _, _ = DecodeIDList(body, len(body)/4-2, nil)
			_, _, _ = DecodeNameList(body)
			_, _, _ = DecodeInstance(body)
			_, _, _ = DecodeText(body)
			_, _, _, _ = DecodeLabels(body)
			for _, st := range []Stamp{StampPDU, StampHighRes, StampArchiveV2, StampArchiveV3} {
				if DecodeResult(body, st, &res) != nil || (st != StampPDU && st != StampHighRes) {
					continue
				}
				enc := AppendResult(nil, h.From, st == StampHighRes, &res)
				if err := DecodeResult(enc[HeaderLen:], st, &again); err != nil {
					t.Fatalf("a decoded result does not decode again: %v", err)
				}
				sameResult(t, &again, &res, true)
			}
		}
	})
}
