package share

import "fmt"

// MaxListed bounds the names one Client.List gathers, whatever its max.
// List is for the driver's metadata directories (records, marks, packs: an
// entry a volume or a snapshot at most); a server that lists new names
// without end would otherwise fill the controller's memory until the
// deadline. The walks hold one page at a time. A variable for the tests.
var MaxListed = 1 << 20

// TooManyListed is List's error once it holds MaxListed names.
func TooManyListed() error {
	return fmt.Errorf("more than %d entries, not a metadata directory", MaxListed)
}

// Cookies are the cookies one listing of a directory (an NFS READDIR or
// READDIRPLUS from cookie 0 to the end) was read from. A server's cookies
// move on through a directory; one that sends the listing back to a
// cookie it was read from (1, 2, 1, ...) would have it ask for the same
// pages until the deadline, and a List gather their names again and again.
type Cookies map[uint64]struct{}

// Onward notes that the listing read a page from cookie from, whose reply
// (not the directory's last) says to go on from next; an error wrapping
// ErrUnavailable, a reply no working server sends, when the listing was
// read from next already (cookie 0, its start, included).
func (c Cookies) Onward(from, next uint64) error {
	c[from] = struct{}{}
	if _, again := c[next]; again {
		return fmt.Errorf("%w: the server sent the listing back to cookie %d, from which it was read already", ErrUnavailable, next)
	}
	return nil
}
