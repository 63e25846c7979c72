package freeport

import (
	"net"
	"strconv"
	"testing"
)

func TestOutside(t *testing.T) {
	for _, c := range []struct {
		e    [2]int
		want [][2]int
	}{
		{[2]int{32768, 60999}, [][2]int{{15000, 32767}, {61000, 65535}}},
		{[2]int{1024, 65535}, [][2]int{{15000, 65535}}}, // nothing left: the whole span
		{[2]int{49152, 65535}, [][2]int{{15000, 49151}}},
		{[2]int{10000, 20000}, [][2]int{{20001, 65535}}},
	} {
		got := outside(c.e)
		if len(got) != len(c.want) {
			t.Fatalf("outside(%v) = %v, want %v", c.e, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("outside(%v) = %v, want %v", c.e, got, c.want)
			}
		}
	}
	spans := [][2]int{{10, 12}, {20, 21}}
	for i, want := range []int{10, 11, 12, 20, 21} {
		if got := pick(spans, i); got != want {
			t.Errorf("pick(%v, %d) = %d, want %d", spans, i, got, want)
		}
	}
}

// A port is given once, is outside the ephemeral range, and one held by a
// listener is never given.
func TestGet(t *testing.T) {
	e := ephemeral()
	seen := map[int]bool{}
	for range 200 {
		p, err := Get()
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("port %d given twice", p)
		}
		seen[p] = true
		if p == 20048 || p == 29765 {
			t.Fatalf("port %d is a fixed port of the tests' servers", p)
		}
		if e[1]-e[0] < 65535-lowest-1000 && p >= e[0] && p <= e[1] {
			t.Fatalf("port %d is in the ephemeral range %v", p, e)
		}
	}
	// Hold ports, then ask again: none of those held comes back.
	var ls []net.Listener
	for p := range seen {
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		ls = append(ls, l)
	}
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	mu.Lock()
	for p := range seen {
		delete(given, p) // forget, so only the listeners keep them out
	}
	mu.Unlock()
	for range 200 {
		p, err := Get()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			if l.Addr().(*net.TCPAddr).Port == p {
				t.Fatalf("port %d is listened on, yet given", p)
			}
		}
	}
}
