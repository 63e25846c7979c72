package nfs4

import (
	"errors"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/internal/sharetest"
)

func TestDecodeReaddir4RefusesBadNames(t *testing.T) {
	for _, n := range append(sharetest.BadNames, ".", "..", "ok") {
		var page readdir4Page
		ops := []nfs4Op{opPutfh([]byte{1}), opReaddir(0, [8]byte{}, 100, 1000, walkMask, &page)}
		b := reply(0, result4{op4Putfh, 0, nil}, result4{op4Readdir, 0, func(e *xdrEnc) {
			e.fixed([]byte("verifier"))
			for i, name := range []string{"a", n} {
				e.boolean(true)
				e.u64(uint64(i + 3))
				e.str(name)
				fattr(e, []int{attrType}, func(v *xdrEnc) { v.u32(nf4Reg) })
			}
			e.boolean(false)
			e.boolean(true)
		}})
		_, err := decodeCompound(b, ops)
		switch n {
		case ".", "..":
			// Tolerated and left out, the cookie kept for the next call.
			if err != nil || len(page.Entries) != 1 || page.Listed != 2 || page.Cookie != 4 {
				t.Errorf("a listing with %q: %v, page %+v; want a alone, 2 listed, cookie 4", n, err, page)
			}
		case "ok":
			if err != nil || len(page.Entries) != 2 {
				t.Errorf("a listing with %q: %v, page %+v", n, err, page)
			}
		default:
			if !errors.Is(err, share.ErrBadName) || !errors.Is(err, errXDR) {
				t.Errorf("a listing with %q: %v, want ErrBadName in a reply that does not decode", n, err)
			}
		}
	}
}
