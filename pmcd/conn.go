// Package pmcd is a client of Performance Co-Pilot's native protocol: the PDUs pmcd speaks on
// port 44321 (and pmproxy relays for host@proxy hostspecs), as pmval, pmrep, pmlogger and
// pcp-htop speak it through libpcp, written here by hand (no Go library for it exists).
//
// A Conn is one connection to one pmcd: Dial makes it (the proxy's negotiation, pmcd's
// greeting, the client's credentials), and its methods ask for the name space (names to
// pmids, children, traversal), descriptors, instance domains, help texts, labels and values.
// Every call runs under its context: the connection's deadlines are the context's, and a
// cancelled context ends a read at once. Every PDU is bounded (MaxPDU by default) before
// anything is allocated for it.
//
// A Conn is used by one goroutine at a time; a call made while another is running fails with
// ErrBusy rather than mixing their PDUs. Close may be called from any goroutine, and ends a
// call that is waiting for pmcd.
//
// Errors are *Error: the endpoint, what was being done, and why: one of PCP's codes with its
// text (errors.Is(err, pcpwire.ErrName)), a PDU that breaks the protocol (pcpwire.ErrIPC), the
// deadline (pcpwire.ErrTimeout and the context's error), or the network's error. After
// anything but an error code pmcd sent, the connection is broken: every later call fails at
// once, and the caller dials again.
//
// Through pmproxy, the pmcd is named by an IPv4 address: pmproxy 6 takes nothing else, and
// takes a name for its own host, so a name is resolved here first (relayAddr).
//
// What is not spoken: TLS and SASL authentication. A pmcd that requires either is reported
// (ErrNeedsTLS, ErrNeedsAuth) with the way round it: pmproxy's REST API, whose HTTP can carry
// both (`--source pcp://PROXY`). The package imports nothing of dcimon's but pcpwire.
package pmcd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dcimon/pcpwire"
)

// Error is a failed call: where, what, and why.
type Error struct {
	Endpoint string // the hostspec, host:port or host:port@proxy:port
	Op       string // what was being done: "connect", "fetch", "lookup names", …
	Err      error
}

func (e *Error) Error() string { return "pmcd " + e.Endpoint + ": " + e.Op + ": " + e.Err.Error() }

// Unwrap gives the cause.
func (e *Error) Unwrap() error { return e.Err }

// The ways a connection is refused or lost that are not PCP error codes.
var (
	// ErrNeedsAuth: pmcd requires SASL authentication, which this client does not speak.
	ErrNeedsAuth = errors.New("pmcd requires authentication (SASL), which dcimon's native client does not speak; " +
		"read this host through pmproxy's REST API instead: --source pcp://PROXY --hosts HOST")
	// ErrNeedsTLS: pmcd requires a TLS client certificate, or speaks only TLS.
	ErrNeedsTLS = errors.New("pmcd requires TLS (a secure connection or a client certificate), which dcimon's native client does not speak; " +
		"read this host through pmproxy's REST API instead: --source pcp://PROXY (or pcps://PROXY) --hosts HOST")
	// ErrBusy: a call was made while another was running on the same connection.
	ErrBusy = errors.New("the connection is in use by another call (one goroutine at a time)")
	// ErrBroken is wrapped by every call after the connection was lost.
	ErrBroken = errors.New("the connection was lost earlier; dial again")
)

// Options tune a connection; the zero value is PCP's defaults.
type Options struct {
	// MaxPDU bounds every PDU read: pcpwire.MaxPDU (64 MiB, libpcp's) when 0.
	MaxPDU int
}

// Conn is a connection to one pmcd. See the package comment for its rules.
type Conn struct {
	spec     Hostspec
	endpoint string
	relayTo  string // the pmcd's IPv4 address, for pmproxy
	nc       net.Conn
	br       *bufio.Reader
	rd       *pcpwire.Reader
	greeting pcpwire.Greeting

	busy   atomic.Bool
	closed atomic.Bool
	dlMu   sync.Mutex // orders a call's deadline against a late cancellation of the one before
	armed  uint64     // calls armed so far
	broken error      // the error that broke the connection

	profile     pcpwire.Profile
	profileSent bool

	wbuf []byte   // the request being written, reused
	ids  []uint32 // scratch for answers, reused
}

// context number this client uses for its one context on pmcd (libpcp numbers its contexts;
// pmcd keeps a profile per number).
const ctxNum = 0

