package pmproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// valuesPage is a page of /series/values recorded from pmproxy 6.0.3 (8 hosts' disk.dev.avactive
// over a window of two samples, from scripts/series-bench.sh's archives).
func valuesPage(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/values-page.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A recorded page read as it comes, in pieces of any size, is what encoding/json reads of it
// whole.
func TestSeriesValuesRecordedPage(t *testing.T) {
	b := valuesPage(t)
	want, err := referenceValues(string(b))
	if err != nil || len(want) != 256 {
		t.Fatalf("encoding/json: %d values, %v", len(want), err)
	}
	for _, n := range []int{1, 7, 100, 4096, 1 << 20} {
		got, err := decodeValues(string(b), n)
		if err != nil || !sameValues(got, want) {
			t.Errorf("in pieces of %d: %d values (want %d), %v", n, len(got), len(want), err)
		}
	}
}

// Issue 38 item 3: a page of values is read as it comes into a buffer used again, its values
// handed out where they lie: reading a page of 256 values allocates nothing (the old reader
// allocated the answer's buffer and a copy of it as a string a page).
func TestSeriesValuesAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	b := valuesPage(t)
	var d arrayStream
	r := bytes.NewReader(b)
	n := 0
	count := func(SeriesValue) error { n++; return nil }
	allocs := testing.AllocsPerRun(20, func() {
		r.Reset(b)
		if err := decodeSeriesValues(&d, r, count); err != nil {
			t.Fatal(err)
		}
	})
	if n != 21*256 {
		t.Fatalf("%d values read, want %d", n, 21*256)
	}
	if allocs > 1 {
		t.Errorf("a page of 256 values: %.0f allocations, want at most 1", allocs)
	}
}

// An answer cut short, malformed or too big fails with an error that names the request, and
// every value before the fault was handed out; an element larger than the stream's buffer is
// read whole.
func TestSeriesValuesStreamFaults(t *testing.T) {
	page := string(valuesPage(t))
	cut := strings.Index(page, "},{") + 1
	long := `[{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1,"value":"` + strings.Repeat("x", 3*streamBuf) + `"}]`
	for _, tc := range []struct {
		name, body string
		values     int
		want       string
	}{
		{"whole", page, 256, ""},
		{"cut in a value", page[:len(page)/2], -1, "malformed JSON"},
		{"cut after a value", page[:cut], 1, "want , or ]"},
		{"no end", "[", 0, "want '{'"},
		{"not JSON after a value", page[:cut] + "<html>", 1, fmt.Sprintf("malformed JSON at byte %d: want , or ]", cut)},
		{"more after", page + "[]", 256, "more after the answer"},
		{"a NUL byte after", page + "\x00", 256, "more after the answer"},
		{"an element past the buffer", long, 1, ""},
		{"pmproxy's error", `{"success":false,"message":"no such series"}`, 0, "pmproxy said: no such series"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, tc.body) })
			n := 0
			err := c.SeriesValuesFunc(context.Background(), []string{sid(1)}, Window{}, 0, func(v SeriesValue) { n++ })
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "/series/values") {
				t.Fatalf("error %v, want one naming /series/values that says %q", err, tc.want)
			}
			if tc.values >= 0 && n != tc.values {
				t.Errorf("%d values handed out, want %d", n, tc.values)
			}
		})
	}
}

// An answer past the bound on a /series answer fails, wrapping ErrTooBig, as it is read.
func TestSeriesValuesTooBig(t *testing.T) {
	c := fakeProxy(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "[")
		for i := 0; i < 1<<20; i++ {
			if _, err := fmt.Fprint(w, `{"series":"4be86fc39d8da30fdfbd78f41bf42647821fd3fd","timestamp":1,"value":"1"},`); err != nil {
				return
			}
		}
		fmt.Fprint(w, "{}]")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := c.SeriesValuesFunc(ctx, []string{sid(1)}, Window{}, 1<<30, func(SeriesValue) {})
	if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "/series/values") {
		t.Fatalf("an answer of %d MB: %v", 80, err)
	}
}

// decodeInstances reads an instances answer s handed out n bytes at a time, copying them out.
func decodeInstances(s string, n int) ([]SeriesInstance, error) {
	var got []SeriesInstance
	err := decodeSeriesInstances(new(arrayStream), &chunks{s, n}, func(in SeriesInstance) {
		in.Series, in.Source, in.Instance, in.Name = strings.Clone(in.Series), strings.Clone(in.Source), strings.Clone(in.Instance), strings.Clone(in.Name)
		got = append(got, in)
	})
	return got, err
}

