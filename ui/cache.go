package ui

// renderCache keeps the lines a pane rendered last and the inputs it rendered them from, so a
// View with the same inputs returns the same lines without drawing anything: at a 1-second refresh
// most panes do not change between two samples.
//
// A pane's inputs are its key: the scalars View reads (size, cursor, offset, focus…) and a data
// version the pane moves on (with next) whenever anything else View reads changes (its rows, its
// snapshot). Panes are values that bubbletea copies at every Update, so the cache sits behind a
// pointer that every copy shares; versions come from its counter, so two copies that went
// different ways never carry the same version and neither is shown the other's text.
//
// A nil cache (a pane not built by its constructor) caches nothing.
type renderCache[K comparable] struct {
	seq     uint64 // data versions handed out
	key     K
	have    bool
	lines   []string // never changed once kept: the root frames them as they are
	gen     uint64   // renders kept; new lines have a new gen
	renders int      // for tests
}

func newRenderCache[K comparable]() *renderCache[K] { return &renderCache[K]{} }

// next is a data version no copy of the pane has had yet.
func (c *renderCache[K]) next() uint64 {
	if c == nil {
		return 0
	}
	c.seq++
	return c.seq
}

// get is the lines rendered for key, if they are the last ones rendered, with their gen.
func (c *renderCache[K]) get(key K) ([]string, uint64, bool) {
	if c == nil || !c.have || c.key != key {
		return nil, 0, false
	}
	return c.lines, c.gen, true
}

// put keeps lines as rendered for key and returns them with their gen; gen is 0 (never the
// same as another) without a cache. The pane must not change lines afterwards.
func (c *renderCache[K]) put(key K, lines []string) ([]string, uint64) {
	if c == nil {
		return lines, 0
	}
	c.key, c.lines, c.have = key, lines, true
	c.gen++
	c.renders++
	return lines, c.gen
}

// view is the lines for key: the kept ones when key is the one they were rendered for, else
// render's, kept for next time. Every pane's view is this call.
func (c *renderCache[K]) view(key K, render func() []string) ([]string, uint64) {
	if s, gen, ok := c.get(key); ok {
		return s, gen
	}
	return c.put(key, render())
}

// forget drops the text, so the next View renders.
func (c *renderCache[K]) forget() {
	if c != nil {
		c.have = false
	}
}
