//go:build linux

package mounter

import "testing"

// The kernel escapes what would break mountinfo's fields and the option
// list; the options handed back to a reconfiguration must be the real ones.
func TestUnescapeMountInfo(t *testing.T) {
	for in, want := range map[string]string{
		`CORP`:             "CORP",
		`a\054b`:           "a,b",
		`with\040space`:    "with space",
		`back\134slash`:    `back\slash`,
		`trailing\05`:      `trailing\05`,
		`not\999an-escape`: `not\999an-escape`,
	} {
		if got := unescapeMountInfo(in); got != want {
			t.Errorf("unescapeMountInfo(%q) = %q, want %q", in, got, want)
		}
	}
}
