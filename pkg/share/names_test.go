package share

import (
	"errors"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/internal/sharetest"
)

func TestListedName(t *testing.T) {
	for _, syntax := range []NameSyntax{UnixNames, SMBNames} {
		for _, n := range sharetest.BadNames {
			keep, err := ListedName(n, syntax)
			if keep || !errors.Is(err, ErrBadName) || !errors.Is(err, ErrUnavailable) {
				t.Errorf("ListedName(%q, %d) = %v, %v; want an error wrapping ErrBadName and ErrUnavailable", n, syntax, keep, err)
			}
		}
		for _, n := range []string{".", ".."} {
			if keep, err := ListedName(n, syntax); keep || err != nil {
				t.Errorf("ListedName(%q, %d) = %v, %v; want it left out without an error", n, syntax, keep, err)
			}
		}
		for _, n := range []string{"a", "...", ".hidden", "a b", "naïve", "x..y"} {
			if keep, err := ListedName(n, syntax); !keep || err != nil {
				t.Errorf("ListedName(%q, %d) = %v, %v; want it kept", n, syntax, keep, err)
			}
		}
	}
	// A backslash is a character on NFS and a separator on SMB.
	if keep, err := ListedName(`..\x`, UnixNames); !keep || err != nil {
		t.Errorf(`ListedName("..\x", NFS) = %v, %v; want it kept`, keep, err)
	}
	if _, err := ListedName(`..\x`, SMBNames); !errors.Is(err, ErrBadName) {
		t.Errorf(`ListedName("..\x", SMB) = %v, want ErrBadName`, err)
	}
}

// readdirplusReply encodes a READDIRPLUS reply after its status with the

// FoldCase keeps what a claim's name is (lower-case ASCII), so records keep
// their keys, and gives one spelling to every spelling a server that
// upper-cases to compare takes for one name.
func TestFoldCase(t *testing.T) {
	for in, want := range map[string]string{
		"base/pvc-0f3a-11/x_y.z": "base/pvc-0f3a-11/x_y.z",
		"Data/Team":              "data/team",
		"DATA/team":              "data/team",
		"\u212Aelvin":            "kelvin", // the Kelvin sign upper-cases to itself, lower-cases to k
		"\u017Fmall":             "small",  // long s: upper-cases to S
		"Ärger/ÖL":               "ärger/öl",
	} {
		if got := FoldCase(in); got != want {
			t.Errorf("FoldCase(%q) = %q, want %q", in, got, want)
		}
	}
}
