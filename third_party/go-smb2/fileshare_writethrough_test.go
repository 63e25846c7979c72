package smb2

import (
	"testing"

	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// A SmallOp that asks for write-through sends its CREATE with
// FILE_WRITE_THROUGH and its WRITE with SMB2_WRITEFLAG_WRITE_THROUGH; one
// that does not (a copy's small files) sends neither, so copies do not wait
// for the server's disk file by file.
func TestSmallWritesAskForWriteThroughOnlyWhenTold(t *testing.T) {
	fs := &Share{treeConn: &treeConn{session: &session{conn: &conn{maxWriteSize: 1 << 16}}}}
	for _, kind := range []SmallOpKind{SmallCreate, SmallWrite} {
		for _, through := range []bool{true, false} {
			sp, ok := fs.smallSpec(SmallOp{Kind: kind, Name: "r.json", Data: []byte("{}"), WriteThrough: through}, "r.json")
			if !ok || len(sp.steps) != 1 {
				t.Fatalf("kind %v: spec %+v, %v", kind, sp, ok)
			}
			w, isWrite := sp.steps[0].req.(*smb2.WriteRequest)
			if !isWrite {
				t.Fatalf("kind %v: first step is %T, want a WRITE", kind, sp.steps[0].req)
			}
			gotWrite := w.Flags&smb2.SMB2_WRITEFLAG_WRITE_THROUGH != 0
			gotCreate := sp.create.CreateOptions&smb2.FILE_WRITE_THROUGH != 0
			if gotWrite != through || gotCreate != through {
				t.Errorf("kind %v, write-through %v: WRITE flag %v, CREATE option %v", kind, through, gotWrite, gotCreate)
			}
		}
	}
	// An empty file (a mark, a hold) has no WRITE; its CREATE still asks.
	sp, _ := fs.smallSpec(SmallOp{Kind: SmallCreate, Name: "m", WriteThrough: true}, "m")
	if len(sp.steps) != 0 || sp.create.CreateOptions&smb2.FILE_WRITE_THROUGH == 0 {
		t.Errorf("an empty write-through create: steps %v, options %#x", sp.steps, sp.create.CreateOptions)
	}
}