// FuzzSeriesInstances checks the instances reader against encoding/json on any input (both read
// it alike, or both refuse it), whole and in pieces of any size, seeded with a recorded answer of
// pmproxy 6.0.3 (4 hosts' disks).
func FuzzSeriesInstances(f *testing.F) {
	if b, err := os.ReadFile("testdata/instances-page.json"); err == nil {
		f.Add(string(b), uint8(100))
	}
	for _, s := range []string{`[]`, `[null]`, `[{"ID":1.5}]`, `[{"id":"1"}]`, `[{"Name":null,"name":"sda","NAME":"sdb","id":-0}]`, `{"success":false}`, `[{"series":1}]`, `[{"x":[{}]}] `, "[]\x00"} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		got, err := decodeInstances(s, 1<<20)
		pgot, perr := decodeInstances(s, int(n)+1)
		if fmt.Sprint(err) != fmt.Sprint(perr) || !slices.Equal(got, pgot) {
			t.Fatalf("%q in pieces of %d: %v %+v, whole: %v %+v", s, int(n)+1, perr, pgot, err, got)
		}
		var want []SeriesInstance
		werr := json.Unmarshal([]byte(s), &want)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, encoding/json %v", s, err, werr)
		}
		if err == nil && !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

// Issue 38 item 3: a recorded answer of /series/instances is read as encoding/json reads it,
// without allocating.
func TestSeriesInstancesRecorded(t *testing.T) {
	b, err := os.ReadFile("testdata/instances-page.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []SeriesInstance
	if err := json.Unmarshal(b, &want); err != nil || len(want) != 64 {
		t.Fatalf("encoding/json: %d instances, %v", len(want), err)
	}
	got, err := decodeInstances(string(b), 33)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("%d instances (want %d), %v", len(got), len(want), err)
	}
	if raceEnabled {
		return
	}
	var d arrayStream
	r := bytes.NewReader(b)
	n := 0
	allocs := testing.AllocsPerRun(20, func() {
		r.Reset(b)
		if err := decodeSeriesInstances(&d, r, func(SeriesInstance) { n++ }); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 || n != 21*64 {
		t.Errorf("%d instances read, %.0f allocations an answer, want at most 1", n, allocs)
	}
}

// decodeDescs reads a descriptors answer s handed out n bytes at a time, copying them out.
func decodeDescs(s string, n int) ([]SeriesDesc, error) {
	var got []SeriesDesc
	err := decodeSeriesDescs(new(arrayStream), &chunks{s, n}, func(d SeriesDesc) {
		for _, p := range []*string{&d.Series, &d.Source, &d.PMID, &d.InDom, &d.Semantics, &d.Type, &d.Units} {
			*p = strings.Clone(*p)
		}
		got = append(got, d)
	})
	return got, err
}

// FuzzSeriesDescs checks the descriptors reader against encoding/json on any input (both read it
// alike, or both refuse it), whole and in pieces of any size, seeded with a recorded answer of
// pmproxy 6.0.3 (4 hosts' disk.dev.avactive).
func FuzzSeriesDescs(f *testing.F) {
	if b, err := os.ReadFile("testdata/descs-page.json"); err == nil {
		f.Add(string(b), uint8(100))
	}
	for _, s := range []string{`[]`, `[null,{}]`, `[{"PMID":"1.2.3","pmid":null}]`, `[{"units":1}]`, `[{"type":"u32","x":{"y":[1,"2"]}}]`} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, n uint8) {
		got, err := decodeDescs(s, 1<<20)
		pgot, perr := decodeDescs(s, int(n)+1)
		if fmt.Sprint(err) != fmt.Sprint(perr) || !slices.Equal(got, pgot) {
			t.Fatalf("%q in pieces of %d: %v %+v, whole: %v %+v", s, int(n)+1, perr, pgot, err, got)
		}
		var want []SeriesDesc
		werr := json.Unmarshal([]byte(s), &want)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, encoding/json %v", s, err, werr)
		}
		if err == nil && !slices.Equal(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

// A recorded answer of /series/descs is read as encoding/json reads it, without allocating.
func TestSeriesDescsRecorded(t *testing.T) {
	b, err := os.ReadFile("testdata/descs-page.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []SeriesDesc
	if err := json.Unmarshal(b, &want); err != nil || len(want) != 4 {
		t.Fatalf("encoding/json: %d descriptors, %v", len(want), err)
	}
	got, err := decodeDescs(string(b), 17)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("%+v (want %+v), %v", got, want, err)
	}
	if raceEnabled {
		return
	}
	var d arrayStream
	r := bytes.NewReader(b)
	allocs := testing.AllocsPerRun(20, func() {
		r.Reset(b)
		if err := decodeSeriesDescs(&d, r, func(SeriesDesc) {}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("%.0f allocations an answer, want at most 1", allocs)
	}
}
