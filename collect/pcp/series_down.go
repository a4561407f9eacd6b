package pcp

import (
	"context"
	"sync"
	"time"
)

// When pmproxy or its key-value server stops answering after the start, pmproxy 6.0.3 answers
// some /series requests with HTTP 500 and leaves others unanswered until their deadline: a
// reading of a dozen metrics asked one after the other took a minute, the monitor's screen
// standing still (issue 40 item 7). So the first failure that Diagnose words as pmproxy or its
// server being down opens a breaker: for seriesDownFor every request fails at once with those
// words, and then one is let through, under a short deadline, to see whether they are back; the
// readings meanwhile say why each host has no values, and the first that succeeds reads on.

// seriesDownFor is how long the series are taken as down before a request tries again, and
// seriesProbe the deadline of the requests that try (a short one: pmproxy leaves a request to
// a stopped key-value server unanswered).
const (
	seriesDownFor = 5 * time.Second
	seriesProbe   = 2 * time.Second
	seriesProbing = 30 * time.Second // how long after a breaker the short deadline holds
)

// seriesBreaker is the series' state of being down.
type seriesBreaker struct {
	mu    sync.Mutex
	until time.Time // requests fail at once until then
	err   error     // with these words
}

// down is the error the series are down with, while they are taken as down.
func (b *seriesBreaker) down(now time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil && now.Before(b.until) {
		return b.err
	}
	return nil
}

// probing says a breaker opened lately: requests try under the short deadline.
func (b *seriesBreaker) probing(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err != nil && now.Before(b.until.Add(seriesProbing))
}

// open takes the series as down, with err's words, for seriesDownFor.
func (b *seriesBreaker) open(now time.Time, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.until, b.err = now.Add(seriesDownFor), err
}

// diagnose words a failed request as pmproxy.Client.Diagnose does, once: while the series are
// taken as down a request's failure is that, and a failure Diagnose words as pmproxy or its
// key-value server being down (anything it words otherwise than err) opens the breaker.
func (s *Series) diagnose(err error) error {
	if err == nil {
		return nil
	}
	now := time.Now()
	if d := s.brk.down(now); d != nil {
		return d
	}
	d := s.c.Diagnose(err)
	if d != err {
		s.brk.open(now, d)
	}
	return d
}

// reqCtx is the context of one request: the caller's, within the request deadline (a short one
// just after the series were down); while they are taken as down, one already ended with why.
func (s *Series) reqCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	now := time.Now()
	if err := s.brk.down(now); err != nil {
		c, cancel := context.WithCancelCause(ctx)
		cancel(err)
		return c, func() { cancel(nil) }
	}
	d := s.opt.Deadline
	if s.brk.probing(now) {
		d = min(d, seriesProbe)
	}
	return context.WithTimeout(ctx, d)
}
