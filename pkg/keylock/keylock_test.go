package keylock

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestOneHolderPerKeyOthersProceed(t *testing.T) {
	var k Keyed
	var inside, maxInside atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := k.Lock(context.Background(), "a")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for {
				m := maxInside.Load()
				if n <= m || maxInside.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			unlock()
		}()
	}
	wg.Wait()
	if maxInside.Load() != 1 {
		t.Fatalf("%d holders of one key at once", maxInside.Load())
	}
	unlockA, _ := k.Lock(context.Background(), "a")
	defer unlockA()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	unlockB, err := k.Lock(ctx, "b")
	if err != nil {
		t.Fatalf("key b waited for key a: %v", err)
	}
	unlockB()
}

func TestWaitEndsWithContext(t *testing.T) {
	var k Keyed
	unlock, _ := k.Lock(context.Background(), "a")
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := k.Lock(ctx, "a"); err == nil {
		t.Fatal("second lock of a held key succeeded")
	}
	if len(k.locks) != 1 || k.locks["a"].refs != 1 {
		t.Fatalf("the abandoned wait leaked: %+v", k.locks)
	}
}
