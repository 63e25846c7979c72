package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// The crash-point enumeration: every mutating store call is run on an
// in-memory share that stops it at its N-th operation, for every N, in
// three ways (the controller died before the request left; the server did
// it but the reply was lost and the controller died; the call's context
// was cancelled there). A new store over the same share, as after a
// restart, then retries the same request until it is answered, and the
// whole share must be what one uninterrupted call leaves. For creates, the
// same cut never retried must leave, after the reclaimer, nothing but what
// the reclaimer's rule keeps.

var uidSeq atomic.Int64

// testUID never repeats, so a stale ID never meets a new volume's.
func testUID() (string, error) { return fmt.Sprintf("cafe%012x", uidSeq.Add(1)), nil }

var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func storeOn(sh *memshare.Share, c *clock) *Store {
	return New(sh.Client()).WithClock(c.now, testUID)
}

var errDied = fmt.Errorf("the controller died: %w", share.ErrUnavailable)

type cutMode int

const (
	dieBefore   cutMode = iota // nothing of operation N happened
	dieAfter                   // operation N happened, its reply was lost
	cancelAt                   // the call's context was cancelled at operation N
	cancelAfter                // operation N went through, and the call's context ended as its reply came
)

func (m cutMode) String() string {
	return [...]string{"die before", "die after", "cancel at", "cancel after"}[m]
}

// scenario is one mutating call: setup lays out the share before it (no
// cuts), call makes the request as the driver does on every retry.
type scenario struct {
	name  string
	setup func(t *testing.T, st *Store, sh *memshare.Share)
	call  func(ctx context.Context, st *Store) error
	// create: the call makes a volume, so a cut never retried must be
	// undone by the reclaimer.
	create bool
	// stale, when set, is a request with an ID from before the call that
	// must change nothing after it (a DeleteVolume resent with a stale ID).
	stale func(ctx context.Context, st *Store) error
	// vol is the directory a create makes, when not volPath.
	vol string
	// notLate, when set, says why the call is not sent again after the
	// reclaimer's passes (checkLateRetry): it is a step of a call, not
	// one a CO sends.
	notLate string
	// window is how many cuts of the call may leave an intent that does
	// not yet say the directory was there first (checkVolumeDir): those
	// between createNew's intent and adopted's rename; none elsewhere.
	window int
}

func (sc scenario) volDir() string {
	if sc.vol != "" {
		return sc.vol
	}
	return volPath
}

const volPath = "base/pvc-a"

// createPVCA is the CreateVolume of pvc-a, as every retry sends it.
func createPVCA(ctx context.Context, st *Store) error {
	rec, err := st.Create(ctx, createReq())
	return answered(rec, err)
}

// answered is a create's success only with the volume's record: the
// driver hands its UID to the CO in the volume ID.
func answered(rec Record, err error) error {
	if err == nil && (rec.UID == "" || rec.Path == "") {
		return fmt.Errorf("%w: %+v", errNoVolume, rec)
	}
	return err
}

// errNoVolume is a create that answered success without a volume's
// record: the crash harness fails on it wherever it comes.
var errNoVolume = errors.New("answered success with no volume")

// createPVCAFromSnapshot is pvc-a's CreateVolume with a snapshot as its
// content source.
func createPVCAFromSnapshot(ctx context.Context, st *Store) error {
	req := createReq()
	req.ContentSource = "snapshot-id"
	return answered(st.Create(ctx, req))
}

func createReq() CreateRequest {
	return CreateRequest{Path: volPath, Name: "pvc-a", CapacityBytes: 1 << 30, Perm: 0o777}
}

// madeVolume creates pvc-a with some data in it, and says its UID.
func madeVolume(t *testing.T, st *Store, sh *memshare.Share) Record {
	t.Helper()
	rec, err := st.Create(context.Background(), createReq())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.txt", "d/b.txt", "d/e/c.txt"} {
		if err := sh.WriteFileDirect(volPath+"/"+f, []byte("data of "+f)); err != nil {
			t.Fatal(err)
		}
	}
	return rec
}

func baseDir(t *testing.T, st *Store, sh *memshare.Share) {
	t.Helper()
	if err := sh.WriteFileDirect("base/bystander/keep.txt", []byte("another tenant's")); err != nil {
		t.Fatal(err)
	}
}

// retainedDir leaves a directory with data where pvc-a's goes, as a
// claim deleted with onDelete: retain does.
func retainedDir(t *testing.T, st *Store, sh *memshare.Share) {
	t.Helper()
	baseDir(t, st, sh)
	if err := sh.WriteFileDirect(volPath+"/kept.txt", []byte("retained")); err != nil {
		t.Fatal(err)
	}
}

