//go:build linux

package integration

import (
	"archive/tar"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// entry is what a restore must give back of one path, as the server's disk
// has it.
type entry struct {
	Type     string
	Mode     fs.FileMode // permissions, setuid, setgid, sticky
	UID, GID uint32
	Size     int64
	MTime    time.Time
	Sum      string // file content
	Link     string // link target
	Blocks   int64  // disk blocks, for sparseness
}

// treeOf reads every entry below dir on the server's disk.
func treeOf(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		e := entry{Mode: fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky), UID: st.Uid, GID: st.Gid, MTime: fi.ModTime(), Blocks: st.Blocks}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Type = "link"
			e.Link, err = os.Readlink(p)
		case fi.IsDir():
			e.Type = "dir"
		default:
			e.Type = "file"
			e.Size = fi.Size()
			e.Sum, err = sumOf(p)
		}
		out[rel] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// snapshotContents reads a snapshot's copy on the server's disk as treeOf
// reads a volume: the tree at dir, and the small files in its pack (a file
// beside the tree, named after the snapshot's UID), as a restore makes
// them.
func snapshotContents(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := treeOf(t, dir)
	uid := strings.TrimSuffix(filepath.Base(dir), ".partial")
	f, err := os.Open(filepath.Join(filepath.Dir(dir), uid+".pack"))
	if err != nil {
		t.Fatalf("the snapshot's pack: %v", err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("read the pack of %s: %v", dir, err)
		}
		if _, dup := out[h.Name]; dup {
			t.Errorf("%s is both in the tree and in the pack of %s", h.Name, dir)
		}
		sum := sha256.New()
		n, err := io.Copy(sum, tr)
		if err != nil {
			t.Fatal(err)
		}
		e := entry{Type: "file", Size: n, MTime: h.ModTime, Sum: hex.EncodeToString(sum.Sum(nil))}
		if h.PAXRecords["FILESHARE.hasmode"] == "1" {
			e.Mode = share.UnixFileMode(uint32(h.Mode))
		}
		if h.PAXRecords["FILESHARE.hasowner"] == "1" {
			e.UID, e.GID = uint32(h.Uid), uint32(h.Gid)
		}
		out[h.Name] = e
	}
}

func sumOf(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sameTree compares two trees field by field: type, content, size, link
// target and modification time everywhere; mode and owner where the
// protocol carries them (NFS). SMB keeps times to 100 ns.
func sameTree(t *testing.T, what string, want, got map[string]entry, unix bool) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s: %s is there and should not be", what, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		w, ok := got[n]
		e := want[n]
		if !ok {
			t.Errorf("%s: %s is missing", what, n)
			continue
		}
		if n == "." || e.Type == "link" {
			// The volume's own directory keeps the new volume's time. A
			// link's own time is sent, but NFS-Ganesha answers a SETATTR of
			// a link's time with success and keeps the old one.
			e.MTime, w.MTime = time.Time{}, time.Time{}
		}
		if !unix {
			e.Mode, w.Mode, e.UID, w.UID, e.GID, w.GID = 0, 0, 0, 0, 0, 0
			e.MTime, w.MTime = e.MTime.Truncate(100), w.MTime.Truncate(100)
		}
		e.Blocks, w.Blocks = 0, 0
		if e.Type == "dir" {
			e.Size, w.Size = 0, 0
		}
		if !e.MTime.Equal(w.MTime) {
			t.Errorf("%s: %s modified %v, want %v", what, n, w.MTime, e.MTime)
		}
		e.MTime, w.MTime = time.Time{}, time.Time{}
		if e != w {
			t.Errorf("%s: %s is %+v, want %+v", what, n, w, e)
		}
	}
}

