package copytree

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// caseless is a destination whose server takes names that differ only in
// case for one name, as SMB servers do (share.Caseless).
type caseless struct{ share.TreeClient }

func (caseless) CaseInsensitive() bool { return true }

// A source (NFS, or a Samba share whose files were made over NFS or on
// the server) may hold names that differ only in case; a caseless
// destination holds one of them. The copy used to end with the second in
// the first's place and pass for whole: it fails now, naming the entry.
func TestNamesThatDifferOnlyInCaseFailACopyIntoACaselessDestination(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		files []string
		clash bool
	}{
		{"two files", []string{"vol/d/Report.txt", "vol/d/report.TXT"}, true},
		{"two directories", []string{"vol/Data/a", "vol/data/b"}, true},
		{"a file and a directory", []string{"vol/x", "vol/X/y"}, true},
		{"non-ASCII", []string{"vol/ÄRGER", "vol/ärger"}, true},
		{"the same name in two directories", []string{"vol/a/f", "vol/b/f", "vol/a/g", "vol/b/G"}, false},
	} {
		for _, pack := range []string{"", "packs/run1"} {
			t.Run(tc.name+" "+pack, func(t *testing.T) {
				sh := memshare.New()
				for _, f := range tc.files {
					if err := sh.WriteFileDirect(f, []byte(f)); err != nil {
						t.Fatal(err)
					}
				}
				c := sh.Client().(share.TreeClient)
				s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: caseless{c}}}}
				_, err := Copy(ctx, s, "vol", "snap", Options{PackTo: pack})
				if pack != "" && err == nil {
					// The pack keeps each name as it is: the copy is
					// whole, and its restore meets the clash.
					_, err = Copy(ctx, s, "snap", "restore", Options{UnpackFrom: pack})
				}
				if !tc.clash {
					if err != nil {
						t.Fatalf("names that differ in case only in different directories: %v", err)
					}
					return
				}
				if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "differs from it only in case") {
					t.Fatalf("a copy of %v into a caseless destination: %v, want ErrIncomplete naming the clash", tc.files, err)
				}
				// Into a destination that keeps case, the copy is whole.
				s.Workers[0].Dst = c
				if _, err := Copy(ctx, s, "vol", "snap2", Options{PackTo: pack + "x"}); err != nil {
					t.Fatalf("the same copy into a destination that keeps case: %v", err)
				}
			})
		}
	}
}

// A snapshot made on a share that keeps case holds both names, one in its
// pack (a small file) and one in its tree: a restore into a caseless
// destination meets the two on different paths of the copy.
func TestARestoreIntoACaselessDestinationChecksThePackAgainstTheTree(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	if err := sh.WriteFileDirect("vol/d/notes", []byte("small")); err != nil {
		t.Fatal(err)
	}
	if err := sh.WriteFileDirect("vol/d/NOTES", []byte(strings.Repeat("large", packLimit))); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	if _, err := Copy(ctx, s, "vol", "snap", Options{PackTo: "packs/run1"}); err != nil {
		t.Fatal(err)
	}
	s.Workers[0].Dst = caseless{c}
	_, err := Copy(ctx, s, "snap", "restore", Options{UnpackFrom: "packs/run1"})
	if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "differs from it only in case") {
		t.Fatalf("a restore of d/notes (packed) and d/NOTES (in the tree) into a caseless destination: %v, want ErrIncomplete naming the clash", err)
	}
}
