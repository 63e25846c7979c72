package smb2

import (
	"testing"

	"github.com/cloudsoda/go-smb2/internal/smb2"
)

// FuzzChainReplies feeds a broken or hostile server's bodies to what the
// patch decodes of its compounds: a part's CREATE response and the handle's
// FileAllInformation (statFrom, chainResult) or FileInternalInformation
// (checkID), a READ's and a WRITE's. Any length, offset or count gives an
// error or a value, never a panic or a read past the buffer.
func FuzzChainReplies(f *testing.F) {
	f.Add(make([]byte, 89), make([]byte, 9), make([]byte, 17), make([]byte, 17))
	f.Add([]byte{89, 0}, []byte{9, 0, 0, 0, 0xff, 0xff, 0, 0}, []byte{17, 0, 0xff, 0}, []byte{17, 0, 0, 0, 3})
	f.Fuzz(func(t *testing.T, create, all, read, write []byte) {
		fs := &Share{}
		out := fs.chainResult(chainSpec{name: "a/b", steps: make([]chainStep, 1)}, [][]byte{create, all, nil}, make([]error, 3))
		if out.err == nil {
			_, _ = statFrom("a/b", out.create, out.steps[0])
			_ = checkID(out.steps[0], 1)
		}
		if r := smb2.ReadResponseDecoder(read); !r.IsInvalid() {
			_ = r.Data()
		}
		_ = writeResult(write, 3)
	})
}
