// Package pmproxy is a client of Performance Co-Pilot's pmproxy REST API (`/pmapi/*`), the
// way dcimon reads remote hosts (issue 14): contexts on any pmcd pmproxy can reach, metric
// descriptors, instance domains, the name space's children, and fetches with u64 values kept
// exact. No maintained Go client exists; this one is small and speaks only what dcimon needs.
//
// Every request carries the caller's context (its deadline bounds the request), answers are
// bounded in size, and a pmproxy context that expired (pmproxy forgets one idle longer than its
// polltimeout) is created again transparently: Context.Generation tells the caller, which must
// not compute a rate across it. It imports nothing of dcimon's.
package pmproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultPort is pmproxy's port.
const DefaultPort = 44322

// maxBody bounds one answer: a fetch of every metric of a large host stays well below it.
const maxBody = 32 << 20

// Client talks to one pmproxy.
type Client struct {
	base *url.URL // scheme, host and port; never the password
	user string
	pass string
	hc   *http.Client
	// slots bounds the requests in flight to one pmproxy (MaxInFlight): each host's context
	// asks one thing at a time (its caller holds it), and many hosts ask at once, so a host
	// that accepts and never answers holds one slot until its own deadline and starves no
	// other host (issue 31). A request waits for a slot at most its caller's deadline.
	slots chan struct{}
}

// MaxInFlight is how many requests a Client has in flight to its pmproxy at most: enough that a
// few hosts that hang do not hold up the rest of a fleet, few enough that a pmproxy of a
// thousand hosts is not flooded.
const MaxInFlight = 32

// Options configure a Client.
type Options struct {
	// Password is the password of the URL's user (`pcp://user@host`); it is never taken from the
	// URL itself, so it never shows on a command line.
	Password string
	// Transport is the HTTP transport; a default with short dial and header timeouts when nil.
	Transport http.RoundTripper
}

// ParseURL reads `pcp://[user@]host[:port]` (HTTP) or `pcps://[user@]host[:port]` (HTTPS); the
// port is 44322 when not given. A password in the URL is refused: it would show in `ps`.
func ParseURL(raw string) (*url.URL, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("pmproxy URL %q: %w", raw, err)
	}
	scheme := ""
	switch u.Scheme {
	case "pcp", "http":
		scheme = "http"
	case "pcps", "https":
		scheme = "https"
	default:
		return nil, "", fmt.Errorf("pmproxy URL %q: want pcp://HOST[:PORT] or pcps://HOST[:PORT]", raw)
	}
	if u.Host == "" {
		return nil, "", fmt.Errorf("pmproxy URL %q: no host", raw)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, "", fmt.Errorf("pmproxy URL %q: a host and port only, no path or query", raw)
	}
	user := ""
	if u.User != nil {
		if _, set := u.User.Password(); set {
			return nil, "", fmt.Errorf("pmproxy URL: a password in the URL would show in the process list; give it in DCIMON_PCP_PASSWORD or a file")
		}
		user = u.User.Username()
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), strconv.Itoa(DefaultPort))
	}
	return &url.URL{Scheme: scheme, Host: host}, user, nil
}

// New returns a client of the pmproxy at raw (see ParseURL).
func New(raw string, opt Options) (*Client, error) {
	base, user, err := ParseURL(raw)
	if err != nil {
		return nil, err
	}
	tr := opt.Transport
	if tr == nil {
		tr = &http.Transport{
			DialContext:           (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
			TLSHandshakeTimeout:   2 * time.Second,
			ResponseHeaderTimeout: 5 * time.Second,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       60 * time.Second,
			// A fetch answer of a large host is tens of kilobytes: read it in a few system
			// calls rather than many of 4 KB. pmproxy does not compress.
			ReadBufferSize:     64 << 10,
			DisableCompression: true,
		}
	}
	return &Client{base: base, user: user, pass: opt.Password, hc: &http.Client{Transport: tr}, slots: make(chan struct{}, MaxInFlight)}, nil
}

// URL is the pmproxy's address as the user gives it (`pcp://` or `pcps://`, user, host and
// port), never with a password.
func (c *Client) URL() string {
	u := *c.base
	u.Scheme = "pcp"
	if c.base.Scheme == "https" {
		u.Scheme = "pcps"
	}
	if c.user != "" {
		u.User = url.User(c.user)
	}
	return u.String()
}

// ErrTooBig is wrapped by the error of an answer larger than its bound.
var ErrTooBig = errors.New("answer too big")

// Error is an answer of pmproxy's that says no: its HTTP status and message ("cannot connect to
// PMCD: Connection refused", "unknown context identifier: 12").
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("pmproxy: HTTP %d", e.Status)
	}
	return "pmproxy: " + e.Message
}

