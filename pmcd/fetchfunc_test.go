package pmcd

import (
	"errors"
	"net"
	"testing"
	"time"

	"dcimon/pcpwire"
)

// FetchFunc hands the result, with pmcd's state changes, to its function once the answer is in,
// as Fetch reads it; an answer refused (sets not of the metrics asked for) is never handed on.
func TestFetchFunc(t *testing.T) {
	answers := []*pcpwire.Result{
		{Time: time.Unix(100, 5), Sets: []pcpwire.ValueSet{{PMID: 9, ValFmt: pcpwire.ValInsitu,
			Values: []pcpwire.Value{{Inst: 3, Insitu: true, Word: 42}}}}},
		{Sets: []pcpwire.ValueSet{{PMID: 8}}},
	}
	f := newFake(t, func(c net.Conn) {
		r, ok := greet(c, pmcd6)
		if !ok {
			return
		}
		_, _, _ = r.Next()
		for i, res := range answers {
			_, _, _ = r.Next()
			var b []byte
			if i == 0 {
				b = pcpwire.AppendError(nil, 0, pcpwire.ChangeAgent)
			}
			_, _ = c.Write(pcpwire.AppendResult(b, 0, true, res))
		}
		silent(c)
	})
	c := dial(t, f.addr())
	calls := 0
	changes, err := c.FetchFunc(tctx(t), []uint32{9}, func(ch int32, r *pcpwire.Result) {
		calls++
		if ch != pcpwire.ChangeAgent || len(r.Sets) != 1 || len(r.Sets[0].Values) != 1 || r.Sets[0].Values[0].Word != 42 ||
			r.Sets[0].Values[0].Inst != 3 || r.Time.UnixNano() != 100e9+5 {
			t.Errorf("changes %b, result %+v", ch, r)
		}
	})
	if err != nil || calls != 1 || changes != pcpwire.ChangeAgent {
		t.Fatalf("FetchFunc: %d calls, changes %b, %v", calls, changes, err)
	}
	_, err = c.FetchFunc(tctx(t), []uint32{9}, func(int32, *pcpwire.Result) { calls++ })
	if !errors.Is(err, pcpwire.ErrIPC) || calls != 1 {
		t.Errorf("a result of another metric: %d calls, %v", calls, err)
	}
}
