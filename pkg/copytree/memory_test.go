package copytree

import (
	"context"
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// synthTree is a source tree that exists only as a rule: width(depth)
// subdirectories per directory, of which the first `deep(depth)` have
// subdirectories of their own. Nothing is stored, so what the test measures
// is the copy's memory alone. Only the methods a walk of directories calls
// are there (the embedded nil interface panics on any other).
type synthTree struct {
	share.TreeClient
	top      string
	width    func(depth int) int
	deep     func(depth int) int // how many of a directory's subdirectories have children
	pageSize int
}

func idOf(p string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(p))
	return h.Sum64() | 1
}

func (s *synthTree) Lstat(_ context.Context, rel string) (share.Attr, error) {
	return share.Attr{Type: share.TypeDir, ID: idOf(rel), Mode: 0o755, HasMode: true}, nil
}

// level is rel's depth below the top, and whether rel may have children.
func (s *synthTree) level(rel string) (int, bool) {
	below := strings.TrimPrefix(strings.TrimPrefix(rel, s.top), "/")
	if below == "" {
		return 0, true
	}
	parts := strings.Split(below, "/")
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimPrefix(p, "d"))
		if err != nil || n >= s.deep(i) {
			return len(parts), false
		}
	}
	return len(parts), true
}

func (s *synthTree) ReadDir(_ context.Context, rel string, fn func([]share.DirEntry) error) error {
	depth, parent := s.level(rel)
	if !parent {
		return nil
	}
	n := s.width(depth)
	for start := 0; start < n; start += s.pageSize {
		page := make([]share.DirEntry, 0, min(s.pageSize, n-start))
		for i := start; i < n && i < start+s.pageSize; i++ {
			name := "d" + strconv.Itoa(i)
			page = append(page, share.DirEntry{Name: name, Attr: share.Attr{Type: share.TypeDir, ID: idOf(rel + "/" + name), Mode: 0o755, HasMode: true,
				Handle: strings.Repeat("h", 36)}}) // an NFSv3 handle's size
		}
		if err := fn(page); err != nil {
			return err
		}
	}
	return nil
}

// bufferingTree is a synthTree whose listings hold more than their pages,
// as go-smb2 keeps the rest of each server reply.
type bufferingTree struct{ *synthTree }

func (bufferingTree) ListingBuffer() (int, int) { return 512, 5000 }

// sink is a destination that keeps nothing and counts directories.
type sink struct {
	share.TreeClient
	dirs, attrs atomic.Int64
}

func (s *sink) Mkdir(context.Context, string, fs.FileMode) error { s.dirs.Add(1); return nil }
func (s *sink) SetAttr(context.Context, string, share.Attr, share.AttrMask) error {
	s.attrs.Add(1)
	return nil
}

// peakHeap samples the heap and the goroutine stacks in use until stop is
// closed; it reports the highest sample above what was in use when it
// started. (The walk recurses: a deep tree's cost is in its stack too.)
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse + ms.StackInuse
	go func() {
		var peak uint64
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if used := ms.HeapInuse + ms.StackInuse; used > base && used-base > peak {
				peak = used - base
			}
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// copyMemoryLimit is what the README states a copy's walk holds at most,
// whatever the tree's shape: maxHeld listing entries and the directories on
// the walk's path (the pack's buffer, for a snapshot, comes on top).
const copyMemoryLimit = 32 << 20

// TestCopyMemoryIsBoundedWhateverTheTreeShape copies trees of a million
// directories (FILESHARE_COPY_DIRS, 200,000 by default; make test-scale
// runs a million) from a source that stores nothing into a destination that
// keeps nothing, and samples the heap. The copy used to keep every
// directory until it ended, and all subdirectories of a directory at once
// (about 265 bytes each): 600,000 directories got the controller killed
// under its 200 MiB limit. Now it stays under copyMemoryLimit in every
// shape, and a shape that would need more (hundreds of levels, each
// hundreds wide) fails with ErrTooDeep instead of growing.
func TestCopyMemoryIsBoundedWhateverTheTreeShape(t *testing.T) {
	total := 200_000
	if v := os.Getenv("FILESHARE_COPY_DIRS"); v != "" {
		var err error
		if total, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	side := 1
	for side*side < total {
		side++
	}
	levels := 0
	for 1<<(levels+1) <= total {
		levels++
	}
	all := func(int) int { return 1 << 30 }
	for _, tc := range []struct {
		name     string
		width    func(int) int
		deep     func(int) int
		wantDirs int64
		tooDeep  bool
		buffers  bool // the lister holds more than its pages (SMB)
	}{
		{"flat", func(d int) int { return map[bool]int{true: total}[d == 0] }, all, int64(total), false, false},
		{"square", func(d int) int { return map[bool]int{true: side}[d < 2] }, all, int64(side + side*side), false, false},
		{"binary", func(d int) int { return map[bool]int{true: 2}[d < levels] }, all, int64(1<<(levels+1)) - 2, false, false},
		// A chain 1,000 levels deep with 500 leaves beside each link:
		// the walk would hold a page at every level.
		{"deep and wide", func(d int) int { return map[bool]int{true: 500}[d < 1000] }, func(int) int { return 1 }, 0, true, false},
		// On SMB each wide directory on the walk's path holds a server
		// reply besides its page: 1,000 by 1,000 is two such levels and
		// passes; 20 levels of 600 stop at the eleventh.
		{"square, buffered", func(d int) int { return map[bool]int{true: side}[d < 2] }, all, int64(side + side*side), false, true},
		{"deep and wide, buffered", func(d int) int { return map[bool]int{true: 600}[d < 20] }, func(int) int { return 1 }, 0, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &synthTree{top: "src", width: tc.width, deep: tc.deep, pageSize: 512}
			var lister share.TreeClient = src
			if tc.buffers {
				lister = bufferingTree{src}
			}
			dst := &sink{}
			stop := make(chan struct{})
			peak := peakHeap(stop)
			_, err := Copy(context.Background(), Sessions{Lister: lister, Workers: []Pair{{Src: src, Dst: dst}}}, "src", "dst", Options{})
			close(stop)
			got := <-peak
			if tc.tooDeep {
				if !errors.Is(err, ErrTooDeep) {
					t.Fatalf("copy of a tree too deep and wide at once: %v, want ErrTooDeep", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if dst.dirs.Load() != tc.wantDirs+1 || dst.attrs.Load() != tc.wantDirs+1 {
					t.Fatalf("%d directories made and %d given their attributes, want %d", dst.dirs.Load(), dst.attrs.Load(), tc.wantDirs+1)
				}
			}
			t.Logf("%s: %d directories, peak heap %.1f MiB above the start", tc.name, dst.dirs.Load(), float64(got)/(1<<20))
			if got > copyMemoryLimit {
				t.Fatalf("the copy of %d directories (%s) held %.1f MiB, more than the %d MiB it may", dst.dirs.Load(), tc.name, float64(got)/(1<<20), copyMemoryLimit>>20)
			}
		})
	}
}
