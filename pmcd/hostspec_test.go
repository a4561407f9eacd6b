package pmcd

import "testing"

// Hostspecs as PCPIntro(1) writes them: host, host:port, host@proxy, IPv6 in brackets; what
// this client does not speak is refused with the reason.
func TestParseHostspec(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Hostspec
		str  string
	}{
		{"db1", Hostspec{Host: "db1", Port: 44321}, "db1:44321"},
		{"db1:4000", Hostspec{Host: "db1", Port: 4000}, "db1:4000"},
		{"db1@gw", Hostspec{Host: "db1", Port: 44321, Proxy: "gw", ProxyPort: 44322}, "db1:44321@gw:44322"},
		{"10.0.0.5:4000@gw:9000", Hostspec{Host: "10.0.0.5", Port: 4000, Proxy: "gw", ProxyPort: 9000}, "10.0.0.5:4000@gw:9000"},
		{"[::1]:4000", Hostspec{Host: "::1", Port: 4000}, "[::1]:4000"},
		{"[fe80::1]", Hostspec{Host: "fe80::1", Port: 44321}, "[fe80::1]:44321"},
		{"::1", Hostspec{Host: "::1", Port: 44321}, "[::1]:44321"},
		// Issue 40 item 5: pmcd's Unix domain socket, PCP's own or a private pmcd's, and local:
		// (the socket, else localhost).
		{"unix:", Hostspec{Socket: DefaultSocket}, "unix:/run/pcp/pmcd.socket"},
		{"unix:/tmp/p/pmcd.socket", Hostspec{Socket: "/tmp/p/pmcd.socket"}, "unix:/tmp/p/pmcd.socket"},
		{"local:", Hostspec{Host: "localhost", Port: 44321, Socket: DefaultSocket, Local: true}, "local:/run/pcp/pmcd.socket"},
		{"local:/tmp/s", Hostspec{Host: "localhost", Port: 44321, Socket: "/tmp/s", Local: true}, "local:/tmp/s"},
	} {
		got, err := ParseHostspec(c.in)
		if err != nil || got != c.want || got.String() != c.str {
			t.Errorf("%q: %+v %q %v, want %+v %q", c.in, got, got.String(), err, c.want, c.str)
		}
	}
	for _, bad := range []string{"", ":4000", "db1:", "db1:0", "db1:70000", "db1:http", "a@b@c", "db1@", "unix:run/pcp/pmcd.socket", "unix:/s?compress", "local:/s@gw", "db1/x",
		"db1?compress", "[::1", "[::1]x", "db1:1,2", "a:b:c"} {
		if h, err := ParseHostspec(bad); err == nil {
			t.Errorf("%q taken as %+v", bad, h)
		}
	}
}