// fillSnapshotSource writes what a restore must keep: contents, an empty
// file, nested and setgid directories, a sparse file, links, owners and
// times (NFS), each entry with its own time.
func fillSnapshotSource(t *testing.T, dir string, unix bool) {
	t.Helper()
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	must(t, os.MkdirAll(filepath.Join(dir, "a/b/c"), 0o777))
	must(t, os.MkdirAll(filepath.Join(dir, "shared"), 0o777))
	data := make([]byte, 3<<20+5)
	rand.Read(data)
	must(t, os.WriteFile(filepath.Join(dir, "a/b/c/big"), data, 0o640))
	must(t, os.WriteFile(filepath.Join(dir, "a/small"), []byte("small file\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "empty"), nil, 0o600))
	for i := range 30 {
		must(t, os.WriteFile(filepath.Join(dir, "shared", fmt.Sprintf("f%02d", i)), []byte(strings.Repeat("x", i)), 0o664))
	}
	// 24 MiB with data at both ends and a hole between.
	sp, err := os.Create(filepath.Join(dir, "sparse"))
	must(t, err)
	_, err = sp.WriteAt([]byte("head"), 0)
	must(t, err)
	_, err = sp.WriteAt([]byte("tail"), 24<<20-4)
	must(t, err)
	must(t, sp.Close())
	if !unix {
		// The share's user must read what root made on the server's disk.
		must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			mode := fs.FileMode(0o666)
			if d.IsDir() {
				mode = 0o777
			}
			return os.Chmod(p, mode)
		}))
	}
	if unix {
		must(t, os.Chmod(filepath.Join(dir, "shared"), 0o2775|fs.ModeSetgid))
		must(t, os.Chown(filepath.Join(dir, "shared"), 1000, 3000))
		must(t, os.Chown(filepath.Join(dir, "a/b/c/big"), 1234, 2345))
		must(t, os.Symlink("../a/small", filepath.Join(dir, "shared/rel-link")))
		must(t, os.Symlink("/nowhere/at/all", filepath.Join(dir, "dangling")))
		must(t, os.Lchown(filepath.Join(dir, "dangling"), 1234, 2345))
	}
	// Times last, deepest first, at whole microseconds apart.
	base := time.Date(2022, 6, 7, 8, 9, 10, 123456000, time.UTC)
	var paths []string
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir && d.Type()&fs.ModeSymlink == 0 {
			paths = append(paths, p)
		}
		return err
	}))
	for i := len(paths) - 1; i >= 0; i-- {
		ts := base.Add(time.Duration(i) * time.Hour)
		must(t, os.Chtimes(paths[i], ts, ts))
	}
}

func snapshotOf(t *testing.T, c csi.ControllerClient, name, volumeID string, secrets map[string]string) *csi.Snapshot {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		resp, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: name, SourceVolumeId: volumeID, Secrets: secrets})
		if err != nil {
			t.Fatalf("CreateSnapshot %s: %v", name, err)
		}
		if s := resp.GetSnapshot(); s.GetReadyToUse() {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("snapshot %s not ready after 3 minutes", name)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// createFrom makes a volume from a content source, retrying while the copy
// runs past a call's deadline, as csi-provisioner does.
func createFrom(t *testing.T, c csi.ControllerClient, name string, params, secrets map[string]string, cs *csi.VolumeContentSource) *csi.Volume {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: name, Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
			VolumeContentSource: cs,
		})
		cancel()
		if err == nil {
			if resp.GetVolume().GetContentSource() == nil {
				t.Errorf("CreateVolume %s from a content source answered no content source", name)
			}
			return resp.GetVolume()
		}
		if status.Code(err) != codes.Aborted || time.Now().After(deadline) {
			t.Fatalf("CreateVolume %s from %v: %v", name, cs, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func fromSnapshot(id string) *csi.VolumeContentSource {
	return &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: id}}}
}

func fromVolume(id string) *csi.VolumeContentSource {
	return &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: id}}}
}