// handMadeDir is an empty directory where pvc-a's goes, as an
// administrator makes one with its own owner and ACL for a claim's
// subDir: no create of the driver made it, so no rollback takes it.
func handMadeDir(t *testing.T, st *Store, sh *memshare.Share) {
	t.Helper()
	baseDir(t, st, sh)
	if err := sh.Client().Mkdir(context.Background(), volPath, 0o750); err != nil {
		t.Fatal(err)
	}
}

// warmHandMadeDir is handMadeDir on a warm share (warmShare): a create
// there takes the batched way, whose MKDIR finds the directory.
func warmHandMadeDir(t *testing.T, st *Store, sh *memshare.Share) {
	t.Helper()
	warmShare(t, st, sh)
	if err := sh.Client().Mkdir(context.Background(), volPath, 0o750); err != nil {
		t.Fatal(err)
	}
}

// warmShare is a share on which an earlier volume was made and deleted:
// the metadata directories and the base's holds directory are there, so
// CreateVolume and DeleteVolume take their batches (batched.go).
func warmShare(t *testing.T, st *Store, sh *memshare.Share) {
	t.Helper()
	baseDir(t, st, sh)
	ctx := context.Background()
	rec, err := st.Create(ctx, CreateRequest{Path: "base/pvc-warm", Name: "pvc-warm", Perm: 0o777})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Dispose(ctx, rec.Path, rec.UID, volume.Delete, nil); err != nil {
		t.Fatal(err)
	}
}

// warmScenarios are the batched calls (batched.go), and the plain cases
// they send the step-by-step way.
func warmScenarios() []scenario {
	var uid string
	emptyVolume := func(t *testing.T, st *Store, sh *memshare.Share) {
		warmShare(t, st, sh)
		rec, err := st.Create(context.Background(), createReq())
		if err != nil {
			t.Fatal(err)
		}
		uid = rec.UID
	}
	return []scenario{
		{name: "CreateVolume on a warm share", setup: warmShare, call: createPVCA, create: true},
		{
			// createNew's MKDIR finds it, after the intent was written.
			name:   "CreateVolume on a warm share adopting an empty directory made by hand",
			setup:  warmHandMadeDir,
			call:   createPVCA,
			create: true,
			window: 8 * 4, // the createNew batch's operations after the intent, each cut the 4 ways
		},
		{
			name:   "CreateVolume on a warm share, from a snapshot",
			setup:  warmShare,
			call:   createPVCAFromSnapshot,
			create: true,
		},
		{name: "CreateVolume again, answered before", setup: emptyVolume, call: createPVCA},
		{
			name: "CreateVolume again, its directory removed by hand",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				emptyVolume(t, st, sh)
				if err := sh.Client().(share.Rmdirer).RemoveDir(context.Background(), volPath); err != nil {
					t.Fatal(err)
				}
			},
			call: createPVCA,
		},
		{
			// The retry makes the directory again and records the
			// replaced root; the intent the cut left must be gone before
			// the record stops naming that root, or a later retry renames
			// it onto the mark (markRoot).
			name: "CreateVolume again, cut before its intent became its mark, its directory removed by hand",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				warmShare(t, st, sh)
				sh.SetHook(func(op memshare.Op, when memshare.When) error {
					if strings.Contains(op.Path, rootsDir+"/") { // the rename onto the mark
						return errDied
					}
					return nil
				})
				_, err := st.Create(context.Background(), createReq())
				sh.SetHook(nil)
				if _, rerr := st.record(context.Background(), volPath); err == nil || rerr != nil {
					t.Fatalf("the create was not cut between its commit and its mark: %v, %v", err, rerr)
				}
				if err := sh.Client().(share.Rmdirer).RemoveDir(context.Background(), volPath); err != nil {
					t.Fatal(err)
				}
			},
			call: createPVCA,
		},
		lostScenario("CreateVolume again, its directory removed by hand, its ID another volume's now", true, createPVCA),
		lostScenario("DeleteVolume of a volume whose directory was removed by hand, its ID another volume's now", true, deletePVCA),
		lostScenario("DeleteVolume of a volume whose directory was removed by hand, its ID nobody's", false, deletePVCA),
		{
			name: "CreateVolume where another claim's directory was removed by hand (refused)",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				emptyVolume(t, st, sh)
				if err := sh.Client().(share.Rmdirer).RemoveDir(context.Background(), volPath); err != nil {
					t.Fatal(err)
				}
			},
			call: func(ctx context.Context, st *Store) error {
				req := createReq()
				req.Name = "pvc-other"
				return answered(st.Create(ctx, req))
			},
		},
		{
			name: "CreateVolume inside another volume (refused)",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				emptyVolume(t, st, sh)
			},
			call: func(ctx context.Context, st *Store) error {
				return answered(st.Create(ctx, CreateRequest{Path: volPath + "/inner", Name: "pvc-inner", Perm: 0o777}))
			},
		},
		{
			name:  "DeleteVolume of an empty volume",
			setup: emptyVolume,
			call: func(ctx context.Context, st *Store) error {
				_, _, err := st.Dispose(ctx, volPath, uid, volume.Delete, nil)
				if errors.Is(err, ErrNotFound) {
					return nil
				}
				return err
			},
		},
	}
}

