package driver

import (
	"strconv"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// listPage is where one page of a List call starts, from its
// starting_token and max_entries. The token is a position in the listing,
// oldest first, which is what this driver's tokens are.
type listPage struct {
	start, max int
}

func parseListPage(token string, maxEntries int32) (listPage, error) {
	var p listPage
	if token != "" {
		n, err := strconv.Atoi(token)
		if err != nil || n < 0 {
			return p, fail(errStaleToken, "starting_token %q is not one this driver gave", token)
		}
		p.start = n
	}
	if maxEntries < 0 {
		return p, status.Error(codes.InvalidArgument, "max_entries is negative")
	}
	p.max = int(maxEntries)
	return p, nil
}

// bounds is the page's part of a listing of total entries, and the token
// of the next page ("" after the last). what names the entries.
func (p listPage) bounds(total int, what string) (start, end int, next string, err error) {
	if p.start > total {
		return 0, 0, "", fail(errStaleToken, "starting_token %d is past the %d %s there are", p.start, total, what)
	}
	end = total
	if p.max > 0 && p.start+p.max < end {
		end = p.start + p.max
	}
	if end < total {
		next = strconv.Itoa(end)
	}
	return p.start, end, next, nil
}
