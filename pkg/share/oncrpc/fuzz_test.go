package oncrpc

import (
	"bytes"
	"errors"
	"testing"

	"github.com/vmware/go-nfs-client/nfs"
)

// FuzzReply feeds record-marked bytes through ReadRecord, ParseReply and the
// decodes the NFS client does on results (READDIRPLUS entries, handles),
// with hostile lengths among the seeds. It must never panic, never accept a
// record over MaxRecord, and never decode an item longer than its record.
func FuzzReply(f *testing.F) {
	const xid = 0x1234
	ok := acceptedReply(xid)
	f.Add(record(ok))
	f.Add(u32s(0x7fffffff|lastFragment, xid))                                          // absurd record length
	f.Add(append(u32s(8), append(ok[:8], u32s(uint32(len(ok)-8)|lastFragment)...)...)) // two fragments
	f.Add(record(u32s(xid, msgReply, msgAccepted, 1, 0xffffffff, acceptOK)))           // absurd verifier
	f.Add(record(append(ok, u32s(0, 0xfffffff0)...)))                                  // absurd opaque
	f.Add(record(append(ok, u32s(0, 1, 1, 0x7fffffff)...)))                            // absurd entry name
	f.Add(record(u32s(xid, msgReply, msgDenied, rpcMismatch, 2)))                      // short denial
	f.Add(record(u32s(xid+1, msgReply, msgAccepted, 0, 0, acceptOK)))                  // other XID
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadRecord(bytes.NewReader(data), MaxRecord)
		if err != nil {
			return
		}
		if len(rec) > MaxRecord || len(rec) > len(data) {
			t.Fatalf("record of %d bytes from %d bytes of input", len(rec), len(data))
		}
		r, err := ParseReply(rec, xid)
		if err != nil {
			return
		}
		left := r.Len()
		fh, err := r.Opaque(64)
		if err == nil && len(fh) > left {
			t.Fatalf("opaque of %d bytes from %d left", len(fh), left)
		}
		// The shape of a READDIRPLUS reply, as the NFS client decodes it.
		var head struct {
			Status     uint32
			DirAttr    nfs.PostOpAttr
			CookieVerf uint64
		}
		if err := r.Decode(&head); err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("decode error %v does not wrap ErrMalformed", err)
			}
			return
		}
		for r.Len() > 0 {
			left := r.Len()
			var item struct {
				IsSet bool          `xdr:"union"`
				Entry nfs.EntryPlus `xdr:"unioncase=1"`
			}
			if err := r.Decode(&item); err != nil || !item.IsSet {
				return
			}
			if len(item.Entry.FileName) > left || len(item.Entry.Handle.FH) > left {
				t.Fatalf("entry longer than the %d bytes left", left)
			}
		}
	})
}
