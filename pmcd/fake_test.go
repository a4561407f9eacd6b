package pmcd

import (
	"io"
	"net"
	"testing"

	"dcimon/internal/pcptest"
	"dcimon/pcpwire"
)

// fakePMCD is a listener on a free loopback port that plays pmcd badly, as a test needs: each
// connection it accepts is handed to serve (which may greet, answer, stall or close). It is
// closed, with every connection, at the end of the test.
type fakePMCD struct{ srv *pcptest.Server }

func newFake(t *testing.T, serve func(c net.Conn)) *fakePMCD {
	t.Helper()
	return &fakePMCD{pcptest.Serve(t, serve)}
}

func (f *fakePMCD) addr() string { return f.srv.Addr }

// pmcd6 is the greeting of pmcd 6.0.3: accepted, version 2, descriptors, labels and
// high-resolution fetches offered.
var pmcd6 = pcpwire.Greeting{Version: 2, Licensed: 1, Features: pcpwire.FeatureDescs | pcpwire.FeatureLabels | pcpwire.FeatureHighRes}

// greet sends g and reads the client's PDU_CREDS; false when the client went away.
func greet(c net.Conn, g pcpwire.Greeting) (*pcpwire.Reader, bool) {
	if _, err := c.Write(pcpwire.AppendGreeting(nil, g)); err != nil {
		return nil, false
	}
	r := pcpwire.NewReader(c, 0)
	h, _, err := r.Next()
	return r, err == nil && h.Type == pcpwire.TypeCreds
}

// fakeFetch is a pmcd 6 that reads a fetch (the profile, then the fetch) and answers it with
// answer.
func fakeFetch(t *testing.T, answer func(c net.Conn)) *fakePMCD {
	return newFake(t, func(c net.Conn) {
		r, ok := greet(c, pmcd6)
		if !ok {
			return
		}
		_, _, _ = r.Next() // the profile
		_, _, _ = r.Next() // the fetch
		answer(c)
	})
}

// silent holds the connection open and says nothing until the client goes.
func silent(c net.Conn) { _, _ = io.Copy(io.Discard, c) }
