package namespace

// hotCand is one peer value offered to a ranking: its decoded value, and where the whole value
// is (at, the index of its value in cv).
type hotCand struct {
	v  float64
	in *Instance
	cv *ClassValues
	at int
}

// value is the candidate's whole value.
func (c *hotCand) value() Value {
	nd := len(c.cv.Class.Datums)
	return c.cv.at(c.at/nd, c.at%nd, c.at)
}

// hotTop keeps the k best candidates offered to it (k = 0: all of them) in a heap whose root is
// the worst kept, so most peers of a large group cost one comparison and nothing is allocated
// once the buffer has grown (SPMI-HOT-6, SPMI-HOT-8). "Best" is the highest value, or the lowest
// when asc is set (negative thresholds); equal values rank by peer name ascending (AMB-39), and
// peers of one name (a fleet's) by their paths.
type hotTop struct {
	asc bool
	k   int
	h   []hotCand
}

func (t *hotTop) reset(asc bool, k int) {
	clear(t.h) // drop the previous read's pointers into its snapshot
	t.asc, t.k, t.h = asc, k, t.h[:0]
}

// better reports whether a ranks before b.
func (t *hotTop) better(a, b *hotCand) bool {
	if a.v != b.v {
		if t.asc {
			return a.v < b.v
		}
		return a.v > b.v
	}
	if a.in.Name != b.in.Name {
		return a.in.Name < b.in.Name
	}
	// Peers of the same name on several hosts (a fleet's sda): by their paths, so that a
	// ranking's ties are the same whatever order the hosts were read in (--series and
	// --archive, issue 40 item 7).
	return a.in.Path() < b.in.Path()
}

// wants is push's first test, small enough to inline into the peer loop: whether a value could
// enter the selection at all (ties go on to push, which compares names).
func (t *hotTop) wants(x float64) bool {
	if t.k == 0 || len(t.h) < t.k {
		return true
	}
	if t.asc {
		return x <= t.h[0].v
	}
	return x >= t.h[0].v
}

func (t *hotTop) push(c hotCand) {
	if t.k == 0 {
		t.h = append(t.h, c) // unbounded: heapified once in sorted
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		t.up(len(t.h) - 1)
		return
	}
	if !t.better(&c, &t.h[0]) {
		return
	}
	t.h[0] = c
	t.down(0, len(t.h))
}

// up and down keep every parent ranked no better than its children: the root is the worst.
func (t *hotTop) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !t.better(&t.h[i], &t.h[j]) {
			return
		}
		t.h[i], t.h[j] = t.h[j], t.h[i]
		j = i
	}
}

func (t *hotTop) down(i, n int) {
	for {
		j := 2*i + 1
		if j >= n {
			return
		}
		if r := j + 1; r < n && t.better(&t.h[j], &t.h[r]) {
			j = r // the worse child
		}
		if !t.better(&t.h[i], &t.h[j]) {
			return
		}
		t.h[i], t.h[j] = t.h[j], t.h[i]
		i = j
	}
}

// sorted orders the kept candidates best first, in place (heap sort: the worst goes last).
func (t *hotTop) sorted() []hotCand {
	n := len(t.h)
	if t.k == 0 {
		for i := n/2 - 1; i >= 0; i-- {
			t.down(i, n)
		}
	}
	for m := n - 1; m > 0; m-- {
		t.h[0], t.h[m] = t.h[m], t.h[0]
		t.down(0, m)
	}
	return t.h
}
