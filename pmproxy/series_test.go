package pmproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dcimon/internal/archivetest"
	"dcimon/internal/pcptest"
)

// PCPF-3: a series timestamp is milliseconds and the microseconds past them as an integer, as
// the key-value server's stream ids are: ".42" is 42 µs, never 420 ms, or samples 1 ms apart
// would go back in time.
func TestStreamTime(t *testing.T) {
	for in, want := range map[string]int64{
		"1795636210262.242": 1795636210262242,
		"1795636210262.42":  1795636210262042,
		"1795636210262.0":   1795636210262000,
		"1795636210262":     1795636210262000,
		"1795636210262.999": 1795636210262999,
	} {
		got, err := StreamTime(in)
		if err != nil || got.UnixMicro() != want {
			t.Errorf("%s: %v %v, want %d µs", in, got.UnixMicro(), err, want)
		}
	}
	for _, bad := range []string{"", "x", "1.1000", "-1.5", "1e3", "1795636210262.-1", "99999999999999999999"} {
		if _, err := StreamTime(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// secs writes a window's end so that pmproxy, reading it as a double and truncating to the
// microsecond, gets that microsecond.
func TestSecs(t *testing.T) {
	for _, us := range []int64{1795636212261412, 1795636212000000, 1795636212999999, 1} {
		s := secs(time.UnixMicro(us))
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		// What pmproxy does: seconds, and the fraction truncated to microseconds.
		sec := int64(f)
		got := sec*1_000_000 + int64((f-float64(sec))*1e6)
		if got != us {
			t.Errorf("%d µs written %s: read back %d", us, s, got)
		}
	}
}

// seriesStore is a fake pmproxy's series: each id's samples (timestamp in µs, instance, value),
// oldest first, answered as pmproxy 6.0.3 does: from start to finish, samples timestamps of
// each series at most, counted from the start.
type seriesStore map[string][]struct {
	us   int64
	inst string
	v    string
}

func (st seriesStore) handler(requests *atomic.Int32, posts *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		if len(r.URL.RequestURI()) >= 8192 {
			http.Error(w, "414 URI Too Long", http.StatusRequestURITooLong)
			return
		}
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		switch r.URL.Path {
		case "/series/ping":
			fmt.Fprint(w, `{"success":true}`)
			return
		case "/series/values":
		default:
			http.Error(w, "no", 404)
			return
		}
		bound := func(k string, def int64) int64 {
			if s := r.Form.Get(k); s != "" {
				f, _ := strconv.ParseFloat(s, 64)
				sec := int64(f)
				return sec*1_000_000 + int64((f-float64(sec))*1e6)
			}
			return def
		}
		start, finish := bound("start", 0), bound("finish", 1<<62)
		n, _ := strconv.Atoi(r.Form.Get("samples"))
		var out []map[string]any
		for _, id := range strings.Split(r.Form.Get("series"), ",") {
			k, last := 0, int64(-1)
			for _, s := range st[id] {
				if s.us < start || s.us > finish {
					continue
				}
				if s.us != last {
					k++
					last = s.us
				}
				if n > 0 && k > n {
					break
				}
				m := map[string]any{"series": id, "timestamp": json.Number(fmt.Sprintf("%d.%d", s.us/1000, s.us%1000)), "value": s.v}
				if s.inst != "" {
					m["instance"] = s.inst
				}
				out = append(out, m)
			}
		}
		_ = json.NewEncoder(w).Encode(out)
	}
}

func sid(i int) string { return fmt.Sprintf("%040x", i) }

// A window's values come whole whatever the page size: series asked for again from after their
// last sample until none has more (paging), long lists of ids in pages of GETs whose URLs
// pmproxy takes, and nothing outside the window.
func TestSeriesValuesPages(t *testing.T) {
	st := seriesStore{}
	var ids []string
	t0 := int64(1795636210_000_000)
	for i := range 700 { // four pages of ids
		id := sid(i)
		ids = append(ids, id)
		for k := range 7 + i%5 { // series of different lengths
			for _, inst := range []string{sid(100000 + i), sid(200000 + i)} {
				st[id] = append(st[id], struct {
					us   int64
					inst string
					v    string
				}{t0 + int64(k)*10_000_000 + int64(i)*137, inst, strconv.Itoa(k)})
			}
		}
	}
	var requests, posts atomic.Int32
	c := fakeProxy(t, st.handler(&requests, &posts))
	w := Window{Start: time.UnixMicro(t0 + 10_000_000), Finish: time.UnixMicro(t0 + 60_000_000 + 700*137), Samples: 2}
	got, err := c.SeriesValues(context.Background(), ids, w, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, id := range ids {
		var mine []SeriesValue
		for _, v := range got {
			if v.Series == id {
				mine = append(mine, v)
			}
		}
		n := 0
		for _, s := range st[id] {
			if tm := time.UnixMicro(s.us); !tm.Before(w.Start) && !tm.After(w.Finish) {
				if n >= len(mine) || !mine[n].Time.Equal(tm) || mine[n].Value != s.v || mine[n].Instance != s.inst {
					t.Fatalf("series %s: value %d: got %+v, want %+v", id, n, mine, s)
				}
				n++
			}
		}
		if n != len(mine) {
			t.Fatalf("series %s: %d values, want %d", id, len(mine), n)
		}
		want += n
	}
	if len(got) != want {
		t.Errorf("%d values, want %d", len(got), want)
	}
	if posts.Load() != 0 {
		t.Error("a POST: pmproxy 6.0.3 misreads a query in a body that comes in pieces")
	}
	// 4 pages of ids, each with 6 samples in the window read 2 at a time: 4 requests a page
	// when the series are sampled at once; these are up to 96 ms apart, so a page that starts at
	// the earliest series' last sample gives the others one of theirs again: at most 6.
	if n := requests.Load(); n > 24 {
		t.Errorf("%d requests for 2 pages of ids", n)
	}
	// A bound on the values kept: an error that says what was too big.
	_, err = c.SeriesValues(context.Background(), ids, w, 1000, nil)
	if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "700 series") {
		t.Errorf("over the limit: %v", err)
	}
}

// What pmproxy says when it or its key-value server is down, worded from what it answers
// (pmproxy 6.0.3 answers /series/ping without a key-value server, and a query with HTTP 500).
func TestSeriesDiagnose(t *testing.T) {
	kvDown := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/series/ping" {
			fmt.Fprint(w, `{"success":true}`)
			return
		}
		w.WriteHeader(500)
		fmt.Fprint(w, `{"message":"expected array for metric set \"pmcd.pid\" (type=none)","success":false}`)
	})
	_, err := kvDown.SeriesQuery(context.Background(), "disk.dev.read")
	if d := kvDown.Diagnose(err); !strings.Contains(d.Error(), "key-value server (Redis or Valkey) does not") {
		t.Errorf("key-value server down: %v", d)
	}
	noSeries := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		fmt.Fprint(w, `<html>series servlet: failed to process URL</html>`)
	})
	_, err = noSeries.SeriesQuery(context.Background(), "disk.dev.read")
	if d := noSeries.Diagnose(err); !strings.Contains(d.Error(), "has no time series") {
		t.Errorf("no /series: %v", d)
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	down, err := New(strings.Replace(srv.URL, "http://", "pcp://", 1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = down.SeriesQuery(context.Background(), "disk.dev.read")
	if d := down.Diagnose(err); !strings.Contains(d.Error(), "does not answer (is it running?)") {
		t.Errorf("pmproxy down: %v", d)
	}
}

// referenceValues is decodeSeriesValues written with encoding/json.
func referenceValues(b string) ([]SeriesValue, error) {
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b), &raw); err != nil {
		return nil, err
	}
	var out []SeriesValue
	for _, m := range raw {
		var v SeriesValue
		var ts json.Number
		keep := false
		for k, r := range m {
			switch k {
			case "series", "instance":
				var s string
				if err := json.Unmarshal(r, &s); err != nil || !validSID(s) {
					return nil, errors.New("bad id")
				}
				if k == "series" {
					v.Series = s
				} else {
					v.Instance = s
				}
			case "timestamp":
				d := json.NewDecoder(strings.NewReader(string(r)))
				d.UseNumber()
				var x any
				if d.Decode(&x) != nil {
					return nil, errors.New("bad timestamp")
				}
				n, ok := x.(json.Number)
				if !ok {
					return nil, errors.New("bad timestamp")
				}
				ts = n
			case "value":
				var s string
				if json.Unmarshal(r, &s) == nil {
					v.Value, keep = s, true
				} else if f := strings.TrimSpace(string(r)); len(f) > 0 && (f[0] == '-' || f[0] >= '0' && f[0] <= '9') {
					v.Value, keep = f, true
				}
			}
		}
		if v.Series == "" || ts == "" {
			return nil, errors.New("no series or timestamp")
		}
		t, err := StreamTime(string(ts))
		if err != nil {
			return nil, err
		}
		v.Time = t
		if keep {
			out = append(out, v)
		}
	}
	return out, nil
}

