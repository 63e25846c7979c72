package smb

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/internal/sharetest"
)

// fakeInfo is a directory entry as go-smb2 hands one over.
type fakeInfo string

func (f fakeInfo) Name() string       { return string(f) }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return 0 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

// go-smb2 decodes SMB directory listings itself and drops only "." and
// "..": the client checks every name it gets at that boundary.
func TestSMBListingBoundaryRefusesBadNames(t *testing.T) {
	c := &smbClient{}
	out, err := c.listed([]os.FileInfo{fakeInfo("a"), fakeInfo("."), fakeInfo("b")})
	if err != nil || len(out) != 2 || out[0].Name() != "a" || out[1].Name() != "b" {
		t.Fatalf("listed = %v, %v; want a and b", out, err)
	}
	if c.Broken() {
		t.Fatal("a good listing broke the session")
	}
	for _, n := range append(sharetest.BadNames, `..\x\payload`, `a\b`) {
		c := &smbClient{}
		out, err := c.listed([]os.FileInfo{fakeInfo("a"), fakeInfo(n)})
		if !errors.Is(err, share.ErrBadName) || !errors.Is(err, share.ErrUnavailable) || out != nil {
			t.Errorf("a listing with %q: %v, %v; want ErrBadName and ErrUnavailable", n, out, err)
		}
		if !c.Broken() {
			t.Errorf("a listing with %q left the session in use", n)
		}
	}
}

// FuzzSMBListedNames: whatever names the library hands over, the boundary
// passes on only plain entry names, or refuses the batch.
func FuzzSMBListedNames(f *testing.F) {
	for _, n := range append(sharetest.BadNames, "a", ".", `..\x`) {
		f.Add(n, "b")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		c := &smbClient{}
		out, err := c.listed([]os.FileInfo{fakeInfo(a), fakeInfo(b)})
		if err != nil {
			if !errors.Is(err, share.ErrBadName) {
				t.Fatalf("error that is not ErrBadName: %v", err)
			}
			return
		}
		for _, e := range out {
			n := e.Name()
			if n == "" || n == "." || n == ".." || bytes.ContainsAny([]byte(n), "/\\\x00") {
				t.Fatalf("the boundary handed on %q", n)
			}
		}
	})
}

// What writes names it did not list (a restore's pack) checks them with
// the syntax its destination says: the SMB client's is SMBNames, where a
// backslash separates names.
func TestTheSMBClientSaysABackslashSeparates(t *testing.T) {
	if got := share.SyntaxOf(&smbClient{}); got != share.SMBNames {
		t.Fatalf("SyntaxOf(an SMB client) = %d, want SMBNames", got)
	}
}
