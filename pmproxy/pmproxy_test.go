package pmproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"dcimon/internal/pcptest"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct{ in, want, user, err string }{
		{"pcp://proxy", "http://proxy:44322", "", ""},
		{"pcp://proxy:8080", "http://proxy:8080", "", ""},
		{"pcps://admin@proxy", "https://proxy:44322", "admin", ""},
		{"pcp://[::1]:44322", "http://[::1]:44322", "", ""},
		{"pcp://admin:secret@proxy", "", "", "password in the URL"},
		{"pcp://proxy/pmapi", "", "", "no path"},
		{"ftp://proxy", "", "", "want pcp://"},
		{"pcp://", "", "", "no host"},
	} {
		u, user, err := ParseURL(c.in)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.in, err, c.err)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("%s: the error shows the password: %v", c.in, err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.in, err)
		case u.String() != c.want || user != c.user:
			t.Errorf("%s: %s user %q, want %s user %q", c.in, u, user, c.want, c.user)
		}
	}
}

// fakeProxy answers every request with the handler's body, counting contexts made.
func fakeProxy(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(strings.Replace(srv.URL, "http://", "pcp://", 1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// u64 counters above 2^53 keep every digit (issue 14), and the timestamp its nanoseconds.
func TestFetchExact(t *testing.T) {
	c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/context") {
			fmt.Fprint(w, `{"context":7,"hostspec":"h","labels":{"hostname":"h"}}`)
			return
		}
		fmt.Fprint(w, `{"context":7,"timestamp":1795626267.187878020,"values":[{"pmid":"60.0.4","name":"disk.dev.read",`+
			`"instances":[{"instance":0,"value":18446744073709551615},{"instance":1,"value":9007199254740993}]},`+
			`{"name":"hinv.ncpu","instances":[{"instance":null,"value":2}]},{"name":"x.s","instances":[{"instance":null,"value":"text"}]}]}`)
	})
	x, err := c.NewContext(context.Background(), "h", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	f, err := x.Fetch(context.Background(), "disk.dev.read", "hinv.ncpu", "x.s")
	if err != nil {
		t.Fatal(err)
	}
	vs := f.Values["disk.dev.read"]
	if n, _ := vs[0].Uint64(); n != 18446744073709551615 {
		t.Errorf("u64 max read as %d", n)
	}
	if n, _ := vs[1].Uint64(); n != 9007199254740993 {
		t.Errorf("2^53+1 read as %d", n)
	}
	if v := f.Values["hinv.ncpu"][0]; v.Instance != -1 || v.Text != "2" {
		t.Errorf("a singular metric: %+v", v)
	}
	if f.Values["x.s"][0].Text != "text" {
		t.Errorf("a string: %+v", f.Values["x.s"])
	}
	if f.Time.UnixNano() != 1795626267187878020 {
		t.Errorf("timestamp %d", f.Time.UnixNano())
	}
}

func TestBasicAuthAndNoPasswordShown(t *testing.T) {
	c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "admin" || p != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"context":1,"hostspec":"h"}`)
	})
	c.user, c.pass = "admin", "s3cret"
	if _, err := c.NewContext(context.Background(), "h", time.Second); err != nil {
		t.Fatal(err)
	}
	c.pass = "wrong"
	_, err := c.NewContext(context.Background(), "h", time.Second)
	if err == nil || !strings.Contains(err.Error(), "authentication failed") || strings.Contains(err.Error(), "wrong") {
		t.Errorf("bad password: %v", err)
	}
	if strings.Contains(c.URL(), "wrong") || !strings.Contains(c.URL(), "admin@") {
		t.Errorf("URL %q", c.URL())
	}
}

// Never a hang: a pmproxy that does not answer costs the caller's deadline, no more.
func TestDeadline(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := c.NewContext(ctx, "h", time.Second)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want the deadline", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// roundTripper answers with a fixed body, for fuzzing the decoding without a network.
type roundTripper string

func (b roundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	body := string(b)
	if strings.HasSuffix(r.URL.Path, "/context") {
		body = `{"context":1}`
	}
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(body)), Header: http.Header{}, Request: r}, nil
}

// FuzzFetchAnswer: whatever a pmproxy (or something posing as one) answers, Fetch, Metrics and
// InDom return values or an error, never a panic.
func FuzzFetchAnswer(f *testing.F) {
	f.Add(`{"timestamp":1.5,"values":[{"name":"a","instances":[{"instance":null,"value":1}]}]}`)
	f.Add(`{"timestamp":"x","values":[{"name":"a","instances":[{"instance":"y","value":[1]}]}]}`)
	f.Add(`{"instances":[{"instance":1e400,"name":"\u001b[31m"}],"metrics":[{"name":1}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		c, err := New("pcp://fuzz", Options{Transport: roundTripper(body)})
		if err != nil {
			t.Fatal(err)
		}
		x, err := c.NewContext(context.Background(), "h", time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = x.Fetch(context.Background(), "a")
		_, _ = x.Metrics(context.Background(), "a")
		_, _ = x.InDom(context.Background(), "60.1")
		_, _, _ = x.Children(context.Background(), "")
	})
}

func TestProxyDown(t *testing.T) {
	port := pcptest.FreePort(t)
	c, err := New(fmt.Sprintf("pcp://127.0.0.1:%d", port), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.NewContext(context.Background(), "h", time.Second)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("127.0.0.1:%d", port)) || !strings.Contains(err.Error(), "refused") {
		t.Errorf("err %v, want the URL and connection refused", err)
	}
}

// The rest run against a real pmcd and pmproxy started by the test.

func TestRealPMCD(t *testing.T) {
	p := pcptest.Start(t)
	c, err := New(p.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x, err := c.NewContext(ctx, p.Hostspec(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if host, labels := x.Labels(); host == "" || labels["hostname"] == "" {
		t.Errorf("no host name or labels: %q %v", host, labels)
	}
	ds, err := x.Metrics(ctx, "hinv.ncpu", "disk.dev.read")
	if err != nil {
		t.Fatal(err)
	}
	if ds[1].Type != "u64" || ds[1].Sem != "counter" || ds[1].InDom == "" || ds[0].InDom != "" {
		t.Errorf("descriptors %+v", ds)
	}
	f, err := x.Fetch(ctx, "hinv.ncpu")
	if err != nil {
		t.Fatal(err)
	}
	stat, _ := os.ReadFile("/proc/stat")
	ncpu := 0
	for _, l := range strings.Split(string(stat), "\n") {
		if strings.HasPrefix(l, "cpu") && !strings.HasPrefix(l, "cpu ") {
			ncpu++
		}
	}
	if n, _ := f.Values["hinv.ncpu"][0].Uint64(); int(n) != ncpu {
		t.Errorf("hinv.ncpu %d, /proc/stat has %d processors", n, ncpu)
	}
	if d := time.Since(f.Time); d < -time.Minute || d > time.Minute {
		t.Errorf("fetch time %v", f.Time)
	}
	insts, err := x.InDom(ctx, ds[1].InDom)
	if err != nil || len(insts) == 0 || insts[0].Name == "" {
		t.Errorf("disks %+v %v", insts, err)
	}
	_, nonleaf, err := x.Children(ctx, "disk")
	if err != nil || !strings.Contains(strings.Join(nonleaf, " "), "dev") {
		t.Errorf("children of disk: %v %v", nonleaf, err)
	}
	// An unknown name is HTTP 200 with no values: an error naming it, never 0.
	if _, err := x.Metrics(ctx, "no.such.metric"); !errors.Is(err, ErrUnknownMetric) || !strings.Contains(err.Error(), "no.such.metric") {
		t.Errorf("unknown metric: %v", err)
	}
	f, err = x.Fetch(ctx, "no.such.metric")
	if err != nil || len(f.Values["no.such.metric"]) != 0 {
		t.Errorf("fetch of an unknown metric: %+v %v", f, err)
	}
}

// pmproxy forgets a context idle past its polltimeout: it is made again at the next request,
// and Generation says so.
func TestRealContextExpires(t *testing.T) {
	p := pcptest.Start(t)
	c, _ := New(p.URL(), Options{})
	ctx := context.Background()
	x, err := c.NewContext(ctx, p.Hostspec(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	g := x.Generation()
	time.Sleep(2500 * time.Millisecond)
	if _, err := x.Fetch(ctx, "hinv.ncpu"); err != nil {
		t.Fatalf("after expiry: %v", err)
	}
	if x.Generation() == g {
		t.Error("the context was not made again (or did not expire)")
	}
}

// A host that is down gives pmproxy's reason; when its pmcd returns, the context answers again.
func TestRealPMCDDownAndBack(t *testing.T) {
	p := pcptest.Start(t)
	c, _ := New(p.URL(), Options{})
	ctx := context.Background()
	if _, err := c.NewContext(ctx, fmt.Sprintf("127.0.0.1:%d", pcptest.FreePort(t)), time.Second); err == nil ||
		!strings.Contains(err.Error(), "cannot connect to PMCD") {
		t.Errorf("a host with no pmcd: %v", err)
	}
	x, err := c.NewContext(ctx, p.Hostspec(), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p.StopPMCD()
	if _, err := x.Fetch(ctx, "hinv.ncpu"); err == nil {
		t.Log("pmproxy answered from a context whose pmcd is down (it reconnects lazily)")
	}
	p.StartPMCD(t)
	p.WaitReady(t)
	deadline := time.Now().Add(15 * time.Second)
	for {
		f, err := x.Fetch(ctx, "hinv.ncpu")
		if err == nil && len(f.Values["hinv.ncpu"]) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the context never answered again after pmcd came back: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// pmproxy writes the nanoseconds without leading zeros (observed with PCP 6.0.3: stamps
// 13 ms apart read ".56887899", ".1321343"); read otherwise, rates would go back in time.
func TestParseTimestamp(t *testing.T) {
	for in, want := range map[string]int64{
		"1795626267.187878020": 1795626267187878020,
		"1795626860.1321343":   1795626860001321343,
		"1795626856.56887899":  1795626856056887899,
		"1795626856":           1795626856000000000,
	} {
		got, err := parseTimestamp(in)
		if err != nil || got.UnixNano() != want {
			t.Errorf("%s: %d %v, want %d", in, got.UnixNano(), err, want)
		}
	}
	for _, bad := range []string{"x", "1.x", "1.1234567890", "1.-5"} {
		if _, err := parseTimestamp(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// pcps:// is HTTPS: the same API over TLS (the server's certificate trusted by the transport).
func TestHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			t.Error("not over TLS")
		}
		fmt.Fprint(w, `{"context":3,"hostspec":"h"}`)
	}))
	defer srv.Close()
	c, err := New(strings.Replace(srv.URL, "https://", "pcps://", 1), Options{Transport: srv.Client().Transport})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewContext(context.Background(), "h", time.Second); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.URL(), "pcps://") {
		t.Errorf("URL %q", c.URL())
	}
	// Without trusting the certificate the default transport refuses it, naming the URL.
	c2, _ := New(strings.Replace(srv.URL, "https://", "pcps://", 1), Options{})
	if _, err := c2.NewContext(context.Background(), "h", time.Second); err == nil || !strings.Contains(err.Error(), "pcps://") {
		t.Errorf("an untrusted certificate: %v", err)
	}
}

// Issue 31: requests to one pmproxy run side by side, at most MaxInFlight of them: a host whose
// pmcd accepts and never answers holds one until its caller's deadline and starves no other
// host; a caller that cannot get a slot by its deadline gives up at it, saying why.
func TestRequestsInFlightBounded(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	release := make(chan struct{})
	c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("hostspec") == "hung" {
			<-release // a pmcd that accepts and never answers
		}
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		fmt.Fprint(w, `{"context":1,"hostspec":"h"}`)
	})
	defer close(release)
	go func() { _, _ = c.NewContext(context.Background(), "hung", time.Second) }()
	time.Sleep(20 * time.Millisecond)
	// The other hosts are answered meanwhile, several at once.
	var wg sync.WaitGroup
	start := time.Now()
	for range 3 * MaxInFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if _, err := c.NewContext(ctx, "good", time.Second); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most < 2 || most > MaxInFlight {
		t.Errorf("%d requests at once, want several and at most %d", most, MaxInFlight)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("%d hosts beside a hung one took %v", 3*MaxInFlight, d)
	}
	// A caller whose deadline passes while every slot is held gives up at it.
	block := make(chan struct{})
	c2 := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		<-block
		fmt.Fprint(w, `{"context":1}`)
	})
	for range MaxInFlight {
		go func() { _, _ = c2.NewContext(context.Background(), "h", time.Second) }()
	}
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c2.NewContext(ctx, "h", time.Second); err == nil || !strings.Contains(err.Error(), "requests in flight") {
		t.Errorf("err %v, want the deadline while waiting for a slot", err)
	}
	close(block)
}

// Lookup and LookupIn find an instance's value among a few by a scan and among many by an index,
// and a singular metric by -1.
func TestFetchedLookup(t *testing.T) {
	f := &Fetched{Values: map[string][]Value{"one": {{Instance: -1, Text: "7"}}}}
	for i := range 20 {
		f.Values["many"] = append(f.Values["many"], Value{Instance: int64(100 + i), Text: fmt.Sprint(i)})
	}
	f.Values["few"] = f.Values["many"][:3]
	for _, c := range []struct {
		metric string
		inst   int64
		want   string
		ok     bool
	}{{"one", -1, "7", true}, {"many", 119, "19", true}, {"many", 5, "", false}, {"few", 102, "2", true}, {"few", 110, "", false}, {"none", -1, "", false}} {
		v, ok := f.Lookup(c.metric, c.inst)
		if ok != c.ok || v.Text != c.want {
			t.Errorf("Lookup(%s, %d) = %q %v, want %q %v", c.metric, c.inst, v.Text, ok, c.want, c.ok)
		}
		// The same with the values looked up already, as collect/pcp's planned columns keep them.
		v, ok = f.LookupIn(c.metric, f.Values[c.metric], c.inst)
		if ok != c.ok || v.Text != c.want {
			t.Errorf("LookupIn(%s, %d) = %q %v, want %q %v", c.metric, c.inst, v.Text, ok, c.want, c.ok)
		}
	}
}