// Snapshot, write more, restore: the restored tree is the tree at the
// snapshot, field by field. A clone of the live volume is the volume as it
// is now. The source's deletion leaves the snapshot usable; the snapshot's
// deletion removes its copy and nothing else.
func TestSnapshotRestoreAndClone(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		unix := isNFS(t)
		src := create(t, c, "src", params, secrets)
		sdir := filepath.Join(base, "src")
		fillSnapshotSource(t, sdir, unix)
		atSnapshot := treeOf(t, sdir)

		snap := snapshotOf(t, c, "snap-1", src.GetVolumeId(), secrets)
		if snap.GetSizeBytes() != src.GetCapacityBytes() || snap.GetSourceVolumeId() != src.GetVolumeId() || snap.GetCreationTime() == nil {
			t.Errorf("snapshot = %+v; want the source's size %d and ID", snap, src.GetCapacityBytes())
		}
		again := snapshotOf(t, c, "snap-1", src.GetVolumeId(), secrets)
		if again.GetSnapshotId() != snap.GetSnapshotId() {
			t.Errorf("a repeated CreateSnapshot made another snapshot: %s, first %s", again.GetSnapshotId(), snap.GetSnapshotId())
		}
		// The copy lies in the driver's metadata, outside every volume: the
		// large and sparse files in its tree, the small ones in its pack.
		copies, _ := filepath.Glob(filepath.Join(metadataRoot(t), "snapshots", "*"))
		var copyDir string
		for _, p := range copies {
			if fi, err := os.Stat(filepath.Join(p, "a/b/c/big")); err == nil && fi.Mode().IsRegular() {
				copyDir = p
			}
		}
		if copyDir == "" {
			t.Fatalf("no snapshot copy in %s/snapshots", metadataRoot(t))
		}
		if _, err := os.Lstat(filepath.Join(copyDir, "a/small")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a small file is in the snapshot's tree, not its pack: %v", err)
		}
		sameTree(t, "snapshot", atSnapshot, snapshotContents(t, copyDir), unix)

		// The volume moves on.
		writeFile(t, filepath.Join(sdir, "a/small"), "changed after the snapshot")
		writeFile(t, filepath.Join(sdir, "new-after"), "new")
		must(t, os.Remove(filepath.Join(sdir, "empty")))

		restored := createFrom(t, c, "restored", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		if restored.GetCapacityBytes() < snap.GetSizeBytes() {
			t.Errorf("restored volume has %d bytes, less than the snapshot's %d", restored.GetCapacityBytes(), snap.GetSizeBytes())
		}
		rtree := treeOf(t, filepath.Join(base, "restored"))
		sameTree(t, "restore", atSnapshot, rtree, unix)
		if orig, got := atSnapshot["sparse"].Blocks, rtree["sparse"].Blocks; got > orig+2*(1<<20)/512 {
			t.Errorf("the restored sparse file takes %d blocks, the original %d: its hole was written out", got, orig)
		}

		clone := createFrom(t, c, "clone", params, secrets, fromVolume(src.GetVolumeId()))
		sameTree(t, "clone", treeOf(t, sdir), treeOf(t, filepath.Join(base, "clone")), unix)
		_ = clone

		// Listing: by snapshot ID, by source volume, and not for others.
		list, err := c.ListSnapshots(context.Background(), &csi.ListSnapshotsRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets})
		if err != nil || len(list.GetEntries()) != 1 || !list.GetEntries()[0].GetSnapshot().GetReadyToUse() {
			t.Errorf("ListSnapshots by ID = %v, %v; want the ready snapshot", list, err)
		}
		list, err = c.ListSnapshots(context.Background(), &csi.ListSnapshotsRequest{SourceVolumeId: src.GetVolumeId(), Secrets: secrets})
		if err != nil || len(list.GetEntries()) != 1 {
			t.Errorf("ListSnapshots by source = %v, %v; want one snapshot", list, err)
		}
		list, err = c.ListSnapshots(context.Background(), &csi.ListSnapshotsRequest{SourceVolumeId: clone.GetVolumeId(), Secrets: secrets})
		if err != nil || len(list.GetEntries()) != 0 {
			t.Errorf("ListSnapshots of the clone = %v, %v; want none", list, err)
		}

		// Same name, other volume: refused.
		_, err = c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: clone.GetVolumeId(), Secrets: secrets})
		wantCode(t, "CreateSnapshot with a taken name", err, codes.AlreadyExists)

		// Deleting the source keeps the snapshot.
		deleteVol(t, c, src.GetVolumeId(), secrets)
		late := createFrom(t, c, "restored-late", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		sameTree(t, "restore after the source was deleted", atSnapshot, treeOf(t, filepath.Join(base, "restored-late")), unix)
		_ = late

		// Deleting the snapshot removes its copy, and only that.
		for range 2 {
			if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
				t.Fatalf("DeleteSnapshot: %v", err)
			}
		}
		for _, p := range []string{copyDir, copyDir + ".pack"} {
			if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a snapshot copy is left: %s (%v)", p, err)
			}
		}
		sameTree(t, "restore after the snapshot was deleted", atSnapshot, treeOf(t, filepath.Join(base, "restored")), unix)
		_, err = c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
			Name: "from-deleted", Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
			VolumeContentSource: fromSnapshot(snap.GetSnapshotId()),
		})
		wantCode(t, "restore from a deleted snapshot", err, codes.NotFound)
		for _, v := range []*csi.Volume{restored, clone, late} {
			deleteVol(t, c, v.GetVolumeId(), secrets)
		}
	})
}

