package driver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The reclaimer's pass carries no secrets (withShareOrIdle with none): on
// NFS it dials without credentials and passes over the share; on SMB it
// only borrows an idle session a call with secrets left, and with none it
// dials nothing rather than try a login without a password.
func TestReclaimPassTakesNoSecrets(t *testing.T) {
	for _, tc := range []struct {
		src       string
		wantDials int
	}{
		{"nfs://127.0.0.1/export", 1},
		{"smb://127.0.0.1/share", 0},
	} {
		t.Run(tc.src, func(t *testing.T) {
			ms := memshare.New()
			var mu sync.Mutex
			var dials []share.Credentials
			pool := share.NewPool()
			pool.Dial = func(_ context.Context, _ source.Source, creds share.Credentials) (share.Client, error) {
				mu.Lock()
				defer mu.Unlock()
				dials = append(dials, creds)
				return ms.Client(), nil
			}
			t.Cleanup(pool.Close)
			d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
			if err != nil {
				t.Fatal(err)
			}
			src, err := source.Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			d.reclaimOn(context.Background(), src)
			mu.Lock()
			defer mu.Unlock()
			if len(dials) != tc.wantDials {
				t.Fatalf("dialed %d times, want %d", len(dials), tc.wantDials)
			}
			for _, c := range dials {
				if c != (share.Credentials{}) {
					t.Errorf("dialed with credentials %+v, want none", c)
				}
			}
			if ran := ms.Ops() > 0; ran != (tc.wantDials > 0) {
				t.Errorf("the pass touched the share: %v, want %v", ran, tc.wantDials > 0)
			}
		})
	}
}

// A controller no call comes to any more (a demoted leader whose sidecars
// lost their lease, the driver alive) used to pass over every share it
// ever served for as long as it lived, beside the new leader's calls and
// passes, which no lock of either serializes with. Its passes over a share
// stop once no call named it for quietAfter, and start again with the
// next call that does.
func TestTheReclaimerStopsOnASharesNoCallNamesAnyMore(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	src, err := source.Parse("nfs://127.0.0.1/export")
	if err != nil {
		t.Fatal(err)
	}
	const interval = 5 * time.Millisecond
	// passes runs the reclaimer until it touched the share, or for a
	// second: a loaded machine may be slow to tick, never this slow.
	passes := func() int {
		t.Helper()
		before := ms.Ops()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		done := make(chan struct{})
		go func() { defer close(done); d.RunReclaimer(ctx, interval) }()
		for ctx.Err() == nil && ms.Ops() == before {
			time.Sleep(interval)
		}
		cancel()
		<-done
		return ms.Ops() - before
	}
	d.provisionedOn(src)
	if passes() == 0 {
		t.Fatal("no pass over a share a call named a moment ago")
	}
	// The last call came longer ago than quietAfter.
	d.reclaimShares.mu.Lock()
	for name := range d.reclaimShares.last {
		d.reclaimShares.last[name] = time.Now().Add(-quietAfter(interval) - time.Second)
	}
	d.reclaimShares.mu.Unlock()
	if n := passes(); n != 0 {
		t.Fatalf("the reclaimer passed over a share no call named for longer than quietAfter (%d operations)", n)
	}
	d.provisionedOn(src)
	if passes() == 0 {
		t.Fatal("a call named the share again, and no pass followed")
	}
}
