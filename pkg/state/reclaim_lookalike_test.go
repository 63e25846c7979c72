package state

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A restore whose claim went away before its fill finished: the reclaimer
// deletes it whole. The snapshot held a tenant's directory named like the
// driver's records; the pass must still undo it (and not fail every pass,
// which stops every other intent, temp and snapshot after it).
func TestTheReclaimerDeletesAnAbandonedRestoreHoldingAMetadataLookalike(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	c := &clock{t0}
	st := storeOn(sh, c)
	req := createReq()
	req.ContentSource = "snapshot-id"
	if _, err := st.Create(ctx, req); err != nil {
		t.Fatal(err)
	}
	// What the restore's copy wrote before the claim went away.
	if err := sh.WriteFileDirect(volPath+"/"+volumesDir+"/x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	idle := func(string) bool { return false }
	r := Reclaimer{SnapshotBusy: idle, VolumeBusy: idle}
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	for range 3 {
		c.t = c.t.Add(IntentTTL + time.Minute)
		if _, err := r.Pass(ctx, storeOn(sh, c), "share", lock); err != nil {
			t.Fatalf("reclaim: %v", err)
		}
	}
	if _, err := sh.Client().Stat(ctx, volPath); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the abandoned restore is still there: %v", err)
	}
}
