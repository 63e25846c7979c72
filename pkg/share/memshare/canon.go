package memshare

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Canon says how Lines writes a share so that two runs of the same calls
// compare equal where they differ in nothing that means anything: the
// crash and retry tests compare a cut call's share with an uncut one's.
type Canon struct {
	// UID matches what is random in every run (UIDs, keys hashed from
	// them), written "UID".
	UID *regexp.Regexp
	// Time, if set, matches the times records carry, written "TIME".
	Time *regexp.Regexp
	// IDs matches a file ID in a line (a root mark's name, a record's
	// field), its last group that matched the decimal ID: it is written as the path of
	// the object that has it, since the share hands out IDs in the order
	// it makes objects, which a cut changes.
	IDs *regexp.Regexp
	// Data, if set, writes a file's contents (one whose order means
	// nothing, say).
	Data func(path, data string) string
}

// Lines writes entries as sorted lines, one per entry.
func (c Canon) Lines(entries []Entry) []string {
	byID := map[string]string{}
	for _, e := range entries {
		byID[fmt.Sprint(e.ID)] = e.Path
	}
	var out []string
	for _, e := range entries {
		l := e.Path
		if e.Dir {
			l += "/"
		}
		if e.Link != "" {
			l += " -> " + e.Link
		}
		if d := e.Data; d != "" {
			if c.Data != nil {
				d = c.Data(e.Path, d)
			}
			l += " " + d
		}
		if c.IDs != nil {
			l = c.names(l, byID)
		}
		out = append(out, c.norm(l))
	}
	sort.Strings(out)
	return out
}

// names writes each ID c.IDs finds in l as the path of its object.
func (c Canon) names(l string, byID map[string]string) string {
	var b strings.Builder
	last := 0
	for _, m := range c.IDs.FindAllStringSubmatchIndex(l, -1) {
		from, to := m[0], m[1] // the whole match, with no group
		for i := len(m) - 2; i >= 2; i -= 2 {
			if m[i] >= 0 {
				from, to = m[i], m[i+1] // the last group that matched
				break
			}
		}
		b.WriteString(l[last:from])
		if p, ok := byID[l[from:to]]; ok {
			b.WriteString("{" + c.norm(p) + "}")
		} else {
			b.WriteString("{no such object}")
		}
		last = to
	}
	return b.String() + l[last:]
}

func (c Canon) norm(s string) string {
	s = c.UID.ReplaceAllString(s, "UID")
	if c.Time != nil {
		s = c.Time.ReplaceAllString(s, "TIME")
	}
	return s
}

// WithoutEmptyDirs leaves out of Lines' lines the empty directories below
// dir (the driver's metadata, whose directories calls make as they need
// them); an empty directory anywhere else stays in.
func WithoutEmptyDirs(lines []string, dir string) []string {
	var out []string
	for i, l := range lines {
		if strings.HasPrefix(l, dir+"/") && strings.HasSuffix(l, "/") && (i+1 == len(lines) || !strings.HasPrefix(lines[i+1], l)) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Diff lists the lines one of two Lines has more of than the other; ""
// when they are equal.
func Diff(want, got []string) string {
	if slices.Equal(want, got) {
		return ""
	}
	var b strings.Builder
	w, g := map[string]int{}, map[string]int{}
	for _, l := range want {
		w[l]++
	}
	for _, l := range got {
		g[l]++
	}
	for _, l := range want {
		if g[l] < w[l] {
			fmt.Fprintf(&b, "  missing: %s\n", l)
		}
	}
	for _, l := range got {
		if w[l] < g[l] {
			fmt.Fprintf(&b, "  extra:   %s\n", l)
		}
	}
	return b.String()
}
