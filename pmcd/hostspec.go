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
}

// ParseHostspec reads a hostspec. What PCP's hostspecs allow beyond one pmcd reached directly
// or through one pmproxy (several ports, Unix sockets, attributes after `?`) is refused with
// the reason.
func ParseHostspec(s string) (Hostspec, error) {
	if strings.ContainsAny(s, "?/ \t\n") || strings.HasPrefix(s, "local:") || strings.HasPrefix(s, "unix:") {
		return Hostspec{}, fmt.Errorf("hostspec %q: only host, host:port and host@proxy are spoken here (no Unix sockets or attributes)", s)
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

// String is the hostspec written out whole: host:port, or host:port@proxy:port.
func (h Hostspec) String() string {
	if h.Proxy == "" {
		return h.PMCDAddr()
	}
	return h.PMCDAddr() + "@" + h.ProxyAddr()
}