// deletePVCA is pvc-a's DeleteVolume (delete), as every retry sends it;
// a volume already gone answers as deleted.
func deletePVCA(ctx context.Context, st *Store) error {
	rec, err := st.record(ctx, volPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, _, err = st.Dispose(ctx, volPath, rec.UID, volume.Delete, nil)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// lostScenario: pvc-a's directory was removed by hand, and (taken) the
// file system gave its ID to volume b's, whose mark has the same name.
func lostScenario(name string, taken bool, call func(context.Context, *Store) error) scenario {
	return scenario{
		name: name,
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			ctx := context.Background()
			a, err := st.Create(ctx, createReq())
			if err != nil {
				t.Fatal(err)
			}
			if err := sh.Client().(share.Rmdirer).RemoveDir(ctx, volPath); err != nil {
				t.Fatal(err)
			}
			if !taken {
				return
			}
			sh.ReuseDirID(a.RootID)
			if b, err := st.Create(ctx, CreateRequest{Path: "base/b", Name: "b", Perm: 0o777}); err != nil || b.RootID != a.RootID {
				t.Fatalf("volume b: %+v %v, want file ID %d", b, err, a.RootID)
			}
		},
		call: call,
	}
}

func disposeScenario(name string, onDelete volume.OnDelete, extra func(t *testing.T, st *Store, sh *memshare.Share)) scenario {
	var uid string
	return scenario{
		name: name,
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			baseDir(t, st, sh)
			uid = madeVolume(t, st, sh).UID
			if extra != nil {
				extra(t, st, sh)
			}
		},
		call: func(ctx context.Context, st *Store) error {
			_, _, err := st.Dispose(ctx, volPath, uid, onDelete, nil)
			if errors.Is(err, ErrNotFound) {
				return nil
			}
			return err
		},
		stale: func(ctx context.Context, st *Store) error {
			// The claim is made again under the same name, then the old
			// ID's DeleteVolume comes back.
			if _, err := st.Create(ctx, createReq()); err != nil {
				return err
			}
			_, _, err := st.Dispose(ctx, volPath, uid, volume.Delete, nil)
			if !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("a stale ID's DeleteVolume answered %v, want ErrNotFound", err)
			}
			return nil
		},
	}
}

// legacyScenario is DeleteVolume of a v1 volume (a record under its base's
// key, no UID, no root mark) with data in its directory.
func legacyScenario(onDelete volume.OnDelete) scenario {
	return scenario{
		name: fmt.Sprintf("DeleteVolume of a v1 volume (%s)", onDelete),
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			baseDir(t, st, sh)
			if err := sh.WriteFileDirect(volPath+"/a.txt", []byte("data")); err != nil {
				t.Fatal(err)
			}
			if err := st.writeJSON(context.Background(), LegacyRecordPath("base", "pvc-a"), Record{Name: "pvc-a", CapacityBytes: 1}); err != nil {
				t.Fatal(err)
			}
		},
		call: func(ctx context.Context, st *Store) error {
			_, _, err := st.DisposeLegacy(ctx, "base", "pvc-a", onDelete)
			if errors.Is(err, ErrNotFound) {
				return nil
			}
			return err
		},
	}
}