// A link in the volume to another volume is copied as a link (NFS) and the
// other volume is never read into the snapshot. Samba shows an in-share
// link as the directory it leads to, which is another volume's root (or
// the share above): the walk may not enter it, and a snapshot without it
// would pass for the whole volume, so there is none: FailedPrecondition
// naming the directory, until the links are gone.
func TestSnapshotNeverReadsAnotherVolume(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		victim := create(t, c, "victim", params, secrets)
		writeFile(t, filepath.Join(base, "victim", "secret"), "the victim's data")
		src := create(t, c, "src", params, secrets)
		sdir := filepath.Join(base, "src")
		writeFile(t, filepath.Join(sdir, "mine"), "mine")
		must(t, os.Symlink("../victim", filepath.Join(sdir, "to-victim")))
		must(t, os.Symlink(filepath.Join(base, "victim"), filepath.Join(sdir, "abs-victim")))
		must(t, os.Symlink("../..", filepath.Join(sdir, "up")))

		if !isNFS(t) {
			_, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "snap-link", SourceVolumeId: src.GetVolumeId(), Secrets: secrets})
			wantCode(t, "a snapshot of a volume whose links Samba resolves", err, codes.FailedPrecondition)
			if err != nil && !strings.Contains(err.Error(), "src/") {
				t.Errorf("the refusal does not name the directory: %v", err)
			}
			for _, l := range []string{"to-victim", "abs-victim", "up"} {
				must(t, os.Remove(filepath.Join(sdir, l)))
			}
		}
		snap := snapshotOf(t, c, "snap-link", src.GetVolumeId(), secrets)
		restored := createFrom(t, c, "restored", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		rdir := filepath.Join(base, "restored")
		mustRead(t, filepath.Join(rdir, "mine"), "mine")
		err := filepath.WalkDir(rdir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "secret" {
				t.Errorf("the victim's file was copied into the restore: %s", p)
			}
			return err
		})
		must(t, err)
		if isNFS(t) {
			if target, err := os.Readlink(filepath.Join(rdir, "to-victim")); err != nil || target != "../victim" {
				t.Errorf("the link was not copied as a link: %q, %v", target, err)
			}
		}
		mustRead(t, filepath.Join(base, "victim", "secret"), "the victim's data")
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		mustRead(t, filepath.Join(base, "victim", "secret"), "the victim's data")
		for _, v := range []*csi.Volume{restored, src, victim} {
			deleteVol(t, c, v.GetVolumeId(), secrets)
		}
	})
}

// A restore never writes outside its volume, whatever the snapshot's pack
// holds (whoever can write the share's .fileshare-csi can write a pack).
// On SMB a backslash separates names and Samba resolves a ".." between
// them, so an entry `x\..\..\victim\secret` is another volume's file
// there: the restore is refused. On NFS it is one odd name, which the
// restore may make inside its own volume.
func TestARestoreNeverWritesWhereATamperedPackPoints(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		victim := create(t, c, "victim", params, secrets)
		writeFile(t, filepath.Join(base, "victim", "secret"), "the victim's data")
		src := create(t, c, "src", params, secrets)
		writeFile(t, filepath.Join(base, "src", "mine"), "mine")
		packs := filepath.Join(metadataRoot(t), "snapshots", "*.pack")
		before, _ := filepath.Glob(packs)
		snap := snapshotOf(t, c, "snap-tampered", src.GetVolumeId(), secrets)
		after, _ := filepath.Glob(packs)
		var pack string
		for _, p := range after {
			if !slices.Contains(before, p) {
				pack = p
			}
		}
		if pack == "" {
			t.Fatalf("no new pack among %v", after)
		}
		var tampered strings.Builder
		tw := tar.NewWriter(&tampered)
		data := "overwritten by a restore"
		must(t, tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: `x\..\..\victim\secret`, Size: int64(len(data)), Mode: 0o644, Format: tar.FormatPAX}))
		_, err := tw.Write([]byte(data))
		must(t, err)
		must(t, tw.Close())
		must(t, os.WriteFile(pack, []byte(tampered.String()), 0o644))

		var restored *csi.Volume
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			var resp *csi.CreateVolumeResponse
			resp, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{
				Name: "restored", Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
				VolumeContentSource: fromSnapshot(snap.GetSnapshotId()),
			})
			cancel()
			restored = resp.GetVolume()
			if status.Code(err) != codes.Aborted || time.Now().After(deadline) {
				break
			}
		}
		mustRead(t, filepath.Join(base, "victim", "secret"), "the victim's data")
		switch {
		case !isNFS(t) && err == nil:
			t.Errorf("a restore from a pack whose entry leads out of the volume on SMB succeeded")
		case isNFS(t) && err != nil:
			t.Errorf("a restore of a name with backslashes on NFS: %v", err)
		case isNFS(t):
			mustRead(t, filepath.Join(base, "restored", `x\..\..\victim\secret`), data)
		}
		if restored != nil {
			deleteVol(t, c, restored.GetVolumeId(), secrets)
		}
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		for _, v := range []*csi.Volume{src, victim} {
			deleteVol(t, c, v.GetVolumeId(), secrets)
		}
	})
}

