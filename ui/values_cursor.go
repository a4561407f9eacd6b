// The values pane's cursor: moved by keys, the wheel and clicks, kept on the instance chosen
// while the rows re-sort.

package ui

func (p *valuesPane) moveTo(i int) {
	n := p.rowCount()
	if n == 0 {
		p.cursor = 0
		return
	}
	p.cursor = clamp(i, 0, n-1)
	p.scrollToCursor()
	p.picked = nil
	if p.mode == valuesTable && p.cursor < len(p.order) {
		p.picked = p.rows[p.order[p.cursor]].inst // the cursor stays on it when the rows re-sort
	}
}

// followPicked puts the cursor back on the instance the user chose, wherever the new order put
// it, as top and htop keep the selected process: a table ranked by a live value reorders at
// every sample. Gone, it leaves the cursor where it was.
func (p *valuesPane) followPicked() {
	if p.picked == nil || p.mode != valuesTable {
		return
	}
	if p.cursor < len(p.order) && p.rows[p.order[p.cursor]].inst == p.picked {
		return
	}
	for k, i := range p.order {
		if r := &p.rows[i]; r.inst == p.picked && !r.gone {
			p.cursor = k
			p.scrollToCursor()
			return
		}
	}
}

func (p *valuesPane) scrollToCursor() {
	h := p.bodyH()
	if h <= 0 {
		return
	}
	p.offset = keepInView(p.cursor, p.offset, h, p.rowCount())
}

// Scroll moves the cursor by n rows, for the mouse wheel.
func (p *valuesPane) Scroll(n int) { p.moveTo(p.cursor + n) }

// ClickRow selects the row at line y of the pane.
func (p *valuesPane) ClickRow(y int) {
	if y < p.headerLines() {
		return
	}
	if i := p.offset + y - p.headerLines(); i < p.rowCount() {
		p.moveTo(i)
	}
}
