package share

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestWalkFenceReadsOnceAndCaches(t *testing.T) {
	var f walkFence
	var reads, looks atomic.Int32
	read := func() ([]uint64, error) {
		reads.Add(1)
		return []uint64{0, 7, 9}, nil
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			id := uint64(i % 10)
			fenced, err := f.isFenced(id, read)
			if err != nil {
				t.Error(err)
			}
			if want := id == 7 || id == 9; fenced != want {
				t.Errorf("isFenced(%d) = %v, want %v", id, fenced, want)
			}
			foreign, err := f.isForeign(5, func() (bool, error) { looks.Add(1); return true, nil })
			if err != nil || !foreign {
				t.Errorf("isForeign(5) = %v, %v; want true", foreign, err)
			}
		})
	}
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Errorf("the fenced IDs were read %d times, want once", n)
	}
	// Concurrent first questions about one ID may each ask; later ones never.
	before := looks.Load()
	if foreign, _ := f.isForeign(5, func() (bool, error) { looks.Add(1); return false, nil }); !foreign || looks.Load() != before {
		t.Errorf("a known ID was asked about again")
	}
	if fenced, _ := f.isFenced(0, read); fenced {
		t.Error("ID 0 (the server gave none) is fenced")
	}
	if foreign, _ := f.isForeign(0, func() (bool, error) { return true, nil }); foreign {
		t.Error("ID 0 (the server gave none) is foreign")
	}
}

func TestWalkFenceErrorsAreNotRemembered(t *testing.T) {
	var f walkFence
	boom := errors.New("boom")
	if _, err := f.isFenced(1, func() ([]uint64, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("isFenced error %v does not wrap the cause", err)
	}
	if fenced, err := f.isFenced(1, func() ([]uint64, error) { return []uint64{1}, nil }); err != nil || !fenced {
		t.Errorf("after a failed read: isFenced(1) = %v, %v; want true", fenced, err)
	}
	if _, err := f.isForeign(2, func() (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Fatalf("isForeign error %v does not wrap the cause", err)
	}
	if foreign, err := f.isForeign(2, func() (bool, error) { return true, nil }); err != nil || !foreign {
		t.Errorf("after a failed look-up: isForeign(2) = %v, %v; want true", foreign, err)
	}
}