// Bad input gets the spec's codes.
func TestSnapshotBadInput(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		esc := func(s string) string { return strings.NewReplacer("%", "%25", "#", "%23").Replace(s) }
		_, err := c.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "x", SourceVolumeId: "v2#" + esc(params["source"]) + "#gone#delete#0123456789abcdef", Secrets: secrets})
		wantCode(t, "CreateSnapshot of a volume that does not exist", err, codes.NotFound)
		_, err = c.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "x", SourceVolumeId: "not-an-id", Secrets: secrets})
		wantCode(t, "CreateSnapshot of a foreign ID", err, codes.NotFound)
		restore := func(snapshotID string) error {
			_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "x", Parameters: params, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
				VolumeContentSource: fromSnapshot(snapshotID)})
			return err
		}
		wantCode(t, "restore from a forged snapshot ID", restore("s1#"+esc(params["source"])+"#00000000000000000000000000000000#0123456789abcdef"), codes.NotFound)
		wantCode(t, "restore from a snapshot ID of no format", restore("garbage"), codes.NotFound)
		other := smbSource("x")
		if !isNFS(t) {
			other = nfsSource("x")
		}
		wantCode(t, "restore across protocols", restore("s1#"+esc(other)+"#00000000000000000000000000000000#0123456789abcdef"), codes.InvalidArgument)
		if _, err := os.Stat(filepath.Join(base, "x")); !os.IsNotExist(err) {
			t.Errorf("a refused restore left a directory: %v", err)
		}
		_, err = c.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: "garbage"})
		wantCode(t, "DeleteSnapshot of a foreign ID", err, codes.OK)
		_, err = c.ListSnapshots(ctx, &csi.ListSnapshotsRequest{StartingToken: "nope"})
		wantCode(t, "ListSnapshots with a bad token", err, codes.Aborted)
	})
}

// A group snapshot of three volumes: one snapshot of each, restorable one by
// one, and deleted together without touching the volumes.
func TestGroupSnapshot(t *testing.T) {
	conn := dial(t)
	c, gc := csi.NewControllerClient(conn), csi.NewGroupControllerClient(conn)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		var ids []string
		trees := map[string]map[string]entry{}
		for _, name := range []string{"db", "logs", "media"} {
			v := create(t, c, name, params, secrets)
			writeFile(t, filepath.Join(base, name, "data", name+".txt"), "contents of "+name)
			ids = append(ids, v.GetVolumeId())
			trees[v.GetVolumeId()] = treeOf(t, filepath.Join(base, name))
		}
		var group *csi.VolumeGroupSnapshot
		deadline := time.Now().Add(2 * time.Minute)
		for group.GetReadyToUse() == false {
			resp, err := gc.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "nightly", SourceVolumeIds: ids, Secrets: secrets})
			if err != nil {
				t.Fatalf("CreateVolumeGroupSnapshot: %v", err)
			}
			if group != nil && resp.GetGroupSnapshot().GetGroupSnapshotId() != group.GetGroupSnapshotId() {
				t.Fatalf("a repeated CreateVolumeGroupSnapshot made another group: %s, first %s", resp.GetGroupSnapshot().GetGroupSnapshotId(), group.GetGroupSnapshotId())
			}
			group = resp.GetGroupSnapshot()
			if time.Now().After(deadline) {
				t.Fatal("group snapshot not ready after 2 minutes")
			}
		}
		if len(group.GetSnapshots()) != 3 {
			t.Fatalf("group has %d snapshots, want 3", len(group.GetSnapshots()))
		}
		got, err := gc.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), Secrets: secrets})
		if err != nil || !got.GetGroupSnapshot().GetReadyToUse() || len(got.GetGroupSnapshot().GetSnapshots()) != 3 {
			t.Fatalf("GetVolumeGroupSnapshot = %v, %v", got, err)
		}
		for _, s := range group.GetSnapshots() {
			if s.GetGroupSnapshotId() != group.GetGroupSnapshotId() || !s.GetReadyToUse() {
				t.Errorf("member %+v does not name its group or is not ready", s)
			}
		}
		// The members change; a member restored is the member at the snapshot.
		for _, name := range []string{"db", "logs", "media"} {
			writeFile(t, filepath.Join(base, name, "data", name+".txt"), "changed")
		}
		member := group.GetSnapshots()[1]
		restored := createFrom(t, c, "restored-member", params, secrets, fromSnapshot(member.GetSnapshotId()))
		sameTree(t, "restored member", trees[member.GetSourceVolumeId()], treeOf(t, filepath.Join(base, "restored-member")), isNFS(t))

		_, err = gc.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "nightly", SourceVolumeIds: ids[:2], Secrets: secrets})
		wantCode(t, "the group's name for other volumes", err, codes.AlreadyExists)
		other := smbSource("x")
		if !isNFS(t) {
			other = nfsSource("x")
		}
		_, err = gc.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "mixed", SourceVolumeIds: []string{ids[0], "v2#" + strings.ReplaceAll(other, "#", "%23") + "#x#delete#0123456789abcdef"}, Secrets: secrets})
		wantCode(t, "a group across shares", err, codes.FailedPrecondition)

		// snapshot_ids must name the group's snapshots (the spec's
		// "snapshot list mismatch"), and a Delete that names others
		// deletes nothing.
		var members []string
		for _, s := range group.GetSnapshots() {
			members = append(members, s.GetSnapshotId())
		}
		stranger := members[2][:len(members[2])-16] + "ffffffffffffffff"
		_, err = gc.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), SnapshotIds: members[:2], Secrets: secrets})
		wantCode(t, "GetVolumeGroupSnapshot naming two of its three snapshots", err, codes.InvalidArgument)
		got, err = gc.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), SnapshotIds: []string{members[2], members[0], members[1]}, Secrets: secrets})
		if err != nil || len(got.GetGroupSnapshot().GetSnapshots()) != 3 {
			t.Fatalf("GetVolumeGroupSnapshot naming its snapshots = %v, %v", got, err)
		}
		_, err = gc.DeleteVolumeGroupSnapshot(ctx, &csi.DeleteVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), SnapshotIds: []string{members[0], members[1], stranger}, Secrets: secrets})
		wantCode(t, "DeleteVolumeGroupSnapshot naming a snapshot not of the group", err, codes.InvalidArgument)
		for _, id := range members {
			list, err := c.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SnapshotId: id, Secrets: secrets})
			if err != nil || len(list.GetEntries()) != 1 {
				t.Fatalf("member %s is gone after a refused DeleteVolumeGroupSnapshot: %v, %v", id, list, err)
			}
		}
		for range 2 {
			if _, err := gc.DeleteVolumeGroupSnapshot(ctx, &csi.DeleteVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), SnapshotIds: members, Secrets: secrets}); err != nil {
				t.Fatalf("DeleteVolumeGroupSnapshot: %v", err)
			}
		}
		_, err = gc.GetVolumeGroupSnapshot(ctx, &csi.GetVolumeGroupSnapshotRequest{GroupSnapshotId: group.GetGroupSnapshotId(), Secrets: secrets})
		wantCode(t, "GetVolumeGroupSnapshot of a deleted group", err, codes.NotFound)
		for _, s := range group.GetSnapshots() {
			list, err := c.ListSnapshots(ctx, &csi.ListSnapshotsRequest{SnapshotId: s.GetSnapshotId(), Secrets: secrets})
			if err != nil || len(list.GetEntries()) != 0 {
				t.Errorf("member %s is still listed after its group was deleted: %v, %v", s.GetSnapshotId(), list, err)
			}
		}
		for _, name := range []string{"db", "logs", "media"} {
			mustRead(t, filepath.Join(base, name, "data", name+".txt"), "changed")
		}
		mustRead(t, filepath.Join(base, "restored-member", "data", "logs.txt"), "contents of logs")
		for _, id := range append(ids, restored.GetVolumeId()) {
			deleteVol(t, c, id, secrets)
		}
	})
}

