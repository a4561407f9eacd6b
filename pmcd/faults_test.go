package pmcd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"dcimon/internal/pcptest"
	"dcimon/pcpwire"
)

// A host that accepts and never answers fails at the caller's deadline, whether it says
// nothing at all or greets and then goes quiet; the error says which host, that time ran out
// (PM_ERR_TIMEOUT and the context's error), and the connection is not used again.
func TestSilentPeerFailsAtTheDeadline(t *testing.T) {
	mute := newFake(t, silent)
	quiet := newFake(t, func(c net.Conn) {
		if _, ok := greet(c, pmcd6); ok {
			silent(c)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Dial(ctx, mute.addr(), Options{})
	if took := time.Since(start); took < 250*time.Millisecond || took > 3*time.Second {
		t.Errorf("a mute host failed after %v, not at its 300 ms deadline", took)
	}
	if !errors.Is(err, pcpwire.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), mute.addr()) {
		t.Errorf("a mute host: %v", err)
	}

	c := dial(t, quiet.addr())
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	var r pcpwire.Result
	start = time.Now()
	_, err = c.Fetch(ctx2, []uint32{1}, &r)
	if took := time.Since(start); took < 250*time.Millisecond || took > 3*time.Second {
		t.Errorf("a quiet host's fetch failed after %v", took)
	}
	if !errors.Is(err, pcpwire.ErrTimeout) || !strings.Contains(err.Error(), "fetch") {
		t.Errorf("a quiet host's fetch: %v", err)
	}
	if _, err := c.Fetch(tctx(t), []uint32{1}, &r); !errors.Is(err, ErrBroken) {
		t.Errorf("the connection after a timeout: %v", err)
	}
	// The timeout's error carries PM_ERR_TIMEOUT, a code: Broken is what says to dial again.
	if !c.Broken() {
		t.Error("Broken is false after a timeout")
	}
}

// A cancelled context, or Close from another goroutine, ends a call waiting for pmcd at once,
// even without a deadline.
func TestCancelAndCloseEndAWait(t *testing.T) {
	quiet := newFake(t, func(c net.Conn) {
		if _, ok := greet(c, pmcd6); ok {
			silent(c)
		}
	})
	for _, how := range []string{"cancel", "close"} {
		c := dial(t, quiet.addr())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			var r pcpwire.Result
			_, err := c.Fetch(ctx, []uint32{1}, &r)
			done <- err
		}()
		time.Sleep(100 * time.Millisecond)
		if how == "cancel" {
			cancel()
		} else {
			c.Close()
		}
		select {
		case err := <-done:
			if how == "cancel" && !errors.Is(err, context.Canceled) || how == "close" && !strings.Contains(err.Error(), "closed") {
				t.Errorf("%s: %v", how, err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("%s did not end the wait", how)
		}
		cancel()
	}
}

// A second call while one is running is refused, not mixed into the first's PDUs (PCPD-14).
func TestOneCallAtATime(t *testing.T) {
	quiet := newFake(t, func(c net.Conn) {
		if _, ok := greet(c, pmcd6); ok {
			silent(c)
		}
	})
	c := dial(t, quiet.addr())
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	go func() {
		var r pcpwire.Result
		_, _ = c.Fetch(ctx, []uint32{1}, &r)
	}()
	time.Sleep(100 * time.Millisecond)
	if _, err := c.InDom(ctx, 1); !errors.Is(err, ErrBusy) {
		t.Errorf("a second call: %v", err)
	}
}

// A peer that closes in the middle of a PDU gives an error that says so, and the connection is
// lost; one that closes between PDUs is PM_ERR_EOF.
func TestPeerClosesMidPDU(t *testing.T) {
	res := &pcpwire.Result{Time: time.Now(), Sets: []pcpwire.ValueSet{{PMID: 1, ValFmt: pcpwire.ValInsitu, Values: []pcpwire.Value{{Inst: -1, Insitu: true, Word: 7}}}}}
	b := pcpwire.AppendResult(nil, 0, true, res)
	half := fakeFetch(t, func(c net.Conn) {
		_, _ = c.Write(b[:len(b)/2])
		c.Close()
	})
	c := dial(t, half.addr())
	var r pcpwire.Result
	_, err := c.Fetch(tctx(t), []uint32{1}, &r)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "in the middle of a PDU") ||
		!strings.Contains(err.Error(), fmt.Sprintf("HIGHRES_RESULT PDU cut short after %d of %d bytes", len(b)/2, len(b))) {
		t.Errorf("closed mid-PDU: %v", err)
	}
	if _, err := c.Fetch(tctx(t), []uint32{1}, &r); !errors.Is(err, ErrBroken) {
		t.Errorf("afterwards: %v", err)
	}

	gone := newFake(t, func(c net.Conn) {
		if r, ok := greet(c, pmcd6); ok {
			_, _, _ = r.Next()
			c.Close()
		}
	})
	c = dial(t, gone.addr())
	if _, err := c.InDom(tctx(t), 1); !errors.Is(err, pcpwire.ErrEOF) || !strings.Contains(err.Error(), "pmcd closed the connection") {
		t.Errorf("closed between PDUs: %v", err)
	}
}

// A PDU that claims a gigabyte is refused from its header, before anything is allocated for it.
func TestHugePDURefused(t *testing.T) {
	huge := newFake(t, func(c net.Conn) {
		if r, ok := greet(c, pmcd6); ok {
			_, _, _ = r.Next()
			hdr := []byte{0x40, 0, 0, 0, 0, 0, 0x70, 0x07, 0, 0, 0, 0} // 1 GiB, PDU_INSTANCE
			_, _ = c.Write(hdr)
			silent(c)
		}
	})
	c := dial(t, huge.addr())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := c.InDom(tctx(t), 1)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, pcpwire.ErrTooBig) || !strings.Contains(err.Error(), "1073741824 bytes") {
		t.Errorf("a 1 GiB PDU: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("%d bytes allocated for a PDU refused by its header", grew)
	}
}

// pmcd's state changes before a fetch's result are reported with it (PCPF-13), and the result
// read all the same.
func TestStateChangesBeforeAResult(t *testing.T) {
	f := fakeFetch(t, func(c net.Conn) {
		b := pcpwire.AppendError(nil, 0, pcpwire.ChangeNames|pcpwire.ChangeAddAgent)
		res := &pcpwire.Result{Time: time.Unix(100, 5), Sets: []pcpwire.ValueSet{{PMID: 9, Err: pcpwire.ErrNoAgent}}}
		_, _ = c.Write(pcpwire.AppendResult(b, 0, true, res))
		silent(c)
	})
	c := dial(t, f.addr())
	var r pcpwire.Result
	changes, err := c.Fetch(tctx(t), []uint32{9}, &r)
	if err != nil || changes != pcpwire.ChangeNames|pcpwire.ChangeAddAgent || r.Sets[0].Err != pcpwire.ErrNoAgent || r.Time.UnixNano() != 100e9+5 {
		t.Errorf("changes %b, result %+v, %v", changes, r, err)
	}
}

// A result whose sets are not the metrics asked for, in order, is a protocol error (PCPF-11).
func TestResultOfOtherMetricsRefused(t *testing.T) {
	f := fakeFetch(t, func(c net.Conn) {
		res := &pcpwire.Result{Sets: []pcpwire.ValueSet{{PMID: 2}, {PMID: 1}}}
		_, _ = c.Write(pcpwire.AppendResult(nil, 0, true, res))
		silent(c)
	})
	c := dial(t, f.addr())
	var r pcpwire.Result
	if _, err := c.Fetch(tctx(t), []uint32{1, 2}, &r); !errors.Is(err, pcpwire.ErrIPC) || !strings.Contains(err.Error(), "value set 0 is of 0.0.2, not 0.0.1") {
		t.Errorf("sets out of order: %v", err)
	}
}

// What the client does not speak is said plainly, with the way round it: authentication, TLS
// (by a flag, or a peer that speaks it), a pmcd that refuses the host, and something that is
// not pmcd at all.
func TestRefusals(t *testing.T) {
	greeter := func(g pcpwire.Greeting) *fakePMCD {
		return newFake(t, func(c net.Conn) { greet(c, g); silent(c) })
	}
	auth := greeter(pcpwire.Greeting{Version: 2, Features: pcpwire.FeatureCredsReqd | pcpwire.FeatureAuth})
	cert := greeter(pcpwire.Greeting{Version: 2, Features: pcpwire.FeatureCertReqd | pcpwire.FeatureSecure})
	refused := greeter(pcpwire.Greeting{Status: pcpwire.ErrPermission, Version: 2})
	v3 := greeter(pcpwire.Greeting{Version: 3})
	tls := newFake(t, func(c net.Conn) { _, _ = c.Write([]byte{0x15, 0x03, 0x03, 0, 2, 2, 40}); silent(c) })
	http := newFake(t, func(c net.Conn) { _, _ = c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n")); silent(c) })
	for _, c := range []struct {
		addr string
		is   error
		say  string
	}{
		{auth.addr(), ErrNeedsAuth, "--source pcp://PROXY"},
		{cert.addr(), ErrNeedsTLS, "--source pcp://PROXY"},
		{tls.addr(), ErrNeedsTLS, "the peer speaks TLS"},
		{refused.addr(), pcpwire.ErrPermission, "refused: PM_ERR_PERMISSION: No permission to perform requested operation"},
		{v3.addr(), pcpwire.ErrIPC, "protocol version 3"},
		{http.addr(), pcpwire.ErrIPC, "speaks HTTP"},
	} {
		_, err := Dial(tctx(t), c.addr, Options{})
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.say) || !strings.Contains(err.Error(), c.addr) {
			t.Errorf("%s: %v", c.say, err)
		}
	}
}

// A request larger than pmcd takes is refused before it is sent, and the connection stays
// whole.
func TestRequestTooLarge(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	var r pcpwire.Result
	if _, err := c.Fetch(tctx(t), make([]uint32, 20000), &r); err == nil || !strings.Contains(err.Error(), "ask in parts") {
		t.Errorf("a fetch of 20000 metrics: %v", err)
	}
	ids, err := c.LookupNames(tctx(t), []string{"hinv.ncpu"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(tctx(t), ids, &r); err != nil || len(r.Sets[0].Values) != 1 {
		t.Errorf("afterwards: %+v %v", r, err)
	}
	// Many names are asked for in batches under the limit: 3000 names of 40 bytes.
	many := make([]string, 3000)
	for i := range many {
		many[i] = strings.Repeat("x", 30) + ".metric" + string(rune('a'+i%26))
	}
	many[2999] = "hinv.ncpu"
	got, err := c.LookupNames(tctx(t), many, nil)
	if err != nil || len(got) != 3000 || got[0] != pcpwire.PMIDNull || got[2999] != ids[0] {
		t.Errorf("3000 names: %d, %v", len(got), err)
	}
	// Their requests' buffer is not kept for the fetches after (issue 38).
	if cap(c.wbuf) > maxKeptRequest {
		t.Errorf("a buffer of %d bytes kept after the names' requests", cap(c.wbuf))
	}
	if _, err := c.Fetch(tctx(t), ids, &r); err != nil || len(r.Sets[0].Values) != 1 || cap(c.wbuf) == 0 {
		t.Errorf("a fetch after: %+v %v, buffer %d", r, err, cap(c.wbuf))
	}
}

// pmcd killed: the connection reports it (and is not used again); a pmcd started again on the
// port takes a new connection.
func TestPMCDRestart(t *testing.T) {
	p := pcptest.Start(t)
	c := dial(t, p.Hostspec())
	ids, err := c.LookupNames(tctx(t), []string{"hinv.ncpu"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r pcpwire.Result
	if _, err := c.Fetch(tctx(t), ids, &r); err != nil {
		t.Fatal(err)
	}
	p.StopPMCD()
	_, err = c.Fetch(tctx(t), ids, &r)
	if err == nil || !strings.Contains(err.Error(), p.Hostspec()) {
		t.Fatalf("a fetch from a killed pmcd: %v", err)
	}
	t.Logf("a killed pmcd: %v", err)
	if _, err := c.Fetch(tctx(t), ids, &r); !errors.Is(err, ErrBroken) {
		t.Errorf("again: %v", err)
	}
	if _, err := Dial(tctx(t), p.Hostspec(), Options{}); err == nil || !strings.Contains(err.Error(), "connect") {
		t.Errorf("dialling a dead pmcd: %v", err)
	}
	p.StartPMCD(t)
	p.WaitReady(t)
	c2 := dial(t, p.Hostspec())
	if _, err := c2.Fetch(tctx(t), ids, &r); err != nil || len(r.Sets[0].Values) != 1 {
		t.Errorf("a new connection to the new pmcd: %+v %v", r, err)
	}
}

// pmproxy's relay to a pmcd that is not there closes the connection: the error names the proxy
// and the pmcd.
func TestProxyToNowhere(t *testing.T) {
	p := pcptest.Start(t)
	spec := "127.0.0.1:" + strconv.Itoa(pcptest.FreePort(t)) + "@127.0.0.1:" + strconv.Itoa(p.ProxyPort)
	_, err := Dial(tctx(t), spec, Options{})
	if err == nil || !strings.Contains(err.Error(), "pmproxy 127.0.0.1:"+strconv.Itoa(p.ProxyPort)) || !strings.Contains(err.Error(), "could not reach it") {
		t.Errorf("through pmproxy to no pmcd: %v", err)
	}
	// pmproxy 6 would take a name for its own host: a name is resolved first (localhost), one
	// that does not resolve and an IPv6 address are refused before pmproxy is asked.
	c := dial(t, "localhost:"+strconv.Itoa(p.PMCDPort)+"@127.0.0.1:"+strconv.Itoa(p.ProxyPort))
	if ids, err := c.LookupNames(tctx(t), []string{"hinv.ncpu"}, nil); err != nil || ids[0] == pcpwire.PMIDNull {
		t.Errorf("localhost through pmproxy: %v %v", ids, err)
	}
	for _, host := range []string{"no-such-host.invalid", "[::1]"} {
		_, err := Dial(tctx(t), host+":"+strconv.Itoa(p.PMCDPort)+"@127.0.0.1:"+strconv.Itoa(p.ProxyPort), Options{})
		if err == nil || !strings.Contains(err.Error(), "relays only to IPv4 addresses") {
			t.Errorf("%s through pmproxy: %v", host, err)
		}
	}
}

// A cancellation of an earlier call's context that lands while a later call is waiting (the
// earlier call's watch could not be stopped in time) does not cut the later call short.
func TestLateCancellationOfAnEarlierCall(t *testing.T) {
	slow := fakeFetch(t, func(c net.Conn) {
		time.Sleep(300 * time.Millisecond)
		_, _ = c.Write(pcpwire.AppendResult(nil, 0, true, &pcpwire.Result{Sets: []pcpwire.ValueSet{{PMID: 1}}}))
		silent(c)
	})
	c := dial(t, slow.addr())
	early, cancelEarly := context.WithCancel(context.Background())
	defer cancelEarly()
	_ = c.arm(early) // an earlier call's watch, never stopped
	done := make(chan error, 1)
	go func() {
		var r pcpwire.Result
		_, err := c.Fetch(tctx(t), []uint32{1}, &r)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancelEarly()
	if err := <-done; err != nil {
		t.Errorf("the later call: %v", err)
	}
}
