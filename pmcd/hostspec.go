package pmcd

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// Ports PCP's daemons listen on by default (libpcp.h, SERVER_PORT and PROXY_PORT).
const (
	DefaultPort      = 44321
	DefaultProxyPort = 44322
)

// Hostspec says where a pmcd is: its host and port, and the pmproxy that relays to it, if any
// (PCPIntro(1), "hostspec": `host`, `host:port`, `host@proxy`, `host:port@proxy:port`; an IPv6
// address in brackets).
type Hostspec struct {
	Host      string
	Port      int
	Proxy     string // empty: connect to pmcd directly
	ProxyPort int
	// Socket is the path of pmcd's Unix domain socket (`unix:PATH`, `local:`): over it pmcd
	// learns the client's user from the kernel (SO_PEERCRED) and its PMDAs serve what that
	// user may read, the proc PMDA every process for root, as pcp-htop reads them (issue 40
	// item 5). Local says `local:`: the socket, else pmcd on localhost's port (Host and Port).
	Socket string
	Local  bool
}

// DefaultSocket is where pmcd listens on its Unix domain socket as PCP installs it
// ($PCP_RUN_DIR/pmcd.socket).
const DefaultSocket = "/run/pcp/pmcd.socket"

// ParseHostspec reads a hostspec. `unix:PATH` is pmcd's Unix domain socket at PATH (`unix:`
// alone, PCP's own), and `local:` (or `local:PATH`) that socket or, when it cannot be
// reached, pmcd on localhost, as PCPIntro(1) says. What PCP's hostspecs allow beyond these and
// one pmcd reached directly or through one pmproxy (several ports, attributes after `?`) is
// refused with the reason.
func ParseHostspec(s string) (Hostspec, error) {
	if rest, ok := strings.CutPrefix(s, "unix:"); ok {
		return socketSpec(s, rest, false)
	}
	if rest, ok := strings.CutPrefix(s, "local:"); ok {
		return socketSpec(s, rest, true)
	}
	if strings.ContainsAny(s, "?/ \t\n") {
		return Hostspec{}, fmt.Errorf("hostspec %q: only host, host:port, host@proxy, unix:PATH and local: are spoken here (no attributes)", s)
	}
	target, proxy, viaProxy := strings.Cut(s, "@")
	var h Hostspec
	var err error
	if h.Host, h.Port, err = hostPort(target, DefaultPort); err != nil {
		return Hostspec{}, fmt.Errorf("hostspec %q: %w", s, err)
	}
	if viaProxy {
		if strings.Contains(proxy, "@") {
			return Hostspec{}, fmt.Errorf("hostspec %q: one proxy at most", s)
		}
		if h.Proxy, h.ProxyPort, err = hostPort(proxy, DefaultProxyPort); err != nil {
			return Hostspec{}, fmt.Errorf("hostspec %q: the proxy: %w", s, err)
		}
	}
	return h, nil
}

// socketSpec is the hostspec s of pmcd's Unix domain socket at path (its default when ""),
// local when s is `local:`.
func socketSpec(s, path string, local bool) (Hostspec, error) {
	if path == "" {
		path = DefaultSocket
	}
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?@ \t\n") {
		return Hostspec{}, fmt.Errorf("hostspec %q: a Unix socket is an absolute path (unix:/run/pcp/pmcd.socket), without attributes", s)
	}
	h := Hostspec{Socket: path, Local: local}
	if local {
		h.Host, h.Port = "localhost", DefaultPort
	}
	return h, nil
}

// hostPort splits host[:port] ([v6addr][:port], or a bare IPv6 address).
func hostPort(s string, def int) (string, int, error) {
	if s == "" {
		return "", 0, fmt.Errorf("no host")
	}
	host, port := s, ""
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("%q has no closing ]", s)
		}
		host, port = s[1:end], s[end+1:]
		if port != "" {
			if port[0] != ':' {
				return "", 0, fmt.Errorf("%q: something other than :port after ]", s)
			}
			port = port[1:]
		}
	case strings.Count(s, ":") == 1:
		host, port, _ = strings.Cut(s, ":")
	case strings.Count(s, ":") > 1: // a bare IPv6 address, port by default
		if net.ParseIP(s) == nil {
			return "", 0, fmt.Errorf("%q is neither host:port nor an IPv6 address", s)
		}
	}
	if host == "" {
		return "", 0, fmt.Errorf("no host in %q", s)
	}
	if port == "" {
		if strings.HasSuffix(s, ":") {
			return "", 0, fmt.Errorf("an empty port in %q", s)
		}
		return host, def, nil
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, fmt.Errorf("port %q is not a number from 1 to 65535", port)
	}
	return host, n, nil
}

// PMCDAddr is the pmcd's address for net.Dial.
func (h Hostspec) PMCDAddr() string { return net.JoinHostPort(h.Host, strconv.Itoa(h.Port)) }

// ProxyAddr is the pmproxy's address for net.Dial, or "".
func (h Hostspec) ProxyAddr() string {
	if h.Proxy == "" {
		return ""
	}
	return net.JoinHostPort(h.Proxy, strconv.Itoa(h.ProxyPort))
}

// String is the hostspec written out whole: host:port, host:port@proxy:port, unix:PATH or
// local:PATH.
func (h Hostspec) String() string {
	switch {
	case h.Local:
		return "local:" + h.Socket
	case h.Socket != "":
		return "unix:" + h.Socket
	case h.Proxy == "":
		return h.PMCDAddr()
	}
	return h.PMCDAddr() + "@" + h.ProxyAddr()
}