// A controller killed in the middle of a snapshot's copy leaves no snapshot
// marked ready; the next controller's CreateSnapshot resumes the copy,
// skipping what is complete, and ends with one whole copy and no leftovers.
// The killed controller's beat stays on the share (the copy fence,
// pkg/driver/beat.go): a controller of another pod answers "not ready"
// and copies nothing, as it would beside a live process's copy (it takes
// the copy over once the beat has stayed the same for 30 seconds, which
// pkg/driver's TestACopyAnotherProcessBeatsForIsNotStartedBesideIt shows);
// the next container of the killed one's pod takes the copy over at once.
func TestSnapshotResumesAfterAControllerRestart(t *testing.T) {
	const pod, otherPod = "5d0c9a52-1b7e-4f43-a0d2-6f1e0c3b7a11", "9e8d7c6b-5a49-4382-b1a0-0f1e2d3c4b5a"
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		first := ownDriver(t, "restart-1", "--pod-uid", pod)
		v := create(t, csi.NewControllerClient(first.Conn), "big", params, secrets)
		src := filepath.Join(base, "big")
		// Small files go into the snapshot's pack, which a resumed copy
		// writes again; each directory's file of just over 1 MiB goes into
		// its tree, where a resumed copy skips what is complete. The kill
		// comes once some of those are complete. Under emulation (the VM)
		// the copy is slow enough to be caught with fewer files.
		dirs, files, killAt := 20, 60, 4
		if kernelNFS() {
			dirs, files, killAt = 10, 30, 3
		}
		large := make([]byte, 1<<20+1)
		rand.Read(large)
		for d := range dirs {
			for f := range files {
				writeFile(t, filepath.Join(src, fmt.Sprintf("d%02d/f%03d", d, f)), strings.Repeat(fmt.Sprintf("%d/%d ", d, f), 50))
			}
			writeFile(t, filepath.Join(src, fmt.Sprintf("d%02d/large", d)), string(large))
		}
		if isNFS(t) {
			must(t, filepath.WalkDir(src, func(p string, _ fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				return os.Chown(p, 4321, 4321)
			}))
		}
		want := treeOf(t, src)

		// The first controller starts the copy and is killed once part of
		// it is there. The call itself gives up early: the copy goes on.
		// On a loaded machine 300 ms may pass before the call has written
		// its record and started the copy: then it is asked again (the
		// same name, so the same snapshot), as the CO would. The call runs
		// beside the watch, not before it: on a fast machine the whole
		// copy (21 MB, 1,220 files) takes 300 ms.
		var calls sync.WaitGroup
		defer calls.Wait()
		start := func() {
			calls.Add(1)
			go func() {
				defer calls.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				_, _ = csi.NewControllerClient(first.Conn).CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "resumed", SourceVolumeId: v.GetVolumeId(), Secrets: secrets})
			}()
		}
		start()
		asked := time.Now()
		var partial string
		copiedBefore := 0
		for deadline := time.Now().Add(time.Minute); copiedBefore < killAt; time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the copy did not get going (%d entries in %q)", copiedBefore, partial)
			}
			found, _ := filepath.Glob(filepath.Join(metadataRoot(t), "snapshots", "*.partial"))
			if len(found) != 1 {
				if time.Since(asked) > 2*time.Second {
					start()
					asked = time.Now()
				}
				continue
			}
			partial, copiedBefore = found[0], 0
			// A large file is complete once it has its time (set last).
			_ = filepath.WalkDir(partial, func(p string, d fs.DirEntry, err error) error {
				if fi, ierr := os.Lstat(p); err == nil && ierr == nil && d.Name() == "large" && fi.Size() == int64(len(large)) && fi.ModTime().Truncate(100).Equal(wantTime(want, partial, p).Truncate(100)) {
					copiedBefore++
				}
				return nil
			})
		}
		must(t, first.Cmd.Process.Kill())
		first.Stop()
		uid := strings.TrimSuffix(filepath.Base(partial), ".partial")
		if _, err := os.Stat(filepath.Join(metadataRoot(t), "snapshots", uid)); !os.IsNotExist(err) {
			t.Fatalf("the copy finished before the controller was killed (%v): make the tree larger", err)
		}

		beat := filepath.Join(metadataRoot(t), "busy", uid)
		left, err := os.ReadFile(beat)
		if err != nil {
			t.Fatalf("the killed controller left no beat: %v", err)
		}
		other := ownDriver(t, "restart-other", "--pod-uid", otherPod)
		for range 2 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			resp, err := csi.NewControllerClient(other.Conn).CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "resumed", SourceVolumeId: v.GetVolumeId(), Secrets: secrets})
			cancel()
			if err != nil || resp.GetSnapshot().GetReadyToUse() {
				t.Fatalf("a controller of another pod, beside the killed one's beat: %v, %v; want not ready", resp, err)
			}
			time.Sleep(time.Second)
		}
		if now, err := os.ReadFile(beat); err != nil || string(now) != string(left) {
			t.Fatalf("a controller of another pod beat for the copy within 30 s of the last beat (%q, was %q, %v)", now, left, err)
		}
		other.Stop()

		second := ownDriver(t, "restart-2", "--pod-uid", pod)
		snap := snapshotOf(t, csi.NewControllerClient(second.Conn), "resumed", v.GetVolumeId(), secrets)
		sid := snap.GetSnapshotId()
		if !strings.HasSuffix(sid, "#"+uid) {
			t.Fatalf("the second controller made another snapshot: %s, the first copied into %s", sid, partial)
		}
		rec, err := os.ReadFile(filepath.Join(metadataRoot(t), "snapshots", snapshotKeyOf(sid)+".json"))
		if err != nil || !strings.Contains(string(rec), `"ready":true`) {
			t.Fatalf("the record says %s (%v); want it ready", rec, err)
		}
		sameTree(t, "resumed snapshot", want, snapshotContents(t, filepath.Join(metadataRoot(t), "snapshots", uid)), isNFS(t))
		if _, err := os.Stat(partial); !os.IsNotExist(err) {
			t.Errorf("the partial copy is left behind: %v", err)
		}
		log, _ := second.Log()
		if m := regexp.MustCompile(`"snapshot ready".* resumed=([0-9]+)`).FindSubmatch(log); m == nil || string(m[1]) == "0" {
			t.Errorf("the second controller did not resume the copy (%q)", m)
		}
		if !strings.Contains(string(log), "taking over the copy an earlier container of this pod left") {
			t.Error("the next container of the pod did not take the copy over as its pod's (see its log)")
		}
		c := csi.NewControllerClient(second.Conn)
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: sid, Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		deleteVol(t, c, v.GetVolumeId(), secrets)
	})
}

