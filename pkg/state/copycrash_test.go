package state

import (
	"context"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// The copies, enumerated like the store's calls: a CreateSnapshot with its
// copy and a CreateVolume from that snapshot with its copy, as the driver
// runs them on every try (pkg/driver: takeSnapshot and copySnapshot,
// CreateVolume and populate), cut at every share operation of the record,
// the walk, the pack, the rename into place and the ready record. The
// retry must leave the share as one uninterrupted call does.

// copyTree runs copytree on one memshare session as the driver runs it
// (one lister, one worker pair; the driver's guards).
func copyTree(ctx context.Context, st *Store, from, to string, opts copytree.Options) error {
	tc := st.c.(share.TreeClient)
	opts.Foreign, opts.Protect = ForeignRoot, MetadataDirs()
	_, err := copytree.Copy(ctx, copytree.Sessions{Lister: tc, Workers: []copytree.Pair{{Src: tc, Dst: tc}}}, from, to, opts)
	return err
}

// takeSnapshot is the driver's CreateSnapshot with its copy job: the
// record, then (unless the copy is in place or ready) the copy into the
// partial tree and the completion.
func takeSnapshot(ctx context.Context, st *Store) error {
	snap, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "snap-c", SourceVolumeID: "vol-id", SourcePath: volPath})
	if err != nil || snap.Ready {
		return err
	}
	in, err := st.CopyInPlace(ctx, snap)
	if err != nil {
		return err
	}
	pack := ""
	if !in {
		if pack, err = st.RunPack(snap); err != nil {
			return err
		}
		if err := copyTree(ctx, st, volPath, snap.PartialTree(), copytree.Options{PackTo: pack}); err != nil {
			return err
		}
		snap.Files, snap.Bytes = 3, 48
	}
	_, err = st.CompleteSnapshot(ctx, snap, pack)
	return err
}

const restoredPath = "base/pvc-r"

// restoreSnapshot is the driver's CreateVolume from snap-c with its copy:
// the volume (Populating), the copy from the snapshot's tree and pack, and
// the record that says it is filled.
func restoreSnapshot(ctx context.Context, st *Store) error {
	snap, err := st.GetSnapshotByName(ctx, "snap-c")
	if err != nil {
		return err
	}
	rec, err := st.Create(ctx, CreateRequest{Path: restoredPath, Name: "pvc-r", CapacityBytes: 1 << 30, Perm: 0o777, ContentSource: "snap-id"})
	if err != nil || !rec.Populating {
		return err
	}
	if err := copyTree(ctx, st, snap.Tree(), restoredPath, copytree.Options{UnpackFrom: snap.PackPath(), TopID: snap.RootID}); err != nil {
		return err
	}
	_, err = st.Populated(ctx, rec)
	return err
}

func copyScenarios() []scenario {
	withVolume := func(t *testing.T, st *Store, sh *memshare.Share) {
		baseDir(t, st, sh)
		madeVolume(t, st, sh)
		if err := sh.Symlink("d/b.txt", volPath+"/link"); err != nil {
			t.Fatal(err)
		}
		// Files enough in one directory that a snapshot reads them in a
		// group (share.FilesReader) and a restore writes them in one.
		for _, f := range []string{"d/b2.txt", "d/b3.txt", "d/b4.txt"} {
			if err := sh.WriteFileDirect(volPath+"/"+f, []byte("data of "+f)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []scenario{
		{name: "CreateSnapshot with its copy", setup: withVolume, call: takeSnapshot},
		{
			name: "CreateVolume from a snapshot with its copy",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				withVolume(t, st, sh)
				if err := takeSnapshot(context.Background(), st); err != nil {
					t.Fatal(err)
				}
			},
			call:   restoreSnapshot,
			create: true,
		},
	}
}
