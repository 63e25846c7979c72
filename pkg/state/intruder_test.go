package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// A volume's directory removed by hand, and something else put at its path
// (a file, another directory with data: an administrator's restore), is
// not the volume's: its file ID is not the record's. Every end of the
// claim (delete, retain, archive) drops the volume's record and mark and
// answers OK, and leaves that thing where it is, as it is: not moved into
// the quarantine, not removed.
func TestWhatTookAVolumesPathIsLeftAsItIs(t *testing.T) {
	ctx := context.Background()
	intruders := map[string]func(t *testing.T, sh *memshare.Share) (check func(c share.Client) error){
		"a file": func(t *testing.T, sh *memshare.Share) func(share.Client) error {
			must(t, sh.WriteFileDirect(volPath, []byte("an administrator's file")))
			return func(c share.Client) error { return hasData(ctx, c, volPath, "an administrator's file") }
		},
		"a directory": func(t *testing.T, sh *memshare.Share) func(share.Client) error {
			must(t, sh.WriteFileDirect(volPath+"/restored.txt", []byte("restored from a backup")))
			return func(c share.Client) error { return hasData(ctx, c, volPath+"/restored.txt", "restored from a backup") }
		},
		// A link goes as a link on delete (nothing of its target), and
		// stays on retain and archive.
		"a link": func(t *testing.T, sh *memshare.Share) func(share.Client) error {
			must(t, sh.WriteFileDirect("base/elsewhere/f", []byte("theirs")))
			must(t, sh.Symlink("/base/elsewhere", volPath))
			return func(c share.Client) error { return hasData(ctx, c, "base/elsewhere/f", "theirs") }
		},
	}
	for name, put := range intruders {
		for _, onDelete := range []volume.OnDelete{volume.Delete, volume.Retain, volume.Archive} {
			for _, follow := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/follow-links=%v", name, onDelete, follow), func(t *testing.T) {
					sh := memshare.New()
					sh.FollowLinks = follow // a link looks like its target, as Samba shows it
					st := storeOn(sh, &clock{t0})
					c := sh.Client()
					rec, err := st.Create(ctx, createReq())
					if err != nil {
						t.Fatal(err)
					}
					must(t, c.RemoveAll(ctx, volPath, share.RemoveOptions{}))
					check := put(t, sh)
					if _, _, err := st.Dispose(ctx, rec.Path, rec.UID, onDelete, nil); err != nil {
						t.Fatalf("Dispose: %v", err)
					}
					if err := check(c); err != nil {
						t.Errorf("what took the volume's path: %v", err)
					}
					if _, err := st.record(ctx, rec.Path); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("the record is left: %v", err)
					}
					if m := rootsLeft(t, c); len(m) != 0 {
						t.Errorf("marks left: %v", m)
					}
					if left, err := c.List(ctx, deletingDir, 0); err == nil && len(left) != 0 {
						t.Errorf("the quarantine holds %v", left)
					}
				})
			}
		}
	}
}

// A file swapped in at the volume's path between DeleteVolume's look
// (the volume's own directory) and its move into the quarantine goes
// there, and is left there for an administrator, never removed.
func TestAFileSwappedInAsTheVolumeIsMovedIsKept(t *testing.T) {
	ctx := context.Background()
	sh := memshare.New()
	st := storeOn(sh, &clock{t0})
	c := sh.Client()
	rec, err := st.Create(ctx, createReq())
	if err != nil {
		t.Fatal(err)
	}
	swapped := false
	hooked := swapHook{Client: c, before: func(from string) {
		if from == volPath && !swapped {
			swapped = true
			must(t, c.RemoveAll(ctx, volPath, share.RemoveOptions{}))
			must(t, c.WriteFile(ctx, volPath, []byte("swapped in")))
		}
	}}
	if _, _, err := New(hooked).WithClock((&clock{t0}).now, testUID).Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil {
		t.Fatalf("Dispose: %v", err)
	}
	if !swapped {
		t.Fatal("the volume was never moved")
	}
	if err := hasData(ctx, c, Quarantine(rec.UID), "swapped in"); err != nil {
		t.Errorf("the file swapped in: %v", err)
	}
	if _, err := st.record(ctx, rec.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the record is left: %v", err)
	}
}

// swapHook is a share client that runs before ahead of each Rename; it is
// no Batcher, so every step comes through it.
type swapHook struct {
	share.Client
	before func(from string)
}

func (h swapHook) Rename(ctx context.Context, from, to string) error {
	h.before(from)
	return h.Client.Rename(ctx, from, to)
}

func hasData(ctx context.Context, c share.Client, p, want string) error {
	b, err := c.ReadFile(ctx, p)
	if err != nil {
		return err
	}
	if string(b) != want {
		return errors.New("holds " + string(b) + ", not " + want)
	}
	return nil
}