// wantTime is the time the copy of p, below the copy's top, must end
// with: the source's, as want has it (SMB keeps it to 100 ns).
func wantTime(want map[string]entry, top, p string) time.Time {
	rel, _ := filepath.Rel(top, p)
	return want[rel].MTime
}

// snapshotKeyOf is the record key field of a snapshot ID.
func snapshotKeyOf(id string) string {
	f := strings.Split(id, "#")
	return f[len(f)-2]
}

// peakRSS is a process's highest resident set so far, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+([0-9]+) kB`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/%d/status", pid)
	}
	var kb int64
	fmt.Sscan(string(m[1]), &kb)
	return kb << 10
}

// A 1 GiB file is snapshotted and restored a chunk at a time: the
// controller's peak memory grows by a few chunks, not by the file.
func TestSnapshotOfALargeFileStaysWithinMemory(t *testing.T) {
	if kernelNFS() {
		t.Skip("the test VM keeps its files in a tmpfs within 3 GiB of memory, where three copies of 1 GiB do not fit; the host suite runs this")
	}
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		d := ownDriver(t, "large-file")
		c := csi.NewControllerClient(d.Conn)
		v := create(t, c, "large", params, secrets)
		p := filepath.Join(base, "large", "disk.img")
		f, err := os.Create(p)
		must(t, err)
		block := make([]byte, 4<<20)
		for i := range block {
			block[i] = byte(i*7 + 1)
		}
		for range 256 {
			_, err := f.Write(block)
			must(t, err)
		}
		must(t, f.Close())
		if !isNFS(t) {
			must(t, os.Chmod(p, 0o666))
		}
		before := peakRSS(t, d.Pid())
		snap := snapshotOf(t, c, "large-snap", v.GetVolumeId(), secrets)
		restored := createFrom(t, c, "large-restored", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		grown := peakRSS(t, d.Pid()) - before
		t.Logf("peak RSS %d MiB before, grown by %d MiB over a 1 GiB snapshot and restore", before>>20, grown>>20)
		if grown > 64<<20 {
			t.Errorf("the controller's peak memory grew by %d MiB copying a 1 GiB file: it is not streamed", grown>>20)
		}
		want, err := sumOf(p)
		must(t, err)
		if got, err := sumOf(filepath.Join(base, "large-restored", "disk.img")); err != nil || got != want {
			t.Errorf("the restored file differs (%v)", err)
		}
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
			t.Fatal(err)
		}
		deleteVol(t, c, restored.GetVolumeId(), secrets)
		deleteVol(t, c, v.GetVolumeId(), secrets)
	})
}

