package driver

import (
	"fmt"
	"slices"
	"sort"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// pages lists keys page by page of max entries, with the listing changed
// by between after each page, as a CO pages while claims come and go.
func pages(t *testing.T, keys []string, max int32, between func(page int, keys []string) []string) []string {
	t.Helper()
	var got []string
	token := ""
	for page := 0; page < 100; page++ {
		p, err := parseListPage(token, max)
		if err != nil {
			t.Fatalf("page %d: token %q: %v", page, token, err)
		}
		start, end, next := p.bounds(keys)
		got = append(got, keys[start:end]...)
		if next == "" {
			return got
		}
		token = next
		keys = between(page, keys)
		sort.Strings(keys)
	}
	t.Fatal("the listing never ended")
	return nil
}

// TestListPagesSkipNothingThatStayed: every entry that is there from the
// first page to the last is listed exactly once, whatever is made or
// deleted between pages: older entries deleted (the last one a page listed
// among them), newer ones made, one made with the same time as another.
func TestListPagesSkipNothingThatStayed(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var keys []string
	for i := range 10 {
		keys = append(keys, listKey(t0.Add(time.Duration(i)*time.Minute), fmt.Sprintf("uid%02d", i)))
	}
	sort.Strings(keys)
	stayed := slices.Clone(keys)
	deleted := map[string]bool{}
	got := pages(t, keys, 3, func(page int, keys []string) []string {
		// The last entry of the page just listed goes, and the oldest.
		gone := []string{keys[0]}
		for _, k := range keys {
			if k == listKey(t0.Add(time.Duration(3*page+2)*time.Minute), fmt.Sprintf("uid%02d", 3*page+2)) {
				gone = append(gone, k)
			}
		}
		for _, g := range gone {
			deleted[g] = true
			keys = slices.DeleteFunc(keys, func(k string) bool { return k == g })
		}
		// A new one, and one at the same time as an older one.
		keys = append(keys, listKey(t0.Add(time.Hour+time.Duration(page)*time.Minute), fmt.Sprintf("new%d", page)))
		return append(keys, listKey(t0.Add(time.Duration(3*page+4)*time.Minute), fmt.Sprintf("uid%02da", 3*page+4)))
	})
	count := map[string]int{}
	for _, k := range got {
		count[k]++
	}
	for _, k := range stayed {
		if deleted[k] {
			continue
		}
		if count[k] != 1 {
			t.Errorf("%s, there from the first page to the last, was listed %d times", k, count[k])
		}
	}
	for k, n := range count {
		if n > 1 {
			t.Errorf("%s was listed %d times", k, n)
		}
	}
}

func TestListTokensNotOursAreRefused(t *testing.T) {
	for _, tok := range []string{"3", "nope", "after:", "before:x"} {
		if _, err := parseListPage(tok, 0); status.Code(err) != codes.Aborted {
			t.Errorf("token %q: %v, want Aborted (the spec's answer for a starting_token not valid)", tok, err)
		}
	}
	// A token of ours whose entry and all after it went: an empty page.
	p, err := parseListPage(tokenPrefix+listKey(time.Now(), "gone"), 2)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{listKey(time.Now().Add(-time.Hour), "old")}
	if start, end, next := p.bounds(keys); start != end || next != "" {
		t.Errorf("past the end: [%d:%d] next %q, want an empty last page", start, end, next)
	}
}