func scenarios() []scenario {
	return []scenario{
		{
			name:   "CreateVolume",
			setup:  baseDir,
			call:   createPVCA,
			create: true,
		},
		{
			name:  "CreateVolume with new parents",
			setup: baseDir,
			call: func(ctx context.Context, st *Store) error {
				return answered(st.Create(ctx, CreateRequest{Path: "base/ns/x/pvc-b", Name: "pvc-b", Perm: 0o777}))
			},
			create: true,
			vol:    "base/ns/x/pvc-b",
		},
		{
			name:   "CreateVolume adopting a retained directory",
			setup:  retainedDir,
			call:   createPVCA,
			create: true,
		},
		{
			name:   "CreateVolume adopting an empty directory made by hand",
			setup:  handMadeDir,
			call:   createPVCA,
			create: true,
		},
		{
			name:   "CreateVolume from a snapshot into an empty directory made by hand",
			setup:  handMadeDir,
			call:   createPVCAFromSnapshot,
			create: true,
		},
		{
			name:   "CreateVolume from a snapshot over a retained directory (refused)",
			setup:  retainedDir,
			call:   createPVCAFromSnapshot,
			create: true,
		},
		{
			name: "CreateVolume where a link leads to another volume (refused)",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				baseDir(t, st, sh)
				if _, err := st.Create(context.Background(), CreateRequest{Path: "base/other", Name: "other", Perm: 0o777}); err != nil {
					t.Fatal(err)
				}
				sh.FollowLinks = true
				if err := sh.Symlink("other", volPath); err != nil {
					t.Fatal(err)
				}
			},
			call:   createPVCA,
			create: true,
		},
		disposeScenario("DeleteVolume", volume.Delete, nil),
		legacyScenario(volume.Delete),
		legacyScenario(volume.Retain),
		legacyScenario(volume.Archive),
		disposeScenario("DeleteVolume (retain)", volume.Retain, nil),
		disposeScenario("DeleteVolume (archive)", volume.Archive, nil),
		disposeScenario("DeleteVolume (archive, first name taken)", volume.Archive, func(t *testing.T, st *Store, sh *memshare.Share) {
			if err := sh.WriteFileDirect("base/"+ArchivePrefix+"pvc-a/old.txt", []byte("an older archive")); err != nil {
				t.Fatal(err)
			}
		}),
		takenArchiveNameScenario(),
		snapshotScenario(),
		{
			name: "DeleteSnapshot",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				snapshotScenario().setup(t, st, sh)
				if err := snapshotScenario().call(context.Background(), st); err != nil {
					t.Fatal(err)
				}
			},
			call: deleteSnap1,
		},
		{
			// The copy stopped (its partial copy, a run's pack): the CO
			// deletes a snapshot it never saw ready.
			name: "DeleteSnapshot of a snapshot whose copy stopped",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				snapshotScenario().setup(t, st, sh)
				snap, err := st.GetSnapshotByName(context.Background(), "snap-1")
				if err != nil {
					t.Fatal(err)
				}
				pack, err := st.RunPack(snap)
				if err != nil {
					t.Fatal(err)
				}
				if err := sh.WriteFileDirect(pack, []byte("pack of a stopped run")); err != nil {
					t.Fatal(err)
				}
			},
			call: deleteSnap1,
		},
		{
			name: "CreateSnapshot record",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				baseDir(t, st, sh)
				madeVolume(t, st, sh)
			},
			call: func(ctx context.Context, st *Store) error {
				_, err := st.CreateSnapshot(ctx, SnapshotRequest{Name: "snap-1", SourceVolumeID: "vol-id", SourcePath: volPath})
				return err
			},
		},
		{
			name: "ControllerExpandVolume",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) {
				baseDir(t, st, sh)
				madeVolume(t, st, sh)
			},
			call: func(ctx context.Context, st *Store) error {
				rec, err := st.record(ctx, volPath)
				if err != nil {
					return err
				}
				_, err = st.Expand(ctx, volPath, rec.UID, 2<<30)
				return err
			},
		},
		{
			name:  "CreateVolumeGroup",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) { baseDir(t, st, sh) },
			call: func(ctx context.Context, st *Store) error {
				_, err := st.CreateVolumeGroup(ctx, "group-1", "nfs://h/export", []string{"v1", "v2"})
				return err
			},
		},
		modifyGroupScenario(),
		deleteGroupScenario(),
		deleteGroupSnapshotScenario(),
		{
			name:  "CreateVolumeGroupSnapshot record",
			setup: func(t *testing.T, st *Store, sh *memshare.Share) { baseDir(t, st, sh) },
			call: func(ctx context.Context, st *Store) error {
				_, err := st.CreateGroup(ctx, "gs-1", []string{"v1", "v2"})
				return err
			},
		},
	}
}

// snapshotScenario completes a snapshot whose copy is whole, as the
// driver's copy job does on every try: a copy in place is recorded ready,
// else the partial copy is moved into place.
func snapshotScenario() scenario {
	return scenario{
		name: "CreateSnapshot completion",
		// The reclaimer takes the snapshot its cut left as abandoned, and
		// the CO's CreateSnapshot then starts it over with its copy:
		// "CreateSnapshot with its copy" is that call.
		notLate: "the last step of a snapshot's copy",
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			baseDir(t, st, sh)
			rec := madeVolume(t, st, sh)
			snap, err := st.CreateSnapshot(context.Background(), SnapshotRequest{Name: "snap-1", SourceVolumeID: "vol-id", SourcePath: rec.Path})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"a.txt", "d/b.txt"} {
				if err := sh.WriteFileDirect(snap.PartialTree()+"/"+f, []byte("copy of "+f)); err != nil {
					t.Fatal(err)
				}
			}
		},
		call: func(ctx context.Context, st *Store) error {
			cur, err := st.GetSnapshotByName(ctx, "snap-1")
			if err != nil || cur.Ready {
				return err
			}
			pack := ""
			if in, err := st.CopyInPlace(ctx, cur); err != nil {
				return err
			} else if !in {
				// The copy of this run: its pack (the tree's files
				// are there already).
				if pack, err = st.RunPack(cur); err != nil {
					return err
				}
				if err := st.writeFile(ctx, pack, []byte("pack of snap-1")); err != nil {
					return err
				}
				cur.Files, cur.Bytes = 2, 30 // what the copy counted
			}
			_, err = st.CompleteSnapshot(ctx, cur, pack)
			return err
		},
	}
}

