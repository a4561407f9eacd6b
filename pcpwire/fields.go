package pcpwire

// Fields reads the big-endian fields of a PDU body or an archive record, as this package's own
// decoders read them: a read past the end sets Bad and yields zeros, and a count is refused when
// the bytes cannot hold that many items, so nothing is ever allocated by a length the bytes do
// not back. pcparchive reads its metadata and index records with it (issue 38 item 2: one
// reader of PCP's encoding).
type Fields struct{ r reader }

// NewFields reads the fields of p.
func NewFields(p []byte) *Fields { return &Fields{r: reader{p: p}} }

// U32 reads a 32-bit field.
func (f *Fields) U32() uint32 { return f.r.u32() }

// I32 reads a signed 32-bit field.
func (f *Fields) I32() int32 { return f.r.i32() }

// U64 reads a 64-bit field.
func (f *Fields) U64() uint64 { return f.r.u64() }

// Bytes reads n bytes, unpadded (nil and Bad when there are fewer).
func (f *Fields) Bytes(n int) []byte {
	if n < 0 || n > f.r.left() {
		f.r.bad = true
		return nil
	}
	v := f.r.p[f.r.i : f.r.i+n]
	f.r.i += n
	return v
}

// Count reads a count of items that are each at least size bytes long, refusing (0 and Bad) a
// count the bytes left cannot hold.
func (f *Fields) Count(size int) int {
	n := int(f.r.i32())
	if n < 0 || n > f.r.left()/size {
		f.r.bad = true
		return 0
	}
	return n
}

// Rest is the bytes not read yet.
func (f *Fields) Rest() []byte { return f.r.p[min(f.r.i, len(f.r.p)):] }

// Bad says a read went past the end, or a count was refused.
func (f *Fields) Bad() bool { return f.r.bad }

// SetBad marks the fields as not valid (a caller's own check of a value read failed).
func (f *Fields) SetBad() { f.r.bad = true }
