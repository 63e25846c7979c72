package state

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestArchiveNameFitsTheComponentLimit(t *testing.T) {
	at := time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)
	for _, name := range []string{"pvc-1", strings.Repeat("n", 240), strings.Repeat("n", 255), strings.Repeat("é", 127)} {
		seen := map[string]bool{}
		for i := range 10 {
			got := ArchiveName("ns/"+name, at, i)
			if !strings.HasPrefix(got, "ns/"+ArchivePrefix) {
				t.Errorf("%q try %d: %q is not an archive beside the volume", name, i, got)
			}
			base := got[len("ns/"):]
			if len(base) > maxName || !utf8.ValidString(base) {
				t.Errorf("%q try %d: %q is %d bytes or not UTF-8", name, i, base, len(base))
			}
			if seen[got] {
				t.Errorf("%q try %d: %q repeats an earlier try", name, i, got)
			}
			seen[got] = true
		}
	}
	if got := ArchiveName("pvc-1", at, 0); got != "archived-pvc-1" {
		t.Errorf("first try for a short name: %q, want archived-pvc-1", got)
	}
	// Two long names that differ only past the cut do not share archives.
	a := ArchiveName(strings.Repeat("a", 250)+"x", at, 0)
	b := ArchiveName(strings.Repeat("a", 250)+"y", at, 0)
	if a == b {
		t.Errorf("two long names archive to the same %q", a)
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"pvc-1", "ns/pvc-1", "a/archived", strings.Repeat("n", 255)} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q): %v", p, err)
		}
	}
	for _, p := range []string{"", ".fileshare-csi/x", "archived-pvc-1", "ns/archived-x", strings.Repeat("n", 256), "ok/" + strings.Repeat("n", 256) + "/x"} {
		if err := CheckPath(p); !errors.Is(err, ErrInvalid) {
			t.Errorf("CheckPath(%q) = %v, want ErrInvalid", p, err)
		}
	}
}

func TestAncestors(t *testing.T) {
	got := strings.Join(ancestors("a/b/c"), ",")
	if got != "a,a/b" {
		t.Errorf("ancestors(a/b/c) = %s", got)
	}
	if len(ancestors("a")) != 0 {
		t.Errorf("a top-level directory has ancestors below the root")
	}
}

func TestKeysHaveFixedLength(t *testing.T) {
	if len(key("a")) != len(key(strings.Repeat("x/", 500))) {
		t.Error("record names depend on the path's length")
	}
	if key("a/b") == key("a/c") {
		t.Error("two paths share a key")
	}
}