// modifyGroupScenario changes a volume group's members, as the CSI-Addons
// sidecar's retries of one ModifyVolumeGroupMembership do.
func modifyGroupScenario() scenario {
	return volumeGroupScenario("ModifyVolumeGroupMembership", false, func(ctx context.Context, st *Store, cur VolumeGroup) error {
		_, err := st.SetVolumeGroupMembers(ctx, cur, []string{"v1", "v2", "v3"})
		return err
	})
}

// deleteGroupScenario is DeleteVolumeGroup as the sidecar retries it: a
// group already gone is a success.
func deleteGroupScenario() scenario {
	return volumeGroupScenario("DeleteVolumeGroup", true, func(ctx context.Context, st *Store, cur VolumeGroup) error {
		return st.DeleteVolumeGroup(ctx, cur)
	})
}

// volumeGroupScenario runs call on the current record of a volume group
// that setup made, as each retry of the sidecar's request does; gone says
// that a group already gone is the call's success (a delete).
func volumeGroupScenario(name string, gone bool, call func(ctx context.Context, st *Store, cur VolumeGroup) error) scenario {
	var g VolumeGroup
	return scenario{
		name: name,
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			baseDir(t, st, sh)
			var err error
			if g, err = st.CreateVolumeGroup(context.Background(), "group-1", "nfs://h/export", []string{"v1", "v2"}); err != nil {
				t.Fatal(err)
			}
		},
		call: func(ctx context.Context, st *Store) error {
			cur, err := st.GetVolumeGroup(ctx, g.Key(), g.UID)
			if gone && errors.Is(err, ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			return call(ctx, st, cur)
		},
	}
}

// retryable says whether the driver's caller would send the request again:
// everything but a definite refusal.
func retryable(err error) bool {
	return err != nil && !errors.Is(err, ErrConflict) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNotFound)
}

// answer runs the call until it is answered with success or a refusal.
func answer(t *testing.T, sh *memshare.Share, c *clock, call func(context.Context, *Store) error) error {
	t.Helper()
	var err error
	for range 4 {
		if err = call(context.Background(), storeOn(sh, c)); errors.Is(err, errNoVolume) {
			t.Errorf("a retry %v", err)
		}
		if !retryable(err) {
			return err
		}
	}
	t.Fatalf("still failing after 4 retries: %v", err)
	return err
}

func TestEveryCrashPointConverges(t *testing.T) {
	var report []string
	for _, sc := range append(append(scenarios(), warmScenarios()...), copyScenarios()...) {
		t.Run(sc.name, func(t *testing.T) {
			c, base, ref, refErr := uncut(t, sc.setup, sc.call)
			before := canon(base.Dump())
			if retryable(refErr) {
				t.Fatalf("the uninterrupted call failed: %v", refErr)
			}
			want := canon(ref.Dump())
			ops := ref.Ops()
			if ops == 0 {
				t.Fatal("the call made no share operation")
			}
			report = append(report, fmt.Sprintf("%s: %d operations, %d cuts", sc.name, ops, 4*ops))

			window := 0
			defer func() {
				if window > 0 {
					report = append(report, fmt.Sprintf("%s: %d cuts before the intent said the directory was there first", sc.name, window))
				}
				if window > sc.window {
					t.Errorf("%d cuts left an intent that does not say the directory was there first, want at most %d", window, sc.window)
				}
			}()
			for n := 1; n <= ops; n++ {
				for _, mode := range cutModes {
					sh := base.Clone()
					ctx, cancel := context.WithCancel(context.Background())
					sh.SetHook(cut(n, mode, cancel))
					cutErr := sc.call(ctx, storeOn(sh, c))
					cancel()
					sh.SetHook(nil)
					at := fmt.Sprintf("%s op %d", mode, n)
					if errors.Is(cutErr, errNoVolume) {
						t.Errorf("%s: %v", at, cutErr)
					}
					if cutErr == nil && mode != dieAfter {
						// Only a best-effort step may fail unseen.
						t.Logf("%s: the call succeeded despite the cut", at)
					}
					never := sh.Clone()

					got := answer(t, sh, c, sc.call)
					if (got == nil) != (refErr == nil) || !sameRefusal(got, refErr) {
						t.Errorf("%s: the retry answered %v, the uninterrupted call %v", at, got, refErr)
					}
					if diff := compare(want, canon(sh.Dump())); diff != "" {
						t.Errorf("%s: the share after the retry differs from an uninterrupted call's:\n%s", at, diff)
					}
					if sc.stale != nil {
						after := sh.Clone()
						if err := sc.stale(context.Background(), storeOn(after, c)); err != nil {
							t.Errorf("%s: %v", at, err)
						}
						chk := sh.Clone()
						if _, err := storeOn(chk, c).Create(context.Background(), createReq()); err != nil {
							t.Fatalf("%s: %v", at, err)
						}
						if diff := compare(canon(chk.Dump()), canon(after.Dump())); diff != "" {
							t.Errorf("%s: a stale ID's DeleteVolume changed the share:\n%s", at, diff)
						}
					}
					if sc.create {
						in, _ := storeOn(never, c).intent(context.Background(), sc.volDir())
						if checkReclaimed(t, at, never, c, before, want) {
							window += checkVolumeDir(t, at, base, never, sc.volDir(), in)
						}
					} else {
						reclaim(t, at, never, c)
					}
					if sc.notLate == "" {
						checkLateRetry(t, at, never, c, sc.call, refErr, ref)
					}
				}
			}
		})
	}
	for _, r := range report {
		t.Log(r)
	}
}

