package layout

import "testing"

func TestKeepHandleOnlyForFixedDirectories(t *testing.T) {
	for p, want := range map[string]bool{
		Dir:                             true,
		Volumes:                         true,
		Holds + "/0123abcd":             true,
		Deleting:                        true,
		Deleting + "/0123456789abcdef":  false, // a quarantine: renamed in, removed
		Snapshots + "/0123456789abcdef": false, // a snapshot's copy: renamed, removed
		Snapshots + "/x.partial":        false,
		Groups:                          true,
		"base":                          false,
		"base/" + Dir:                   false, // a v1 base's records sit in the class's base
		Holds + "/a/b":                  false,
	} {
		if got := KeepHandle(p); got != want {
			t.Errorf("KeepHandle(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestEveryEntryIsProtectedOrBelowOne: no walk enters any of the layout,
// and each entry says what it holds.
func TestEveryEntryIsProtectedOrBelowOne(t *testing.T) {
	prot := map[string]bool{}
	for _, p := range Protected() {
		prot[p] = true
	}
	for _, e := range Entries {
		if e.Holds == "" {
			t.Errorf("%s: says nothing of what it holds", e.Path)
		}
		if !prot[e.Path] && !prot[e.Path[:len(e.Path)-len("/*")]] {
			t.Errorf("%s is neither protected nor below a protected directory", e.Path)
		}
	}
}