// proxyHello and proxyAnswer are the lines that open a conversation with pmproxy's relay
// (libpcp's connect.c): the client's version, pmproxy's, then the client's "host port".
const (
	proxyHello  = "pmproxy-client 1\n"
	proxyAnswer = "pmproxy-server 1"
)

// Dial connects to the pmcd of hostspec (host, host:port, host@proxy), under ctx.
func Dial(ctx context.Context, hostspec string, o Options) (*Conn, error) {
	h, err := ParseHostspec(hostspec)
	if err != nil {
		return nil, &Error{Endpoint: hostspec, Op: "connect", Err: err}
	}
	return DialSpec(ctx, h, o)
}

// DialSpec connects to the pmcd of h, under ctx: through its pmproxy when it names one, then
// pmcd's greeting and the client's credentials.
func DialSpec(ctx context.Context, h Hostspec, o Options) (*Conn, error) {
	c := &Conn{spec: h, endpoint: h.String()}
	addr := h.PMCDAddr()
	if h.Proxy != "" {
		addr = h.ProxyAddr()
	}
	if h.Proxy != "" {
		ip, err := relayAddr(ctx, h.Host)
		if err != nil {
			return nil, &Error{Endpoint: c.endpoint, Op: "connect", Err: err}
		}
		c.relayTo = ip
	}
	var d net.Dialer
	var nc net.Conn
	var err error
	switch {
	case h.Socket != "":
		// pmcd's Unix domain socket: it learns the client's user from the kernel, so the
		// proc PMDA serves this user's processes (every process for root) without -A.
		nc, err = d.DialContext(ctx, "unix", h.Socket)
		if err != nil && h.Local && ctx.Err() == nil {
			var err2 error
			if nc, err2 = d.DialContext(ctx, "tcp", addr); err2 != nil {
				err = fmt.Errorf("%w; and localhost: %w", err, err2)
			} else {
				err = nil
			}
		}
	default:
		nc, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, c.fail("connect", err, ctx)
	}
	c.nc = nc
	// 4 KB: a fetch's answer larger than that is read past the buffer, in as many reads as
	// with a larger one; a fleet's connections each keep it (issue 38).
	c.br = bufio.NewReaderSize(nc, 4<<10)
	c.rd = pcpwire.NewReader(c.br, o.MaxPDU)
	stop := c.arm(ctx)
	err = c.handshake()
	if stop != nil {
		stop()
	}
	if err != nil {
		nc.Close()
		return nil, c.fail("connect", err, ctx)
	}
	return c, nil
}

// relayAddr is the address pmproxy is asked to relay to for host. pmproxy 6 takes only an
// IPv4 address there (pcp.c hands the text to uv_ip4_addr); given a name, it connects to
// 0.0.0.0, its own host, and answers as if it were the host asked for (seen with 6.0.3). So a
// name is resolved here, and an IPv6 address refused.
func relayAddr(ctx context.Context, host string) (string, error) {
	if ip := net.ParseIP(host); ip != nil {
		if ip.To4() == nil {
			return "", fmt.Errorf("pmproxy relays only to IPv4 addresses, not %s", host)
		}
		return ip.String(), nil
	}
	ips, err := net.DefaultResolver.LookupIP(ctx, "ip4", host)
	if err != nil || len(ips) == 0 {
		return "", fmt.Errorf("pmproxy relays only to IPv4 addresses (a name it would take for its own host), and %s has none here: give its address (%v)", host, err)
	}
	return ips[0].String(), nil
}

