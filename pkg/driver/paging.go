package driver

import (
	"sort"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// listPage is where one page of a List call starts, from its
// starting_token and max_entries. A listing is in one order on every call
// (oldest first, then by UID: listKey), and a token names the last entry
// of the page before by its key, so the next page starts after it whatever
// was made or deleted in between: an entry that was there throughout is
// listed once and none is skipped. (A position in the listing, which the
// tokens were before, skipped an entry for each older one deleted between
// two pages.)
type listPage struct {
	after string
	max   int
}

// tokenPrefix marks this driver's tokens, so that one it did not give is
// refused rather than taken for a key.
const tokenPrefix = "after:"

func parseListPage(token string, maxEntries int32) (listPage, error) {
	var p listPage
	if token != "" {
		k, ok := strings.CutPrefix(token, tokenPrefix)
		if !ok || !validListKey(k) {
			// Spec, ListSnapshots Errors: "Invalid starting_token",
			// ABORTED, so the CO starts over. Taken for a key, a token
			// this driver never gave (one cut short, or garbled) would
			// answer a page from an arbitrary place, or an empty last
			// page, and the CO would miss entries without knowing.
			return p, fail(errStaleToken, "starting_token %q is not one this driver gave: start the listing again without one", token)
		}
		p.after = k
	}
	if maxEntries < 0 {
		return p, status.Error(codes.InvalidArgument, "max_entries is negative")
	}
	p.max = int(maxEntries)
	return p, nil
}

// validListKey says whether k has the form listKey gives: a creation time
// in its fixed layout, a slash and a UID.
func validListKey(k string) bool {
	t, uid, ok := strings.Cut(k, "/")
	if !ok || uid == "" || strings.Contains(uid, "/") {
		return false
	}
	_, err := time.Parse(listKeyTime, t)
	return err == nil
}

// listKeyTime is the layout of listKey's time: fixed width, so keys sort
// as times do.
const listKeyTime = "20060102T150405.000000000Z"

// listKey is an entry's place in a listing: its creation time (fixed
// width, so keys sort as times do) and its UID.
func listKey(created time.Time, uid string) string {
	return created.UTC().Format(listKeyTime) + "/" + uid
}

// bounds is the page's part of a listing whose keys (listKey) are sorted,
// and the token of the next page ("" after the last).
func (p listPage) bounds(keys []string) (start, end int, next string) {
	if p.after != "" {
		start = sort.Search(len(keys), func(i int) bool { return keys[i] > p.after })
	}
	end = len(keys)
	if p.max > 0 && start+p.max < end {
		end = start + p.max
	}
	if end < len(keys) {
		next = tokenPrefix + keys[end-1]
	}
	return start, end, next
}

// pageOf sorts a listing by its entries' keys (listKey) and returns the
// part of it page p lists, with the next page's token ("" after the last).
func pageOf[T any](p listPage, all []T, key func(T) string) ([]T, string) {
	keys := make([]string, len(all))
	for i, e := range all {
		keys[i] = key(e)
	}
	sort.Sort(byKey[T]{keys, all})
	start, end, next := p.bounds(keys)
	return all[start:end], next
}

// byKey sorts a listing by its keys, the entries with them.
type byKey[T any] struct {
	keys    []string
	entries []T
}

func (b byKey[T]) Len() int           { return len(b.keys) }
func (b byKey[T]) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey[T]) Swap(i, j int) {
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
	b.entries[i], b.entries[j] = b.entries[j], b.entries[i]
}
