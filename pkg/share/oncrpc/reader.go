package oncrpc

import (
	"bytes"
	"fmt"

	xdr "github.com/rasky/go-xdr/xdr2"
)

// Reader decodes XDR from one received record. Every variable-length item
// (opaque, string, array) may be no longer than the bytes left in the
// record: the XDR library allocates a length it reads before reading the
// data, and a hostile length would otherwise allocate gigabytes.
type Reader struct {
	r *bytes.Reader
}

// NewReader reads rec.
func NewReader(rec []byte) *Reader { return &Reader{r: bytes.NewReader(rec)} }

// Len is the number of bytes not yet decoded.
func (r *Reader) Len() int { return r.r.Len() }

// Decode decodes the next value into v, a pointer, as the XDR library
// does (structs field by field, `xdr:"union"` tags), bounded by the record.
func (r *Reader) Decode(v any) error {
	// 1, not 0, for an empty rest: 0 means "no limit" to the library.
	if _, err := xdr.UnmarshalLimited(r.r, v, uint(max(r.r.Len(), 1))); err != nil {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return nil
}

// Rest returns the bytes not yet decoded, for a caller that decodes them
// with its own bounded decoder.
func (r *Reader) Rest() []byte {
	b := make([]byte, r.r.Len())
	_, _ = r.r.Read(b)
	return b
}

// Uint32 decodes an unsigned int.
func (r *Reader) Uint32() (uint32, error) {
	if r.r.Len() < 4 {
		return 0, fmt.Errorf("%w: truncated, %d bytes left where an int was expected", ErrMalformed, r.r.Len())
	}
	var b [4]byte
	_, _ = r.r.Read(b[:])
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), nil
}

// Opaque decodes variable-length opaque data of at most limit bytes.
func (r *Reader) Opaque(limit int) ([]byte, error) {
	n, err := r.Uint32()
	if err != nil {
		return nil, err
	}
	if int64(n) > int64(limit) || int64(n) > int64(r.r.Len()) {
		return nil, fmt.Errorf("%w: opaque of %d bytes, at most %d allowed and %d left in the record",
			ErrMalformed, n, limit, r.r.Len())
	}
	b := make([]byte, n)
	_, _ = r.r.Read(b)
	return b, r.skip(int(-n & 3))
}

func (r *Reader) skip(n int) error {
	if n > r.r.Len() {
		return fmt.Errorf("%w: %d bytes expected, %d left in the record", ErrMalformed, n, r.r.Len())
	}
	_, _ = r.r.Seek(int64(n), 1)
	return nil
}
