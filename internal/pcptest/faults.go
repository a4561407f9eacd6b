package pcptest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// Hung listens on a free loopback port and accepts every connection without ever answering, as
// a host whose pmcd (or whose whole kernel) has stopped: a client's deadline is all that ends a
// call to it. It returns the address (host:port); everything is closed at the end of the test.
func Hung(t testing.TB) string {
	t.Helper()
	return Serve(t, func(net.Conn) {}).Addr
}

// Relay is a TCP relay on a free loopback port in front of a pmcd (or anything): each connection
// it accepts is relayed to the target, until Cut is called: the next chunk the target sends is
// passed on only in part, and the connection is closed there, in the middle of a PDU.
type Relay struct {
	Addr string // host:port to connect to
	cut  atomic.Bool
	cuts atomic.Int32
	// frozen holds what the target sends until Thaw: a host that stops answering on a
	// connection it keeps.
	frozen atomic.Bool
	thaw   chan struct{}
	mu     sync.Mutex
}

// StartRelay relays to target until the end of the test.
func StartRelay(t testing.TB, target string) *Relay {
	t.Helper()
	r := &Relay{thaw: make(chan struct{})}
	r.Addr = Serve(t, func(c net.Conn) { RelayTo(c, target, r.down) }).Addr
	// Registered after the server's, so run before it: nothing held waits for a Thaw then.
	t.Cleanup(r.Thaw)
	return r
}

// RelayTo relays the connection c to target, a Serve handler's work: what c sends goes up as it
// comes, and down passes on what target answers, closing c when it is done. It returns when both
// ways have ended (c is closed at once when target cannot be reached).
func RelayTo(c net.Conn, target string, down func(c, up net.Conn)) {
	up, err := net.Dial("tcp", target)
	if err != nil {
		c.Close()
		return
	}
	done := make(chan struct{})
	go func() { defer close(done); _, _ = io.Copy(up, c); up.Close() }()
	down(c, up)
	<-done
}

// down copies what the target sends to the client, cutting the connection when asked.
func (r *Relay) down(c, up net.Conn) {
	defer c.Close()
	defer up.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := up.Read(buf)
		for {
			r.mu.Lock()
			frozen, ch := r.frozen.Load(), r.thaw
			r.mu.Unlock()
			if !frozen {
				break
			}
			<-ch
		}
		if n > 0 {
			if r.cut.CompareAndSwap(true, false) {
				// Half of what came, and never more than the PDU's first bytes past its
				// header: the client has begun a PDU it will not see the end of.
				_, _ = c.Write(buf[:max(min(n/2, n-1), 1)])
				r.cuts.Add(1)
				return
			}
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Cut has the next answer the target sends cut in the middle, and its connection closed.
func (r *Relay) Cut() { r.cut.Store(true) }

// Cuts is how many connections have been cut.
func (r *Relay) Cuts() int { return int(r.cuts.Load()) }

// Freeze holds every answer the target sends from now on, the connections kept open, until
// Thaw: a host that stops answering (its pmcd stopped, a network that drops everything) and
// later goes on where it was.
func (r *Relay) Freeze() { r.frozen.Store(true) }

// Thaw passes on what was held and what follows.
func (r *Relay) Thaw() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen.CompareAndSwap(true, false) {
		close(r.thaw)
		r.thaw = make(chan struct{})
	}
}
