package decompress

import (
	"compress/bzip2"
	"compress/gzip"
	"fmt"

	"github.com/ulikunitz/xz/lzma"
)

// startStream starts the decoder of a bzip2, gzip or lzma file at its start.
func (r *Reader) startStream() error {
	r.src = r.section(0, r.csize)
	r.Starts++
	switch r.kind {
	case BZip2:
		r.dec = bzip2.NewReader(r.src)
	case GZip:
		z, err := gzip.NewReader(r.src) // several members are read as one, as gzip -d does
		if err != nil {
			return r.damage(r.src.n, fmt.Errorf("not a gzip file: %w", err))
		}
		r.dec = z
	case LZMA:
		// The dictionary the header asks for is checked before it is allocated.
		z, err := lzma.ReaderConfig{DictCap: int(MaxDict)}.NewReader(r.src)
		if err != nil {
			return r.damage(0, fmt.Errorf("not an lzma file, or one whose dictionary is past the %s this reader allows: %w", mib(MaxDict), err))
		}
		r.dec = z
	default:
		return fmt.Errorf("%s: %s is not read as a stream", r.name, r.kind)
	}
	return nil
}
