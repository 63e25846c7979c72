package keylock

import (
	"context"
	"sync"
	"testing"
	"time"
)

// held reports whether Lock(path) is granted within a short wait while
// another holder keeps its lock.
func granted(t *Tree, path string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	unlock, err := t.Lock(ctx, "share", path)
	if err != nil {
		return false
	}
	unlock()
	return true
}

func TestTreeExcludesAncestorsAndDescendantsNotSiblings(t *testing.T) {
	var tr Tree
	unlock, err := tr.Lock(context.Background(), "share", "ns/a")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"ns/a":   false, // itself
		"ns":     false, // an ancestor would hold it
		"ns/a/b": false, // a descendant would lie in it
		"ns/b":   true,  // a sibling
		"other":  true,
		"ns/ab":  true, // a sibling whose name starts alike
	} {
		if got := granted(&tr, path); got != want {
			t.Errorf("with ns/a held, Lock(%s) granted = %v, want %v", path, got, want)
		}
	}
	unlock()
	if !granted(&tr, "ns") {
		t.Error("ns still locked after ns/a was released")
	}
	if len(tr.nodes) != 0 {
		t.Errorf("%d lock nodes left after every holder released", len(tr.nodes))
	}
}

func TestTreeSiblingsRunTogetherAndWaitersGetTheLock(t *testing.T) {
	var tr Tree
	var wg sync.WaitGroup
	start := make(chan struct{})
	leave := make(chan struct{})
	inside := make(chan struct{}, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			unlock, err := tr.Lock(context.Background(), "share", "ns/v"+string(rune('0'+i)))
			if err != nil {
				t.Error(err)
				return
			}
			inside <- struct{}{}
			<-leave // hold the lock until all eight are in
			unlock()
		}()
	}
	close(start)
	// All eight siblings hold their locks at once: none waits on another.
	for range 8 {
		select {
		case <-inside:
		case <-time.After(5 * time.Second):
			close(leave)
			t.Fatal("siblings serialised on their shared ancestor")
		}
	}
	close(leave)
	wg.Wait()
	// A waiter for the ancestor gets it once the siblings are gone.
	unlock, err := tr.Lock(context.Background(), "share", "ns")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}