var valueSeeds = []string{
	`[]`,
	`[{"series":"35d825f1cd40165525f0d3327949a70cf395afca","instance":"b8ef96502ce6d62c9a805462299ec0a936f0e6e5","timestamp":1795636210262.242,"value":"670589"}]`,
	`[{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1795636210262.42,"value":"2"},{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1795636211261,"value":"6.200000e-01"}]`,
	`[{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1,"value":{"a":1},"other":[1,2]}]`,
	`[{"series":"x","timestamp":1,"value":"1"}]`,
	`[{"timestamp":1,"value":"1"}]`,
	`{"message":"no","success":false}`,
	`[{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1.1000,"value":"1"}]`,
}

// chunks is a reader handing out s n bytes at a time, as a network may.
type chunks struct {
	s string
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

// decodeValues reads an answer s handed out n bytes at a time, copying the values out.
func decodeValues(s string, n int) ([]SeriesValue, error) {
	var got []SeriesValue
	err := decodeSeriesValues(new(arrayStream), &chunks{s, n}, func(v SeriesValue) error {
		v.Series, v.Instance, v.Value = strings.Clone(v.Series), strings.Clone(v.Instance), strings.Clone(v.Value)
		got = append(got, v)
		return nil
	})
	return got, err
}

func sameValues(a, b []SeriesValue) bool {
	return slices.EqualFunc(a, b, func(a, b SeriesValue) bool {
		return a.Series == b.Series && a.Instance == b.Instance && a.Time.Equal(b.Time) && a.Value == b.Value
	})
}

// FuzzSeriesValues checks the values reader against encoding/json on any valid JSON (both read
// it alike, or both refuse it), whether the answer comes whole or in pieces of any size (the
// same values, the same error), and that no input makes it panic.
func FuzzSeriesValues(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add(s, uint8(3))
	}
	if b, err := os.ReadFile("testdata/values-page.json"); err == nil {
		f.Add(string(b), uint8(200))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		got, err := decodeValues(s, 1<<20)
		pgot, perr := decodeValues(s, int(n)+1)
		if fmt.Sprint(err) != fmt.Sprint(perr) || !sameValues(got, pgot) {
			t.Fatalf("%q in pieces of %d: %v %+v, whole: %v %+v", s, int(n)+1, perr, pgot, err, got)
		}
		if !json.Valid([]byte(s)) || strings.HasPrefix(strings.TrimSpace(s), "{") {
			return
		}
		want, werr := referenceValues(s)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, encoding/json %v", s, err, werr)
		}
		if err == nil && !sameValues(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

func TestSeriesValuesSeeds(t *testing.T) {
	got, err := decodeValues(valueSeeds[2], 5)
	if err != nil || len(got) != 2 || got[0].Time.UnixMicro() != 1795636210262042 || got[1].Value != "6.200000e-01" || got[0].Instance != "" {
		t.Errorf("%+v %v", got, err)
	}
	if _, err := decodeValues(valueSeeds[6], 5); err == nil || !strings.Contains(err.Error(), "pmproxy said: no") {
		t.Errorf("an error with HTTP 200: %v", err)
	}
}

// A real pmproxy and key-value server with two hosts' archives loaded: the series of a metric
// are one a host, their descriptors name the host's source, labels its hostname, instances
// their disks, and the values are those written, timestamps to the microsecond. Then the
// key-value server is stopped for real, and the error says so.
func TestRealSeries(t *testing.T) {
	s := pcptest.StartSeries(t)
	f := archivetest.Fleet{Hosts: 2, Disks: 3, Samples: 5, Start: time.Date(2026, 11, 25, 3, 0, 0, 123456000, time.UTC)}
	bases, err := archivetest.WriteFleet(t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	s.Load(t, bases...)
	c, err := New(s.URL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ids, err := c.SeriesQuery(ctx, "disk.dev.avactive")
	if err != nil || len(ids) != 2 {
		t.Fatalf("series of disk.dev.avactive: %v %v", ids, err)
	}
	descs, err := c.SeriesDescs(ctx, ids)
	if err != nil || len(descs) != 2 || descs[0].Source == descs[1].Source || descs[0].Type != "u32" || descs[0].Semantics != "counter" || descs[0].Units != "millisec" {
		t.Fatalf("descs: %+v %v", descs, err)
	}
	insts, err := c.SeriesInstances(ctx, ids[:1])
	if err != nil || len(insts) != 3 {
		t.Fatalf("instances: %+v %v", insts, err)
	}
	labels, err := c.SeriesLabels(ctx, []string{insts[0].Instance})
	host := labels[insts[0].Instance]["hostname"]
	if err != nil || (host != "node000" && host != "node001") {
		t.Fatalf("labels: %+v %v", labels, err)
	}
	h := 0
	if host == "node001" {
		h = 1
	}
	// The second and third samples of the host, by a window that ends exactly at the third.
	first := f.Start.Add(time.Duration(h%7) * 10 * time.Millisecond)
	w := Window{Start: first.Add(10 * time.Second), Finish: first.Add(20 * time.Second)}
	vals, err := c.SeriesValues(ctx, ids[:1], w, 0, nil)
	if err != nil || len(vals) != 6 {
		t.Fatalf("values: %+v %v", vals, err)
	}
	for _, v := range vals {
		if v.Instance != insts[0].Instance {
			continue
		}
		d, k := int(insts[0].ID), int(v.Time.Sub(first)/(10*time.Second))
		want := uint64(1_000_000*(h+1) + 1000*d)
		for i := 1; i <= k; i++ {
			want += uint64(archivetest.FleetBusy(h, d, i)) * 100
		}
		if v.Value != strconv.FormatUint(want, 10) || !v.Time.Equal(first.Add(time.Duration(k)*10*time.Second)) {
			t.Errorf("%s of disk %d at sample %d: %s, want %d", v.Time, d, k, v.Value, want)
		}
	}
	s.StopKV()
	_, err = c.SeriesQuery(ctx, "disk.dev.read")
	if err == nil {
		t.Fatal("a query with the key-value server down: no error")
	}
	if d := c.Diagnose(err); !strings.Contains(d.Error(), "key-value server (Redis or Valkey)") {
		t.Errorf("the key-value server down: %v", d)
	}
}
