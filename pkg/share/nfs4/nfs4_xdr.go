package nfs4

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The NFSv4.1 client encodes and decodes XDR (RFC 4506) by hand rather than
// through the reflection-based library the v3 path uses: a COMPOUND is a list
// of unions whose shape depends on each operation, and decoding a reply must
// stop at the first failed operation. Both directions stay small and every
// length read from the wire is checked against the bytes actually there.

// xdrEnc appends XDR to a buffer.
type xdrEnc struct{ b []byte }

func (e *xdrEnc) u32(v uint32) { e.b = binary.BigEndian.AppendUint32(e.b, v) }
func (e *xdrEnc) u64(v uint64) { e.b = binary.BigEndian.AppendUint64(e.b, v) }

func (e *xdrEnc) boolean(v bool) {
	if v {
		e.u32(1)
	} else {
		e.u32(0)
	}
}

// fixed appends fixed-length opaque data, padded to four bytes.
func (e *xdrEnc) fixed(b []byte) {
	e.b = append(e.b, b...)
	for len(e.b)%4 != 0 {
		e.b = append(e.b, 0)
	}
}

// opaque appends variable-length opaque data: its length, then the bytes.
func (e *xdrEnc) opaque(b []byte) {
	e.u32(uint32(len(b)))
	e.fixed(b)
}

func (e *xdrEnc) str(s string) { e.opaque([]byte(s)) }

func (e *xdrEnc) bitmap(words []uint32) {
	e.u32(uint32(len(words)))
	for _, w := range words {
		e.u32(w)
	}
}

// errXDR marks a reply that does not decode: truncated, a length beyond
// what is left or allowed, a value outside its type. The session that
// received it is out of step and must not be used again.
var errXDR = errors.New("malformed NFSv4 reply")

// xdrDec decodes XDR from one reply. The first error sticks: later reads
// return zero values, so a decoder reads a whole structure and checks once.
type xdrDec struct {
	b   []byte
	err error
}

func (d *xdrDec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{errXDR}, args...)...)
	}
	d.b = nil
}

func (d *xdrDec) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.fail("%d bytes expected, %d left", n, len(d.b))
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *xdrDec) u32() uint32 {
	b := d.take(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

func (d *xdrDec) u64() uint64 {
	b := d.take(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func (d *xdrDec) boolean() bool {
	switch v := d.u32(); v {
	case 0:
		return false
	case 1:
		return true
	default:
		d.fail("boolean %d", v)
		return false
	}
}

// fixed reads n bytes of fixed-length opaque data and their padding.
func (d *xdrDec) fixed(n int) []byte {
	b := d.take(n)
	d.take((4 - n%4) % 4)
	return b
}

// opaque reads variable-length opaque data of at most max bytes. The
// result aliases the reply; callers that keep it copy it.
func (d *xdrDec) opaque(max int) []byte {
	n := d.u32()
	if d.err != nil {
		return nil
	}
	if int64(n) > int64(max) {
		d.fail("opaque of %d bytes, at most %d allowed", n, max)
		return nil
	}
	return d.fixed(int(n))
}

func (d *xdrDec) str(max int) string { return string(d.opaque(max)) }

// maxBitmapWords bounds an attribute bitmap: the attributes defined up to
// NFSv4.2 fit in three words; servers may send a few zero words more.
const maxBitmapWords = 8

func (d *xdrDec) bitmap() []uint32 {
	n := d.u32()
	if n > maxBitmapWords {
		d.fail("bitmap of %d words", n)
		return nil
	}
	out := make([]uint32, 0, n)
	for range n {
		out = append(out, d.u32())
	}
	return out
}

// count reads an array length, each element at least min bytes long, so a
// hostile count cannot make a caller allocate beyond the reply's size.
func (d *xdrDec) count(min int) int {
	n := d.u32()
	if d.err == nil && int64(n)*int64(min) > int64(len(d.b)) {
		d.fail("array of %d elements in %d bytes", n, len(d.b))
		return 0
	}
	return int(n)
}
