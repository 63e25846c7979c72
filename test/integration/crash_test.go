//go:build linux

package integration

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestCreateVolumeCutByItsDeadlineConverges sends CreateVolumes with
// deadlines shorter than a create takes on loopback, so the driver is cut
// between two of its steps on the real servers, then retries each with a
// long deadline as csi-provisioner does: every retry must succeed (before
// the intent protocol, about half answered AlreadyExists forever), and once
// the volumes are deleted the metadata must hold nothing more than before.
func TestCreateVolumeCutByItsDeadlineConverges(t *testing.T) {
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		c := controller(t)
		meta := metadataRoot(t)
		before := metadataFiles(meta)
		var ids []string
		cuts := 0
		for i := range 16 {
			name := "cut-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + string(rune('a'+i))
			req := &csi.CreateVolumeRequest{Name: name, Parameters: params, Secrets: secrets,
				VolumeCapabilities: []*csi.VolumeCapability{mountCap},
				CapacityRange:      &csi.CapacityRange{RequiredBytes: 1 << 20}}
			deadline := 200*time.Microsecond + time.Duration(i)*750*time.Microsecond
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			if _, err := c.CreateVolume(ctx, req); err != nil {
				cuts++
			}
			cancel()
			var resp *csi.CreateVolumeResponse
			var err error
			// The cut call may still hold the volume's lock for a while on
			// a loaded machine: retried for up to 30 s, as the CO would.
			for end := time.Now().Add(30 * time.Second); ; {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				resp, err = c.CreateVolume(ctx, req)
				cancel()
				if code := status.Code(err); (code != codes.Aborted && code != codes.Unavailable) || time.Now().After(end) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if err != nil {
				t.Errorf("%s (first deadline %v): the retry answered %v", name, deadline, err)
				continue
			}
			ids = append(ids, resp.GetVolume().GetVolumeId())
		}
		t.Logf("%d of 16 creates were cut by their deadline; all retries checked", cuts)
		if cuts == 0 {
			t.Log("no create was cut: this server answered within every deadline")
		}
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, err := c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets})
			cancel()
			if err != nil {
				t.Errorf("DeleteVolume %s: %v", id, err)
			}
		}
		for _, c := range changedMetadata(before, metadataFiles(meta), false) {
			t.Errorf("after every volume was deleted, %s: orphaned", c)
		}
		entries, _ := os.ReadDir(base)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "cut-") {
				t.Errorf("a volume directory is left in the base: %s", e.Name())
			}
		}
	})
}

// metadataFiles lists the files in each of the driver's metadata
// directories (holds together), and temporaries apart, by their paths
// under meta, leaving out those in skip.
func metadataFiles(meta string, skip ...map[string]bool) map[string][]string {
	out := map[string][]string{}
	_ = filepath.WalkDir(meta, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(meta, p)
		if len(skip) > 0 && skip[0][rel] {
			return nil
		}
		dir, _, _ := strings.Cut(rel, string(filepath.Separator))
		if strings.HasPrefix(e.Name(), ".tmp-") {
			dir = "temporaries"
		}
		out[dir] = append(out[dir], rel)
		return nil
	})
	return out
}

// staleMarks are the root marks under meta (share root/.fileshare-csi)
// whose file ID no directory on the share has: left by a directory that a
// test removed behind the driver's back. The file system may give the ID
// to a volume made later, whose DeleteVolume then removes the mark with
// its own, which is no orphan and no loss. live, a volume directory that
// must have a mark, checks that file IDs are inode numbers here.
func staleMarks(t *testing.T, meta, live string) map[string]bool {
	t.Helper()
	dirs := map[uint64]bool{}
	_ = filepath.WalkDir(filepath.Dir(meta), func(p string, e os.DirEntry, err error) error {
		if err == nil && e.IsDir() {
			if fi, err := e.Info(); err == nil {
				dirs[fi.Sys().(*syscall.Stat_t).Ino] = true
			}
		}
		return nil
	})
	fi, err := os.Stat(live)
	if err != nil {
		t.Fatal(err)
	}
	liveMark := filepath.Join("roots", strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10))
	stale := map[string]bool{}
	found := false
	for _, rel := range metadataFiles(meta)["roots"] {
		id, err := strconv.ParseUint(filepath.Base(rel), 10, 64)
		found = found || rel == liveMark
		if err == nil && !dirs[id] {
			stale[rel] = true
		}
	}
	if !found {
		t.Fatalf("%s has no mark named by its inode number (%s): file IDs are not inode numbers on this server", live, liveMark)
	}
	return stale
}

