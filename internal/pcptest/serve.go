package pcptest

import (
	"net"
	"sync"
	"testing"
)

// Server is a listener on a free loopback port that hands each connection to a handler of its
// own: the fake daemons, relays and hung hosts of the tests are each one.
type Server struct {
	Addr   string // host:port to connect to
	l      net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
	wg     sync.WaitGroup
}

// Serve listens on a free loopback port and runs handle, in a goroutine of its own, for every
// connection made to it, until Close or the end of the test.
func Serve(t testing.TB, handle func(c net.Conn)) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: l.Addr().String(), l: l}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			if s.closed {
				s.mu.Unlock()
				c.Close()
				return
			}
			s.conns = append(s.conns, c)
			s.wg.Add(1)
			s.mu.Unlock()
			go func() { defer s.wg.Done(); handle(c) }()
		}
	}()
	t.Cleanup(s.Close)
	return s
}

// Close stops listening, closes every connection the server accepted and waits for their
// handlers to return. Closing again does nothing more.
func (s *Server) Close() {
	s.l.Close()
	s.mu.Lock()
	conns := s.conns
	s.conns, s.closed = nil, true
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	s.wg.Wait()
}