// errExpired says the context is gone from pmproxy: "unknown context identifier" after pmproxy
// restarted or forgot it, "expired context identifier" when it was idle past its polltimeout
// (pmproxy 6.0.3 says either). It is created again.
func errExpired(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusBadRequest &&
		(strings.Contains(e.Message, "unknown context identifier") || strings.Contains(e.Message, "expired context identifier"))
}

// get calls path with query and decodes the JSON answer into out. A number is kept as its text
// (json.Number), so u64 counters above 2^53 stay exact.
func (c *Client) get(ctx context.Context, path string, q url.Values, out any) error {
	body, err := c.body(ctx, path, q, nil)
	if err != nil {
		return err
	}
	return c.decode(path, body, out)
}

// decode reads an answer of path into out, numbers kept as their text.
func (c *Client) decode(path string, body []byte, out any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(out); err != nil {
		return fmt.Errorf("pmproxy %s: %s: %w", c.URL(), path, err)
	}
	return nil
}

// body calls path with query and returns the answer of a success; any other status is an
// *Error with pmproxy's message. The answer is read into buf (emptied first) when it is not
// nil, and is then valid until buf is used again.
func (c *Client) body(ctx context.Context, path string, q url.Values, buf *bytes.Buffer) ([]byte, error) {
	return c.request(ctx, path, q, buf, maxBody)
}

// request is body with a bound on the answer's size.
func (c *Client) request(ctx context.Context, path string, q url.Values, buf *bytes.Buffer, limit int) ([]byte, error) {
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	err := c.do(ctx, path, q, func(resp *http.Response) error {
		// Read into a buffer of the announced size: a fetch of a large host is 100 KB, and
		// growing to it by doubling costs more than decoding it.
		buf.Reset()
		if n := resp.ContentLength; n > 0 && n <= int64(limit) {
			buf.Grow(int(n) + bytes.MinRead)
		}
		return c.readBody(path, resp.Body, buf, limit)
	})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readBody reads an answer's body into buf, limit bytes at most.
func (c *Client) readBody(path string, body io.Reader, buf *bytes.Buffer, limit int) error {
	if _, err := buf.ReadFrom(io.LimitReader(body, int64(limit)+1)); err != nil {
		return fmt.Errorf("pmproxy %s: %w", c.URL(), err)
	}
	if buf.Len() > limit {
		return fmt.Errorf("pmproxy %s: %s: %w: more than %d bytes", c.URL(), path, ErrTooBig, limit)
	}
	return nil
}

// do calls path with query and hands read the answer of a success (HTTP 200), the body open;
// any other status is an *Error with pmproxy's message (its body bounded by maxBody).
func (c *Client) do(ctx context.Context, path string, q url.Values, read func(*http.Response) error) error {
	u := *c.base
	u.Path = path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	if c.user != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		return fmt.Errorf("pmproxy %s: waiting for one of %d requests in flight: %w", c.URL(), MaxInFlight, ctx.Err())
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said once, by the caller
		}
		return fmt.Errorf("pmproxy %s: %w", c.URL(), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return read(resp)
	}
	var buf bytes.Buffer
	if err := c.readBody(path, resp.Body, &buf, maxBody); err != nil {
		return err
	}
	if strings.HasPrefix(path, "/series/") {
		// pmproxy 6.0.3 follows a /series failure (its key-value server down) with a second
		// answer nobody asked for: the connection is not used again, or Go's transport would
		// read that as the next request's answer, or log it.
		resp.Body.Close()
		c.hc.CloseIdleConnections()
	}
	var e struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(buf.Bytes(), &e)
	if e.Message == "" && resp.StatusCode == http.StatusUnauthorized {
		e.Message = "authentication failed (user " + c.user + ")"
	}
	return &Error{Status: resp.StatusCode, Message: e.Message}
}