// TestStaleRootMarkNeverDropsADirectoryFromACopy: archives keep their root
// marks, and whoever removes an archive by hand leaves its mark behind. The
// file system may then give the archive's inode to a directory inside a
// volume, and every snapshot of that volume used to leave the directory out
// and still report ready. The mark names the paths of its directory now: a
// mark whose path leads elsewhere is stale and the directory is copied. A
// mark of an earlier version (it names no path) cannot be told from a live
// one: the snapshot fails with FailedPrecondition naming the directory
// instead of passing for the whole volume. (The inode's reuse is staged:
// the mark is written for the directory's inode, naming a removed archive.)
func TestStaleRootMarkNeverDropsADirectoryFromACopy(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		src := create(t, c, "src", params, secrets)
		writeFile(t, filepath.Join(base, "src", "d", "inside"), "in d")
		var st syscall.Stat_t
		must(t, syscall.Stat(filepath.Join(base, "src", "d"), &st))
		mark := filepath.Join(metadataRoot(t), "roots", strconv.FormatUint(st.Ino, 10))
		must(t, os.WriteFile(mark, []byte(`{"paths":["`+filepath.Base(base)+`/archived-gone"]}`), 0o644))
		defer os.Remove(mark)

		snap := snapshotOf(t, c, "stale-mark", src.GetVolumeId(), secrets)
		restored := createFrom(t, c, "restored", params, secrets, fromSnapshot(snap.GetSnapshotId()))
		mustRead(t, filepath.Join(base, "restored", "d", "inside"), "in d")

		must(t, os.WriteFile(mark, nil, 0o644)) // a mark that names no path
		_, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "old-mark", SourceVolumeId: src.GetVolumeId(), Secrets: secrets})
		wantCode(t, "a snapshot of a volume holding a directory an old mark names", err, codes.FailedPrecondition)
		if err != nil && !strings.Contains(err.Error(), "src/d") {
			t.Errorf("the refusal does not name the directory: %v", err)
		}
		must(t, os.Remove(mark))
		late := snapshotOf(t, c, "old-mark", src.GetVolumeId(), secrets)
		for _, sid := range []string{snap.GetSnapshotId(), late.GetSnapshotId()} {
			if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: sid, Secrets: secrets}); err != nil {
				t.Fatal(err)
			}
		}
		for _, v := range []*csi.Volume{restored, src} {
			deleteVol(t, c, v.GetVolumeId(), secrets)
		}
	})
}
