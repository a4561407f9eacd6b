package namespace

import "sync"

// A class's values in a snapshot are kept in columns (issue 38 item 1): each value's numbers in
// one slice of pointer-free cells, its state and reason in another, and the text of the class's
// text datums in a third, so that a value costs 26 bytes, not the 48 of a Value (whose string
// the garbage collector would also scan), and one more instance or host costs that much less.
// A Value is made of them when it is read.

// numCell is one value's numbers: its raw reading, its interval delta and its decoded value.
type numCell struct {
	N      uint64
	Change float64
	V      float64
}

// flagCell is one value's state and why.
type flagCell struct {
	State  ValueState
	Reason Reason
}

// valueCols are the columns of a class's values, indexed by slot × datums + datum (texts by
// slot × text datums + the datum's place among them, Class's textAt).
type valueCols struct {
	nums  []numCell
	flags []flagCell
	texts []string
	// more holds the text of a value of a datum that is not a text datum (a level a provider
	// gave a text too), by value index; nil when there is none.
	more map[int]string
}

// textAt is where each datum's text is among the class's text datums (-1: not one); nil when
// the class is not compiled.
func (c *Class) textAt() []int { return c.tables.textAt }

// textCount is how many of the class's datums are text datums.
func (c *Class) textCount() int { return c.tables.nText }

// At is the value of datum index d of the instance in slot, which must hold one (Insts[slot]
// not nil).
func (cv *ClassValues) At(slot, d int) Value {
	return cv.at(slot, d, slot*len(cv.Class.Datums)+d)
}

// at is At with the value's index worked out already.
func (cv *ClassValues) at(slot, d, i int) Value {
	n, f := cv.cols.nums[i], cv.cols.flags[i]
	v := Value{N: n.N, Change: n.Change, V: n.V, State: f.State, Reason: f.Reason}
	v.S = cv.textOf(slot, d, i)
	return v
}

// textOf is the text of the value of datum d in slot, at index i.
func (cv *ClassValues) textOf(slot, d, i int) string {
	if ta := cv.Class.textAt(); d < len(ta) && ta[d] >= 0 {
		return cv.cols.texts[slot*cv.Class.textCount()+ta[d]]
	}
	if cv.cols.more != nil {
		return cv.cols.more[i]
	}
	return ""
}

// valid says whether the value at index i is Valid, and its decoded value: the hot sets' and the
// process block's loops over one datum of many instances, without making each Value.
func (cv *ClassValues) valid(i int) (float64, bool) {
	return cv.cols.nums[i].V, cv.cols.flags[i].State == Valid
}

// ValidAt is the decoded value (V) of datum index d of the instance in slot, and whether it is
// Valid: a loop over one datum of many instances (a ranking) without making each Value.
func (cv *ClassValues) ValidAt(slot, d int) (float64, bool) {
	return cv.valid(slot*len(cv.Class.Datums) + d)
}

// RowInto is the instance's values (one per datum) in dst's array when it is large enough, or
// nil when the instance is not in this snapshot.
func (cv *ClassValues) RowInto(dst []Value, in *Instance) []Value {
	if cv == nil || in == nil || in.slot >= len(cv.Insts) || cv.Insts[in.slot] != in {
		return nil
	}
	nd := len(cv.Class.Datums)
	dst = growValues(dst, nd)
	cv.unpack(dst, in.slot)
	return dst
}

// growValues is dst resized to n values, in its own array when that is large enough.
func growValues(dst []Value, n int) []Value {
	if cap(dst) < n {
		return make([]Value, n)
	}
	return dst[:n]
}

// unpack fills row with the values of slot: Next's previous row, so each value's cells are
// read in one pass, then the texts.
func (cv *ClassValues) unpack(row []Value, slot int) {
	nd := len(row)
	base := slot * nd
	nums, flags := cv.cols.nums[base:base+nd:base+nd], cv.cols.flags[base:base+nd:base+nd]
	for d := range row {
		n, f := &nums[d], flags[d]
		row[d] = Value{N: n.N, Change: n.Change, V: n.V, State: f.State, Reason: f.Reason}
	}
	c := cv.Class
	if nt := c.textCount(); nt > 0 {
		texts := cv.cols.texts[slot*nt : slot*nt+nt : slot*nt+nt]
		for k, d := range c.tables.textDatums {
			row[d].S = texts[k]
		}
	}
	if cv.cols.more != nil {
		ta := c.textAt()
		for d := range row {
			if d >= len(ta) || ta[d] < 0 {
				row[d].S = cv.cols.more[base+d]
			}
		}
	}
}

// moreText is a text of a value outside the text datums' column (valueCols.more).
type moreText struct {
	i int
	s string
}

// clearSlot zeroes a free slot's values, so that nothing stale is ever read.
func (cols *valueCols) clearSlot(c *Class, slot, nd int) {
	clear(cols.nums[slot*nd : slot*nd+nd])
	clear(cols.flags[slot*nd : slot*nd+nd])
	if nt := c.textCount(); nt > 0 && len(cols.texts) >= (slot+1)*nt {
		clear(cols.texts[slot*nt : slot*nt+nt])
	}
}

// sized are cols' slices for slots rows of nd datums of c, in their arrays when these are large
// enough (the spare ones of a retired snapshot), else new ones.
func (cols valueCols) sized(c *Class, slots, nd int) valueCols {
	n := slots * nd
	out := valueCols{nums: cols.nums, flags: cols.flags, texts: cols.texts}
	if cap(out.nums) >= n {
		out.nums = out.nums[:n]
	} else {
		out.nums = make([]numCell, n, grown(cap(out.nums), n))
	}
	if cap(out.flags) >= n {
		out.flags = out.flags[:n]
	} else {
		out.flags = make([]flagCell, n, grown(cap(out.flags), n))
	}
	nt := slots * c.textCount()
	switch {
	case nt == 0:
		out.texts = out.texts[:0]
	case cap(out.texts) >= nt:
		out.texts = out.texts[:nt]
	default:
		out.texts = make([]string, nt, grown(cap(out.texts), nt))
	}
	return out
}

// sameArray says cols and o are slices of one array (a class carried unchanged from the previous
// snapshot shares its columns with it).
func (cols *valueCols) sameArray(o *valueCols) bool {
	return len(cols.nums) > 0 && len(o.nums) > 0 && &cols.nums[0] == &o.nums[0]
}

// spareBufs are a retired snapshot's buffers of one class, which Next fills again.
type spareBufs struct {
	cols  valueCols
	insts []*Instance
}

// spareLists are Next's lists of spare buffers, one a class, kept between calls rather than in
// every snapshot's classes (issue 38 item 1: 104 bytes a class a snapshot).
var spareLists sync.Pool

// takeSpares is an empty list of n spare buffers.
func takeSpares(n int) *[]spareBufs {
	p, _ := spareLists.Get().(*[]spareBufs)
	if p == nil {
		p = new([]spareBufs)
	}
	if cap(*p) < n {
		*p = make([]spareBufs, n)
	}
	*p = (*p)[:n]
	return p
}

// putSpares gives a list back, its buffers forgotten.
func putSpares(p *[]spareBufs) {
	clear(*p)
	spareLists.Put(p)
}