// handshake does the proxy's negotiation, reads pmcd's greeting and sends the credentials.
func (c *Conn) handshake() error {
	if c.spec.Proxy != "" {
		if _, err := io.WriteString(c.nc, proxyHello); err != nil {
			return err
		}
		line, err := c.line(64)
		if err != nil {
			return fmt.Errorf("pmproxy %s did not answer as PCP's relay (%w)", c.spec.ProxyAddr(), err)
		}
		if line != proxyAnswer {
			return fmt.Errorf("pmproxy %s answered %q, not %q: is it pmproxy?", c.spec.ProxyAddr(), line, proxyAnswer)
		}
		if _, err := fmt.Fprintf(c.nc, "%s %d\n", c.relayTo, c.spec.Port); err != nil {
			return err
		}
	}
	if err := c.notPCP(); err != nil {
		return err
	}
	hd, body, err := c.rd.Next()
	if err != nil {
		if errors.Is(err, io.EOF) {
			if c.spec.Proxy != "" {
				return fmt.Errorf("pmproxy %s closed the connection before pmcd %s greeted: pmproxy could not reach it "+
					"(is a pmcd listening there?): %w", c.spec.ProxyAddr(), net.JoinHostPort(c.relayTo, strconv.Itoa(c.spec.Port)), pcpwire.ErrEOF)
			}
			return fmt.Errorf("closed before its first PDU: pmcd's access control may refuse this host: %w", pcpwire.ErrEOF)
		}
		return err
	}
	if hd.Type != pcpwire.TypeError {
		return &pcpwire.ProtocolError{PDU: hd.Type, Msg: "the first PDU is not pmcd's greeting"}
	}
	g, err := pcpwire.DecodeGreeting(body)
	if err != nil {
		return err
	}
	c.greeting = g
	switch {
	case g.Status < 0:
		return fmt.Errorf("refused: %w", g.Status)
	case g.Version != pcpwire.ProtocolVersion:
		return &pcpwire.ProtocolError{PDU: hd.Type, Offset: pcpwire.HeaderLen + 4,
			Msg: fmt.Sprintf("protocol version %d (this client speaks %d)", g.Version, pcpwire.ProtocolVersion)}
	case g.Features&pcpwire.FeatureCredsReqd != 0:
		return ErrNeedsAuth
	case g.Features&pcpwire.FeatureCertReqd != 0 && !strings.Contains(c.spec.Host, "localhost") && c.spec.Socket == "":
		// libpcp too lets a local connection through without a certificate.
		return ErrNeedsTLS
	}
	c.wbuf = pcpwire.AppendCreds(c.wbuf[:0], int32(os.Getpid()), 0)
	_, err = c.nc.Write(c.wbuf)
	return err
}

// notPCP recognises a peer that speaks something else at once (TLS, HTTP, SSH) and says so.
func (c *Conn) notPCP() error {
	b, err := c.br.Peek(4)
	if err != nil {
		return nil // the reader says what went wrong
	}
	switch {
	case (b[0] == 0x15 || b[0] == 0x16) && b[1] == 3:
		return fmt.Errorf("the peer speaks TLS: %w", ErrNeedsTLS)
	case bytes.HasPrefix(b, []byte("HTTP")):
		return fmt.Errorf("the peer speaks HTTP, not PCP's protocol: is this pmproxy's REST port? (then use --source pcp://%s): %w", c.spec.PMCDAddr(), pcpwire.ErrIPC)
	case bytes.HasPrefix(b, []byte("SSH-")):
		return fmt.Errorf("the peer speaks SSH, not PCP's protocol: %w", pcpwire.ErrIPC)
	}
	return nil
}

// line reads one line of at most max bytes (the proxy's answer).
func (c *Conn) line(max int) (string, error) {
	var b []byte
	for len(b) < max {
		ch, err := c.br.ReadByte()
		if err != nil {
			return string(b), err
		}
		if ch == '\n' {
			return strings.TrimSuffix(string(b), "\r"), nil
		}
		b = append(b, ch)
	}
	return string(b), fmt.Errorf("a line longer than %d bytes", max)
}

// Endpoint is the hostspec the connection was made to, written out whole.
func (c *Conn) Endpoint() string { return c.endpoint }

// Features are the features pmcd offered (pcpwire.Feature*).
func (c *Conn) Features() uint16 { return c.greeting.Features }

// Close closes the connection; a call waiting for pmcd then fails at once. It may be called
// from any goroutine, and more than once.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.nc.Close()
}

// longAgo is a deadline in the past: setting it ends a read or write waiting now.
var longAgo = time.Unix(1, 0)

// arm sets the connection's deadline from ctx, and ends the I/O at once if ctx is cancelled
// before the call is done (stop undoes that; nil when ctx can never be cancelled). A
// cancellation that comes as the call ends must not cut the next call short: the watch knows
// its call by number, and does nothing once another call has armed.
func (c *Conn) arm(ctx context.Context) (stop func() bool) {
	dl, _ := ctx.Deadline() // the zero time, no deadline, when it has none
	c.dlMu.Lock()
	c.armed++
	n := c.armed
	_ = c.nc.SetDeadline(dl)
	c.dlMu.Unlock()
	if ctx.Done() == nil {
		return nil
	}
	return context.AfterFunc(ctx, func() {
		c.dlMu.Lock()
		if c.armed == n {
			_ = c.nc.SetDeadline(longAgo)
		}
		c.dlMu.Unlock()
	})
}

