package headless

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseHosts(t *testing.T) {
	files := map[string]string{"fleet.txt": "# the web tier\nweb1\nweb2:44321  # a second pmcd\n\ndb=10.0.0.5:44321\n"}
	read := func(f string) ([]byte, error) {
		if s, ok := files[f]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	for in, want := range map[string]string{
		"":                  "localhost=localhost",
		"web1":              "web1=web1",
		"web1,db1:44321":    "web1=web1 db1:44321=db1:44321",
		"db=10.0.0.5:44321": "db=10.0.0.5:44321",
		"@fleet.txt,extra":  "web1=web1 web2:44321=web2:44321 db=10.0.0.5:44321 extra=extra",
		// Issue 40 item 5: a socket's path is no host name.
		"unix:/tmp/p/pmcd.socket":    "local=unix:/tmp/p/pmcd.socket",
		"local:,db=unix:/s/p.socket": "local=local: db=unix:/s/p.socket",
	} {
		hs, err := ParseHosts(in, read)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		var got []string
		for _, h := range hs {
			got = append(got, h.Name+"="+h.Spec)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: %v, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"web1,web1":    "two hosts named",
		"a/b=web1":     "host name",
		"=web1":        "want HOSTSPEC",
		"@missing.txt": "no such file",
		",":            "want HOSTSPEC",
	} {
		if _, err := ParseHosts(in, read); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// Issue 38's budget is a fleet of 10,000 hosts: as many are taken, one more is refused.
func TestParseHostsLimit(t *testing.T) {
	var b strings.Builder
	for i := range MaxHosts + 1 {
		fmt.Fprintf(&b, "web%05d=127.0.0.1:44321\n", i)
	}
	all := b.String()
	last := strings.LastIndex(all[:len(all)-1], "\n") + 1
	read := func(f string) ([]byte, error) {
		if f == "many" {
			return []byte(all[:last]), nil
		}
		return []byte(all), nil
	}
	if hs, err := ParseHosts("@many", read); err != nil || len(hs) != MaxHosts || MaxHosts < 10000 {
		t.Errorf("%d hosts: %d, %v", MaxHosts, len(hs), err)
	}
	if _, err := ParseHosts("@toomany", read); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("%d hosts: %v, want refused", MaxHosts+1, err)
	}
}