// changedMetadata says, for each metadata directory whose number of files
// differs from before's (more only, unless fewer too), how, naming the
// files that were not there before and those gone.
func changedMetadata(before, after map[string][]string, fewer bool) []string {
	var out []string
	for _, d := range slices.Sorted(maps.Keys(mergeKeys(before, after))) {
		b, a := before[d], after[d]
		if len(a) == len(b) || len(a) < len(b) && !fewer {
			continue
		}
		out = append(out, fmt.Sprintf("%s holds %d files, %d before: new %v, gone %v", d, len(a), len(b), missing(a, b), missing(b, a)))
	}
	return out
}

func mergeKeys(x, y map[string][]string) map[string]bool {
	m := map[string]bool{}
	for k := range x {
		m[k] = true
	}
	for k := range y {
		m[k] = true
	}
	return m
}

// missing is what of xs is not in ys.
func missing(xs, ys []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(ys, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestRestoreNeverMergesIntoRetainedData: a claim deleted with onDelete:
// retain keeps its directory; a claim of the same name restored from a
// snapshot must not adopt it and copy over what it kept (the volume would
// hold the snapshot plus the old files, and old files of the same names
// would be overwritten). It is refused, naming the directory, and the
// retained data is untouched; once the directory is moved away the
// restore holds exactly the snapshot.
func TestRestoreNeverMergesIntoRetainedData(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		src := create(t, c, "merge-src", params, secrets)
		writeFile(t, filepath.Join(base, "merge-src", "snap.txt"), "from the snapshot")
		writeFile(t, filepath.Join(base, "merge-src", "same.txt"), "snapshot's version")
		snap := snapshotOf(t, c, "merge-snap", src.GetVolumeId(), secrets)

		kept := withParams(params, "onDelete", "retain", "subDir", "merge-target")
		old := create(t, c, "merge-claim", kept, secrets)
		writeFile(t, filepath.Join(base, "merge-target", "old.txt"), "retained data")
		writeFile(t, filepath.Join(base, "merge-target", "same.txt"), "retained version")
		deleteVol(t, c, old.GetVolumeId(), secrets)

		_, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
			Name: "merge-claim", Parameters: kept, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap},
			VolumeContentSource: fromSnapshot(snap.GetSnapshotId()),
		})
		wantCode(t, "a restore into a retained directory", err, codes.AlreadyExists)
		if err != nil && !strings.Contains(err.Error(), "merge-target") {
			t.Errorf("the refusal does not name the directory: %v", err)
		}
		mustRead(t, filepath.Join(base, "merge-target", "old.txt"), "retained data")
		mustRead(t, filepath.Join(base, "merge-target", "same.txt"), "retained version")
		if _, err := os.Stat(filepath.Join(base, "merge-target", "snap.txt")); !os.IsNotExist(err) {
			t.Errorf("the refused restore wrote into the retained directory: %v", err)
		}

		if err := os.Rename(filepath.Join(base, "merge-target"), filepath.Join(base, "merge-kept")); err != nil {
			t.Fatal(err)
		}
		restored := createFrom(t, c, "merge-claim", kept, secrets, fromSnapshot(snap.GetSnapshotId()))
		entries, _ := os.ReadDir(filepath.Join(base, "merge-target"))
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, ",") != "same.txt,snap.txt" {
			t.Errorf("the restored volume holds %v, want exactly the snapshot's same.txt and snap.txt", names)
		}
		mustRead(t, filepath.Join(base, "merge-target", "same.txt"), "snapshot's version")
		deleteVol(t, c, restored.GetVolumeId(), secrets)
		if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId(), Secrets: secrets}); err != nil {
			t.Error(err)
		}
		deleteVol(t, c, src.GetVolumeId(), secrets)
	})
}