// Broken says the connection is of no more use: an error broke it (anything but a code pmcd
// sent, a deadline among them), or it was closed. The caller dials again. Like the calls, it is
// for the goroutine that makes them.
func (c *Conn) Broken() bool { return c.closed.Load() || c.broken != nil }

// begin starts a call: one at a time, on a connection still whole.
func (c *Conn) begin(ctx context.Context, op string) (stop func() bool, err error) {
	if !c.busy.CompareAndSwap(false, true) {
		return nil, &Error{Endpoint: c.endpoint, Op: op, Err: ErrBusy}
	}
	switch {
	case c.closed.Load():
		err = net.ErrClosed
	case c.broken != nil:
		err = fmt.Errorf("%w: %w", ErrBroken, c.broken)
	default:
		err = ctx.Err()
	}
	if err != nil {
		c.busy.Store(false)
		return nil, &Error{Endpoint: c.endpoint, Op: op, Err: err}
	}
	return c.arm(ctx), nil
}

func (c *Conn) end(stop func() bool) {
	if stop != nil {
		stop()
	}
	c.busy.Store(false)
}

// fail makes the error of a call. Anything but a code pmcd sent breaks the connection: the
// conversation's place is lost.
func (c *Conn) fail(op string, err error, ctx context.Context) error {
	var code pcpwire.Code
	if errors.As(err, &code) && !errors.Is(err, pcpwire.ErrIPC) && !errors.Is(err, pcpwire.ErrTooBig) {
		return &Error{Endpoint: c.endpoint, Op: op, Err: err}
	}
	switch {
	case c.closed.Load():
		err = fmt.Errorf("the connection was closed: %w", err)
	case ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded):
		cause := ctx.Err()
		if cause == nil { // the connection's deadline, the context's, came first
			cause = context.DeadlineExceeded
		}
		err = fmt.Errorf("no answer in time: %w (%w): %w", pcpwire.ErrTimeout, cause, err)
	case errors.Is(err, io.EOF):
		err = fmt.Errorf("pmcd closed the connection: %w", pcpwire.ErrEOF)
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("pmcd closed the connection in the middle of a PDU: %w", err)
	}
	if c.broken == nil {
		c.broken = err
	}
	return &Error{Endpoint: c.endpoint, Op: op, Err: err}
}

// send writes the request in c.wbuf.
func (c *Conn) send() error {
	_, err := c.nc.Write(c.wbuf)
	if cap(c.wbuf) > maxKeptRequest {
		// A long request (the names of a host's metrics, once a connection) is not kept for a
		// fetch's few hundred bytes (issue 38: 5 KB a host of a fleet).
		c.wbuf = nil
	}
	return err
}

// maxKeptRequest is the largest request buffer a connection keeps between requests: a fetch of
// a thousand metrics.
const maxKeptRequest = 4 << 10

// receive reads the answer to a request: a PDU of type want, or pmcd's error code. Positive
// codes before it (state changes, PCPF-13) are gathered in changes when the request is a fetch.
func (c *Conn) receive(want pcpwire.Type, changes *int32) ([]byte, error) {
	for {
		h, body, err := c.rd.Next()
		if err != nil {
			return nil, err
		}
		switch h.Type {
		case want:
			return body, nil
		case pcpwire.TypeError:
			code, err := pcpwire.DecodeError(body)
			if err != nil {
				return nil, err
			}
			if code > 0 && changes != nil {
				*changes |= int32(code)
				continue
			}
			if code >= 0 {
				return nil, &pcpwire.ProtocolError{PDU: h.Type, Offset: pcpwire.HeaderLen, Msg: fmt.Sprintf("status %d where an answer (%s) or an error was due", code, want)}
			}
			return nil, code
		}
		return nil, &pcpwire.ProtocolError{PDU: h.Type, Msg: fmt.Sprintf("a %s PDU where %s was due", h.Type, want)}
	}
}

// call sends the request in c.wbuf and reads its answer.
func (c *Conn) call(ctx context.Context, op string, want pcpwire.Type) ([]byte, error) {
	if err := c.send(); err != nil {
		return nil, c.fail(op, err, ctx)
	}
	body, err := c.receive(want, nil)
	if err != nil {
		return nil, c.fail(op, err, ctx)
	}
	return body, nil
}
