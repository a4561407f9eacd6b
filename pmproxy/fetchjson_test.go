package pmproxy

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// referenceFetch decodes a fetch answer with encoding/json, as the client did before it had a
// reader of its own: the reference decodeFetch is checked against.
func referenceFetch(b []byte) (*fetchAnswer, error) {
	var r struct {
		Timestamp json.Number `json:"timestamp"`
		Values    []struct {
			Name      string `json:"name"`
			Instances []struct {
				Instance json.Number `json:"instance"`
				Value    any         `json:"value"`
			} `json:"instances"`
		} `json:"values"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&r); err != nil {
		return nil, err
	}
	a := &fetchAnswer{timestamp: string(r.Timestamp)}
	for _, m := range r.Values {
		fm := fetchMetric{name: m.Name}
		for _, in := range m.Instances {
			v := Value{Instance: -1}
			if in.Instance != "" {
				id, err := strconv.ParseInt(string(in.Instance), 10, 64)
				if err != nil {
					return nil, err
				}
				v.Instance = id
			}
			switch x := in.Value.(type) {
			case json.Number:
				v.Text = x.String()
			case string:
				v.Text = x
			default:
				continue
			}
			fm.instances = append(fm.instances, v)
		}
		a.values = append(a.values, fm)
	}
	return a, nil
}

// same says two decodings agree, nil and empty slices alike.
func same(a, b *fetchAnswer) bool {
	if a.timestamp != b.timestamp || len(a.values) != len(b.values) {
		return false
	}
	for i := range a.values {
		x, y := a.values[i], b.values[i]
		if x.name != y.name || len(x.instances) != len(y.instances) {
			return false
		}
		if len(x.instances) > 0 && !reflect.DeepEqual(x.instances, y.instances) {
			return false
		}
	}
	return true
}

var fetchSeeds = []string{
	`{"context":1,"timestamp":1795600001.5000000,"values":[{"pmid":"60.0.4","name":"disk.dev.read","instances":[{"instance":0,"value":18446744073709551615},{"instance":1,"value":7}]}]}`,
	`{"timestamp":1.5,"values":[{"name":"a","instances":[{"instance":null,"value":1}]}]}`,
	`{"timestamp":"2.25","values":[{"name":"s","instances":[{"instance":"3","value":"x\u001b[31m\ud83d\ude00\ud800 \\\/"}]}]}`,
	`{"Timestamp":3,"VALUES":[{"Name":"b","instances":[{"value":{"agg":1}},{"value":[1]},{"value":true},{"value":null},{"value":-1.5e300}]}]}`,
	`{"timestamp":4,"values":[null,{"name":null,"instances":null},{"name":"c","instances":[null]}]}`,
	`{"timestamp":5,"values":[{"name":"d","name":"e","instances":[{"instance":1,"instance":null,"value":2}]}],"values2":{"x":[1,{"y":null}]}}`,
	`{"timestamp":6,"values":[{"name":"\xff\xfe","instances":[]}]}`,
	` {"timestamp" : 7 , "values" : [ ] } `,
}

// Issue 14: the fetch reader agrees with encoding/json on what pmproxy writes and more: escapes,
// surrogates, invalid UTF-8, repeated and differently cased members, nulls, values that are not
// numbers or strings, numbers past 2^64.
func TestDecodeFetchAgrees(t *testing.T) {
	for _, s := range fetchSeeds {
		got, err := decodeFetch([]byte(s))
		want, werr := referenceFetch([]byte(s))
		if (err == nil) != (werr == nil) {
			t.Errorf("%s: error %v, encoding/json %v", s, err, werr)
			continue
		}
		if err == nil && !same(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", s, got, want)
		}
	}
	for _, bad := range []string{``, `{`, `{"timestamp":}`, `{"timestamp":01}`, `{"values":[}`, `{"values":{}}`, `[1]`,
		`{"timestamp":1,"values":[{"name":1}]}`, `{"timestamp":"x"}`, `{"a":"\x01"}`, `{"a":tru}`, `{} {}`} {
		if _, err := decodeFetch([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzFetchDecoder checks the fetch reader against encoding/json on any valid JSON (both decode
// it, or both refuse it, and then alike), and that no input makes it panic.
func FuzzFetchDecoder(f *testing.F) {
	for _, s := range fetchSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := decodeFetch([]byte(s))
		if !json.Valid([]byte(s)) {
			return // the reader refuses it or not; it did not panic
		}
		want, werr := referenceFetch([]byte(s))
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, encoding/json %v", s, err, werr)
		}
		if err == nil && !same(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	})
}

// BenchmarkDecodeFetch reads one host's fetch answer (520 values, as a host of 8 processors, 16
// disks and 4 interfaces gives for the mapped metrics), with the reader and with encoding/json.
func BenchmarkDecodeFetch(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"context":1,"timestamp":1795600001.5000000,"values":[`)
	for m := range 104 {
		if m > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(`{"pmid":"60.0.` + strconv.Itoa(m) + `","name":"metric.number.` + strconv.Itoa(m) + `","instances":[`)
		for i := range 5 {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.WriteString(`{"instance":` + strconv.Itoa(i) + `,"value":` + strconv.Itoa(123456789*m+i) + `}`)
		}
		buf.WriteString(`]}`)
	}
	buf.WriteString(`]}`)
	body := buf.Bytes()
	b.Run("reader", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeFetch(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := referenceFetch(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// pmproxy 6.0.3 says a context is gone in two ways: "unknown context identifier" when it forgot
// it (restarted), "expired context identifier" when it was idle past its polltimeout. Both make
// it again; seen with 100 hosts, whose contexts made at the probe were first read 6 s later.
func TestErrExpired(t *testing.T) {
	for msg, want := range map[string]bool{
		"unknown context identifier: 12": true,
		"expired context identifier: 13": true,
		"Unknown metric name":            false,
	} {
		if got := errExpired(&Error{Status: 400, Message: msg}); got != want {
			t.Errorf("%q: %v, want %v", msg, got, want)
		}
	}
	if errExpired(&Error{Status: 500, Message: "expired context identifier: 1"}) {
		t.Error("a server error is not an expired context")
	}
}
