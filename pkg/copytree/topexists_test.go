package copytree

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A restore's or a clone's copy runs into the volume its CreateVolume
// made. Started after that volume was deleted (a late job, a reclaim
// racing a retry), it stops with fs.ErrNotExist instead of making the
// directory again and filling it with data no record owns; into a volume
// that is there, it copies.
func TestACopyIntoAVolumeThatIsGoneMakesNothing(t *testing.T) {
	sh := memshare.New()
	if err := sh.WriteFileDirect("src/d/f.txt", []byte("data")); err != nil {
		t.Fatal(err)
	}
	c := sh.Client().(share.TreeClient)
	s := Sessions{Lister: c, Workers: []Pair{{Src: c, Dst: c}}}
	_, err := Copy(context.Background(), s, "src", "gone", Options{TopExists: true})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("copy into a volume that is gone: %v, want fs.ErrNotExist", err)
	}
	for _, e := range sh.Dump() {
		if e.Path == "gone" {
			t.Fatal("the copy made the deleted volume's directory again")
		}
	}
	if err := sh.Client().Mkdir(context.Background(), "vol", 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Copy(context.Background(), s, "src", "vol", Options{TopExists: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := sh.Client().Stat(context.Background(), "vol/d/f.txt"); err != nil {
		t.Fatalf("the copy into the volume that is there: %v", err)
	}
}
