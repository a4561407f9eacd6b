package ui

// renderCache keeps what a pane rendered last and the inputs it rendered it from, so a View
// with the same inputs returns the same text without drawing anything: at a 1-second refresh
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
	text    string
	gen     uint64 // texts rendered; a new text has a new gen
	renders int    // for tests
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

// get is the text rendered for key, if it is the last one rendered, with its gen.
func (c *renderCache[K]) get(key K) (string, uint64, bool) {
	if c == nil || !c.have || c.key != key {
		return "", 0, false
	}
	return c.text, c.gen, true
}

// put keeps text as rendered for key and returns it with its gen; gen is 0 (never the same as
// another) without a cache.
func (c *renderCache[K]) put(key K, text string) (string, uint64) {
	if c == nil {
		return text, 0
	}
	c.key, c.text, c.have = key, text, true
	c.gen++
	c.renders++
	return text, c.gen
}

// forget drops the text, so the next View renders.
func (c *renderCache[K]) forget() {
	if c != nil {
		c.have = false
	}
}