// lateCanon is canonical with the records' times made equal: a retry that
// comes after the reclaimer's passes runs hours after the uninterrupted
// call did.
// The time is also in the name of an archive whose plain name was taken,
// and so in the key of its record, which hashes that name.
var lateCanon = memshare.Canon{
	UID:  regexp.MustCompile(`cafe[0-9a-f]{12}|\b[0-9a-f]{32}\b`),
	Time: regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z|\b\d{8}T\d{6}Z\b`),
	IDs:  canonical.IDs,
}

// checkLateRetry is the CO's retry that comes only after the reclaimer
// passed over what the cut left (the controller was down for longer than
// IntentTTL, or the CO's backoff ran that long): sh, reclaimed already,
// must end as after the uninterrupted call (ref), with its answer.
func checkLateRetry(t *testing.T, at string, sh *memshare.Share, c0 *clock, call func(context.Context, *Store) error, refErr error, ref *memshare.Share) {
	t.Helper()
	c := &clock{t: c0.t.Add(4 * (IntentTTL + time.Minute))} // after reclaim's passes
	got := answer(t, sh, c, call)
	if (got == nil) != (refErr == nil) || !sameRefusal(got, refErr) {
		t.Errorf("%s: retried after the reclaimer's passes, the call answered %v, the uninterrupted call %v", at, got, refErr)
	}
	if diff := compare(memshare.WithoutEmptyDirs(lateCanon.Lines(ref.Dump()), Dir), memshare.WithoutEmptyDirs(lateCanon.Lines(sh.Dump()), Dir)); diff != "" {
		t.Errorf("%s: retried after the reclaimer's passes, the share differs from an uninterrupted call's:\n%s", at, diff)
	}
}

// uncut lays out a share with setup (base, on a clock at t0) and runs call
// on a clone of it without a cut: ref is the share the call leaves, err
// its answer. The cut harnesses compare what their cuts leave with it.
func uncut(t *testing.T, setup func(*testing.T, *Store, *memshare.Share), call func(context.Context, *Store) error) (c *clock, base, ref *memshare.Share, err error) {
	t.Helper()
	c = &clock{t: t0}
	base = memshare.New()
	setup(t, storeOn(base, c), base)
	ref = base.Clone()
	ref.SetHook(nil)
	return c, base, ref, call(context.Background(), storeOn(ref, c))
}

// cutModes are the ways a call is cut at one share operation.
var cutModes = []cutMode{dieBefore, dieAfter, cancelAt, cancelAfter}

// eachCut runs call on a clone of base cut at each of its first ops
// operations, every way, and hands fn where it was cut, the share the cut
// left, and the cut call's error.
func eachCut(base *memshare.Share, c *clock, ops int, call func(context.Context, *Store) error, fn func(at string, sh *memshare.Share, cutErr error)) {
	for n := 1; n <= ops; n++ {
		for _, mode := range cutModes {
			sh := base.Clone()
			ctx, cancel := context.WithCancel(context.Background())
			sh.SetHook(cut(n, mode, cancel))
			err := call(ctx, storeOn(sh, c))
			cancel()
			sh.SetHook(nil)
			fn(fmt.Sprintf("%s op %d", mode, n), sh, err)
		}
	}
}

// cut fails the n-th operation as mode says, and every later one.
func cut(n int, mode cutMode, cancel func()) memshare.Hook {
	return func(op memshare.Op, when memshare.When) error {
		switch {
		case op.N < n:
			return nil
		case mode == cancelAt:
			if op.N == n && when == memshare.Before {
				cancel()
			}
			return nil
		case mode == cancelAfter:
			if op.N == n && when == memshare.After {
				cancel()
			}
			return nil
		case mode == dieAfter && op.N == n && when == memshare.Before:
			return nil
		}
		return errDied
	}
}

func sameRefusal(a, b error) bool {
	for _, e := range []error{ErrConflict, ErrInvalid, ErrNotFound} {
		if errors.Is(a, e) != errors.Is(b, e) {
			return false
		}
	}
	return true
}

// checkReclaimed leaves a cut create alone for longer than IntentTTL and
// has the reclaimer pass (more than once, for the leftovers without a
// time): the share must be as before the call when the cut came before the
// commit, and as after an uninterrupted call when it came after (the
// volume exists; only the CO can know it does not want it), but for empty
// directories (the metadata directories, parents made for the volume).
func checkReclaimed(t *testing.T, at string, sh *memshare.Share, c0 *clock, before, after []string) (rolledBack bool) {
	t.Helper()
	// Nothing asks for anything any more: the process that made the call
	// is gone.
	reclaim(t, at, sh, c0)
	got := dropEmptyDirs(canon(sh.Dump()))
	if compare(dropEmptyDirs(after), got) == "" {
		return false
	}
	if diff := compare(dropEmptyDirs(before), got); diff != "" {
		t.Errorf("%s: never retried, the reclaimer left:\n%s", at, diff)
	}
	return true
}

// checkVolumeDir holds a rolled-back create to its volume's directory,
// which checkReclaimed's comparison leaves out when empty: one the create
// made is gone (nothing orphaned), and one that was there before the call
// is there still, the same object (never the driver's to remove). The one
// exception is a cut before the create's intent said the directory was
// there first (Record.AdoptedID: at most a round trip after its MKDIR
// found it): in counts them, and the test reports how many.
func checkVolumeDir(t *testing.T, at string, before, after *memshare.Share, vol string, in Record) (window int) {
	t.Helper()
	was, had := entryAt(before, vol)
	now, has := entryAt(after, vol)
	switch {
	case !had && has:
		t.Errorf("%s: never retried, the directory %s the create made was left", at, vol)
	case had && !has && was.Dir && in.UID != "" && in.AdoptedID != was.ID:
		return 1
	case had && (!has || now.ID != was.ID || now.Dir != was.Dir || now.Link != was.Link):
		t.Errorf("%s: never retried, %s, there before the call (%+v), is now %+v (there: %v)", at, vol, was, now, has)
	}
	return 0
}

func entryAt(sh *memshare.Share, p string) (memshare.Entry, bool) {
	for _, e := range sh.Dump() {
		if e.Path == p {
			return e, true
		}
	}
	return memshare.Entry{}, false
}

func dropEmptyDirs(lines []string) []string {
	var out []string
	for i, l := range lines {
		if strings.HasSuffix(l, "/") && (i+1 == len(lines) || !strings.HasPrefix(lines[i+1], l)) {
			continue
		}
		out = append(out, l)
	}
	// An emptied parent leaves its own parent empty in turn.
	if len(out) != len(lines) {
		return dropEmptyDirs(out)
	}
	return out
}

// canonical writes a share as sorted lines in which what differs between
// two runs of the same protocol and means nothing is made equal: UIDs, and
// file IDs, which are named by the path of the object that has them.
var canonical = memshare.Canon{
	UID: regexp.MustCompile(`cafe[0-9a-f]{12}`),
	IDs: regexp.MustCompile(`(?:roots/|"rootID":)([0-9]+)`),
}

func canon(entries []memshare.Entry) []string { return canonical.Lines(entries) }

func compare(want, got []string) string { return memshare.Diff(want, got) }

// TestReclaimerKeepsWhatAPodWrote: a create cut short and never retried
// whose directory a pod wrote into keeps that directory; everything else
// of it goes.
func TestReclaimerKeepsWhatAPodWrote(t *testing.T) {
	c := &clock{t: t0}
	sh := cutCreate(t, c)
	if _, err := storeOn(sh, c).c.Stat(context.Background(), volPath); err != nil {
		t.Fatalf("the cut create made no directory (cut too early for this test): %v", err)
	}
	if err := sh.WriteFileDirect(volPath+"/pod.txt", []byte("a pod's")); err != nil {
		t.Fatal(err)
	}
	var r Reclaimer
	lock := func(context.Context, string) (func(), error) { return func() {}, nil }
	c.t = c.t.Add(time.Minute)
	rep, err := r.Pass(context.Background(), storeOn(sh, c), "s", lock)
	if err != nil || rep.Intents != 0 {
		t.Fatalf("a fresh intent was undone: %+v, %v", rep, err)
	}
	c.t = c.t.Add(IntentTTL)
	rep, err = r.Pass(context.Background(), storeOn(sh, c), "s", lock)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Intents != 1 || !slices.Equal(rep.Kept, []string{volPath}) {
		t.Errorf("reclaim report %+v, want one intent undone and %s kept", rep, volPath)
	}
	var names []string
	for _, e := range sh.Dump() {
		if !e.Dir {
			names = append(names, e.Path)
		}
	}
	if !slices.Equal(names, []string{volPath + "/pod.txt"}) {
		t.Errorf("after the reclaimer the share holds %v, want only the pod's file", names)
	}
	// The claim is free again.
	if _, err := storeOn(sh, c).Create(context.Background(), createReq()); err != nil {
		t.Errorf("create after the reclaim: %v", err)
	}
}

// TestAnotherClaimTakesAnUnfinishedCreatesPlace: a create cut short before
// its commit was never answered, so another claim whose subDir resolves to
// the same directory gets it, as if it had come first; the first claim's
// late retry is then refused as it would be after any other claim's, and
// nothing of the first is left.
func TestAnotherClaimTakesAnUnfinishedCreatesPlace(t *testing.T) {
	c := &clock{t: t0}
	sh := cutCreate(t, c)
	other := createReq()
	other.Name = "pvc-other"
	rec, err := storeOn(sh, c).Create(context.Background(), other)
	if err != nil || rec.Name != "pvc-other" {
		t.Fatalf("another claim at an unfinished create's directory: %+v, %v", rec, err)
	}
	if _, err := storeOn(sh, c).Create(context.Background(), createReq()); !errors.Is(err, ErrConflict) {
		t.Errorf("the first claim's late retry: %v, want ErrConflict", err)
	}
	if _, err := storeOn(sh, c).c.Stat(context.Background(), intentPath(volPath)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an intent is left: %v", err)
	}
}

// cutCreate is a share on which pvc-a's create died after the MKDIR of its
// directory, before its record, and was never retried.
func cutCreate(t *testing.T, c *clock) *memshare.Share {
	t.Helper()
	sh := memshare.New()
	sh.SetHook(func(op memshare.Op, when memshare.When) error {
		if strings.HasPrefix(op.Path, volumesDir+"/") && (op.Name == "write" || op.Name == "create") {
			return errDied
		}
		return nil
	})
	if _, err := storeOn(sh, c).Create(context.Background(), createReq()); err == nil {
		t.Fatal("the cut create succeeded")
	}
	sh.SetHook(nil)
	return sh
}

// deleteGroupSnapshotScenario is the record's part of
// DeleteVolumeGroupSnapshot (its members go first, each as a snapshot).
func deleteGroupSnapshotScenario() scenario {
	var g Group
	return scenario{
		name: "DeleteVolumeGroupSnapshot record",
		setup: func(t *testing.T, st *Store, sh *memshare.Share) {
			baseDir(t, st, sh)
			var err error
			if g, err = st.CreateGroup(context.Background(), "gs-1", []string{"v1", "v2"}); err != nil {
				t.Fatal(err)
			}
		},
		call: func(ctx context.Context, st *Store) error {
			cur, err := st.GetGroup(ctx, GroupKey(g.Name), g.UID)
			if errors.Is(err, ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			return st.DeleteGroup(ctx, cur)
		},
	}
}

// takenArchiveNameScenario is the retry of a DeleteVolume (archive) cut
// just before its rename, whose saved archive name a directory made by
// hand has taken since: the retry archives under another name, and the
// first name's archive record and holds go (unclaim).
func takenArchiveNameScenario() scenario {
	return disposeScenario("DeleteVolume (archive) again, its saved name taken by hand since", volume.Archive, func(t *testing.T, st *Store, sh *memshare.Share) {
		sh.SetHook(func(op memshare.Op, when memshare.When) error {
			if op.Name == "rename" {
				return errDied
			}
			return nil
		})
		rec, err := st.record(context.Background(), volPath)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = st.Dispose(context.Background(), volPath, rec.UID, volume.Archive, nil)
		sh.SetHook(nil)
		if err == nil {
			t.Fatal("the archive was not cut at its rename")
		}
		if err := sh.WriteFileDirect("base/"+ArchivePrefix+"pvc-a/mine.txt", []byte("an administrator's")); err != nil {
			t.Fatal(err)
		}
	})
}

// deleteSnap1 is DeleteSnapshot of snapshotScenario's snapshot, done when
// it is gone.
func deleteSnap1(ctx context.Context, st *Store) error {
	snap, err := st.GetSnapshotByName(ctx, "snap-1")
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return st.DeleteSnapshot(ctx, snap)
}
