//go:build linux

package integration

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// These tests try, as a hostile tenant or an unlucky operator would, to make
// one volume's DeleteVolume reach data that is not its own. Each works on
// the real servers' disks directly, the way a pod on another node (or a
// process on the file server) would.

// writeFile writes p as a tenant's pod would leave it: every directory it
// makes and the file are writable by the share's user, so the server's
// permissions never stand in for the driver's own guards in a test.
func writeFile(t *testing.T, p, content string) {
	t.Helper()
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, p, want string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil || string(b) != want {
		t.Errorf("%s: got %q, %v; want %q (another volume's data was touched)", p, b, err, want)
	}
}

func deleteVol(t *testing.T, c csi.ControllerClient, id string, secrets map[string]string) {
	t.Helper()
	if _, err := c.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: id, Secrets: secrets}); err != nil {
		t.Fatalf("DeleteVolume %s: %v", id, err)
	}
}

func wantCode(t *testing.T, what string, err error, want codes.Code) {
	t.Helper()
	if status.Code(err) != want {
		t.Errorf("%s: got %v, want code %v", what, err, want)
	}
}

// A StatefulSet's claim deleted and made again resolves to the same
// directory; a retried DeleteVolume of the old PV must not touch the new one.
func TestStaleVolumeIDDeletesNothing(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		p := withParams(params, "subDir", "data-web-0")
		old := create(t, c, "pvc-old", p, secrets)
		writeFile(t, filepath.Join(base, "data-web-0", "old"), "old")
		deleteVol(t, c, old.GetVolumeId(), secrets)
		if _, err := os.Stat(filepath.Join(base, "data-web-0")); !os.IsNotExist(err) {
			t.Fatalf("first delete left the directory: %v", err)
		}

		newer := create(t, c, "pvc-new", p, secrets)
		if newer.GetVolumeId() == old.GetVolumeId() {
			t.Fatalf("the new volume got the old volume's ID %s", old.GetVolumeId())
		}
		writeFile(t, filepath.Join(base, "data-web-0", "precious"), "new data")

		// The CO retries the old PV's delete (lost reply, controller restart).
		deleteVol(t, c, old.GetVolumeId(), secrets)
		mustRead(t, filepath.Join(base, "data-web-0", "precious"), "new data")

		// A forged ID: the right directory, a UID this driver never issued.
		forged := old.GetVolumeId()[:len(old.GetVolumeId())-16] + "0123456789abcdef"
		deleteVol(t, c, forged, secrets)
		mustRead(t, filepath.Join(base, "data-web-0", "precious"), "new data")

		ctx := context.Background()
		_, err := c.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: old.GetVolumeId(), CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30}, Secrets: secrets})
		wantCode(t, "ControllerExpandVolume of the stale ID", err, codes.NotFound)
		_, err = c.ValidateVolumeCapabilities(ctx, &csi.ValidateVolumeCapabilitiesRequest{VolumeId: forged, VolumeCapabilities: []*csi.VolumeCapability{mountCap}, Secrets: secrets})
		wantCode(t, "ValidateVolumeCapabilities of the forged ID", err, codes.NotFound)
		// And the real one still answers.
		if _, err := c.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{VolumeId: newer.GetVolumeId(), CapacityRange: &csi.CapacityRange{RequiredBytes: 1 << 30}, Secrets: secrets}); err != nil {
			t.Errorf("ControllerExpandVolume of the live volume: %v", err)
		}
		deleteVol(t, c, newer.GetVolumeId(), secrets)
		if _, err := os.Stat(filepath.Join(base, "data-web-0")); !os.IsNotExist(err) {
			t.Errorf("delete of the live volume left its directory: %v", err)
		}
	})
}

// Links a tenant plants in its own volume, and a volume directory replaced
// by a link, must be removed as links or left alone: never followed.
func TestDeleteNeverFollowsLinks(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		victim := create(t, c, "victim", params, secrets)
		_ = victim
		vdir := filepath.Join(base, "victim")
		writeFile(t, filepath.Join(vdir, "top"), "victim top")
		writeFile(t, filepath.Join(vdir, "data", "deep"), "victim deep")
		outside := t.TempDir()
		writeFile(t, filepath.Join(outside, "secret"), "outside the share")

		attacker := create(t, c, "attacker", params, secrets)
		adir := filepath.Join(base, "attacker")
		writeFile(t, filepath.Join(adir, "mine"), "x")
		links := map[string]string{
			"rel-dir":         "../victim",
			"abs-root":        vdir,
			"rel-file":        "../victim/top",
			"outside":         outside,
			"sub/deeper/up":   "../../../victim/data",
			"loop-to-self":    ".",
			"loop-to-base":    "../..",
			"dangling":        "../no-such-dir",
			"sub/abs-outside": "/etc",
		}
		if isNFS(t) {
			// NFS shows every link as a link. Samba resolves absolute links
			// inside the share for its clients and shows them as the
			// directory they lead to: docs/data-safety.md says what the driver can
			// and cannot see there.
			links["abs-deep"] = filepath.Join(vdir, "data")
		}
		for name, target := range links {
			p := filepath.Join(adir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		}
		deleteVol(t, c, attacker.GetVolumeId(), secrets)
		mustRead(t, filepath.Join(vdir, "top"), "victim top")
		mustRead(t, filepath.Join(vdir, "data", "deep"), "victim deep")
		mustRead(t, filepath.Join(outside, "secret"), "outside the share")
		if _, err := os.Lstat(adir); !os.IsNotExist(err) {
			t.Errorf("the attacker's volume is still in its place: %v", err)
		}

		// The victim's directory itself replaced by a link to a third
		// volume: deleting the victim removes the link, not the third.
		third := create(t, c, "third", params, secrets)
		tdir := filepath.Join(base, "third")
		writeFile(t, filepath.Join(tdir, "keep"), "third")
		moved := filepath.Join(base, "victim-moved-away")
		if err := os.Rename(vdir, moved); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tdir, vdir); err != nil {
			t.Fatal(err)
		}
		deleteVol(t, c, victim.GetVolumeId(), secrets)
		mustRead(t, filepath.Join(tdir, "keep"), "third")
		mustRead(t, filepath.Join(moved, "top"), "victim top")
		deleteVol(t, c, third.GetVolumeId(), secrets)
	})
}

// Links that lead back up the tree (to the share's root, the driver's
// metadata, an archive) are never entered, whichever order the server lists
// them in: a server that resolves links for its clients (Samba) shows them
// as those directories, and a walk that went in would delete every volume's
// records, the archives and whatever else the share holds.
func TestDeleteNeverClimbsOutOfItsVolume(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		root := filepath.Dir(base) // the share's (export's) root
		bystander := filepath.Join(root, "bystander-"+filepath.Base(base))
		writeFile(t, filepath.Join(bystander, "data", "file"), "not a volume")
		victim := create(t, c, "victim", params, secrets)
		writeFile(t, filepath.Join(base, "victim", "data", "deep"), "victim deep")
		archived := create(t, c, "kept", withParams(params, "onDelete", "archive"), secrets)
		writeFile(t, filepath.Join(base, "kept", "data", "deep"), "archived deep")
		deleteVol(t, c, archived.GetVolumeId(), secrets)
		archive := filepath.Join(base, "archived-kept")
		mustRead(t, filepath.Join(archive, "data", "deep"), "archived deep")
		meta := filepath.Join(root, ".fileshare-csi")
		roots, err := os.ReadDir(filepath.Join(meta, "roots"))
		if err != nil {
			t.Fatal(err)
		}

		// The holds of the volumes so far (each a directory named by a
		// hash of a path anyone can work out).
		holdFiles := func() map[string]bool {
			out := map[string]bool{}
			_ = filepath.WalkDir(filepath.Join(meta, "holds"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					out[p] = true
				}
				return nil
			})
			return out
		}
		held := holdFiles()
		holdDirs, err := os.ReadDir(filepath.Join(meta, "holds"))
		if err != nil || len(held) == 0 {
			t.Fatalf("no holds to aim at (%v): the test does not test them", err)
		}

		attacker := create(t, c, "attacker", params, secrets)
		adir := filepath.Join(base, "attacker")
		for i, h := range holdDirs {
			if err := os.Symlink(filepath.Join(meta, "holds", h.Name()), filepath.Join(adir, fmt.Sprintf("hold-%d", i))); err != nil {
				t.Fatal(err)
			}
		}
		for name, target := range map[string]string{
			// Seen from the quarantine (.fileshare-csi/deleting/<uid>),
			// where the delete moves the volume first.
			"up-to-metadata":   "../..",
			"up-to-share-root": "../../..",
			"share-root":       root,
			"metadata":         meta,
			"records":          filepath.Join(meta, "volumes"),
			"roots":            filepath.Join(meta, "roots"),
			"archive":          archive,
		} {
			if err := os.Symlink(target, filepath.Join(adir, name)); err != nil {
				t.Fatal(err)
			}
		}
		writeFile(t, filepath.Join(adir, "sub", "own"), "the attacker's own")
		deleteVol(t, c, attacker.GetVolumeId(), secrets)

		if _, err := os.Lstat(adir); !os.IsNotExist(err) {
			t.Errorf("the attacker's volume is still in its place: %v", err)
		}
		mustRead(t, filepath.Join(bystander, "data", "file"), "not a volume")
		mustRead(t, filepath.Join(base, "victim", "data", "deep"), "victim deep")
		mustRead(t, filepath.Join(archive, "data", "deep"), "archived deep")
		now := holdFiles()
		for p := range held {
			if !now[p] {
				t.Errorf("hold %s went with the attacker's volume", p)
			}
		}
		after, err := os.ReadDir(filepath.Join(meta, "roots"))
		if err != nil || len(after) != len(roots) {
			t.Errorf("volume root marks: %d before the attacker's volume, %d after its delete (%v)", len(roots), len(after), err)
		}
		// The victim's record survived: its ID still answers.
		if _, err := c.ValidateVolumeCapabilities(ctx, &csi.ValidateVolumeCapabilitiesRequest{VolumeId: victim.GetVolumeId(), VolumeCapabilities: []*csi.VolumeCapability{mountCap}, Secrets: secrets}); err != nil {
			t.Errorf("the victim's volume no longer answers: %v", err)
		}
		deleteVol(t, c, victim.GetVolumeId(), secrets)
		if _, err := os.Lstat(filepath.Join(base, "victim")); !os.IsNotExist(err) {
			t.Errorf("the victim's own delete left its directory: %v", err)
		}
	})
}

// A volume holds a link that the server will not resolve (out of the
// share: Samba hides it): the volume is still deleted.
func TestLinkOutOfShareDoesNotBlockDelete(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		v := create(t, c, "hidden-link", params, secrets)
		dir := filepath.Join(base, "hidden-link")
		if err := os.Symlink("/", filepath.Join(dir, "root")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "f"), "x")
		deleteVol(t, c, v.GetVolumeId(), secrets)
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("volume directory still in place: %v", err)
		}
		if _, err := os.Stat("/etc/hostname"); err != nil {
			t.Errorf("/etc/hostname: %v", err)
		}
		// A retry is harmless.
		deleteVol(t, c, v.GetVolumeId(), secrets)
	})
}

// Two classes on one share whose subDir templates nest.
func TestVolumesNeverNest(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		byName := withParams(params, "subDir", "${pvc.metadata.name}",
			"csi.storage.k8s.io/pvc/name", "team", "csi.storage.k8s.io/pvc/namespace", "team")
		byNS := withParams(params, "subDir", "${pvc.metadata.namespace}/${pvc.metadata.name}",
			"csi.storage.k8s.io/pvc/name", "db", "csi.storage.k8s.io/pvc/namespace", "team")

		inner := create(t, c, "pvc-inner", byNS, secrets)
		writeFile(t, filepath.Join(base, "team", "db", "rows"), "rows")
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-outer", Parameters: byName, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a volume around another", err, codes.AlreadyExists)
		if err != nil && !strings.Contains(err.Error(), "pvc-inner") {
			t.Errorf("the refusal does not name the other volume: %v", err)
		}
		deleteVol(t, c, inner.GetVolumeId(), secrets)

		// The other order: the outer one first.
		outer := create(t, c, "pvc-outer", byName, secrets)
		writeFile(t, filepath.Join(base, "team", "notes"), "notes")
		_, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-inner2", Parameters: byNS, Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a volume inside another", err, codes.AlreadyExists)
		mustRead(t, filepath.Join(base, "team", "notes"), "notes")
		deleteVol(t, c, outer.GetVolumeId(), secrets)
	})
}

// smb://h/share with base x/y and smb://h/share/x with base y are one
// directory: the second class sees the first class's volume.
func TestOverlappingBasesAreOneDirectory(t *testing.T) {
	c := controller(t)
	ctx := context.Background()
	top := "overlap-" + strings.ToLower(t.Name()[len(t.Name())-4:])
	if err := os.MkdirAll(filepath.Join(env.samba.Data, top, "y"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(env.samba.Data, top), 0o777)
	os.Chmod(filepath.Join(env.samba.Data, top, "y"), 0o777)
	deep := map[string]string{"source": smbSource(top + "/y")}
	shallow := map[string]string{"source": smbSource(top)}
	v := create(t, c, "pvc-a", withParams(deep, "subDir", "vol"), smbSecrets())
	writeFile(t, filepath.Join(env.samba.Data, top, "y", "vol", "a"), "a")
	// Same directory through the other base, another claim: refused.
	_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-b", Parameters: withParams(shallow, "subDir", "y/vol"), Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	wantCode(t, "same directory through an overlapping base", err, codes.AlreadyExists)
	// Its parent through the other base: refused, it would hold pvc-a.
	_, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-c", Parameters: withParams(shallow, "subDir", "y"), Secrets: smbSecrets(), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	wantCode(t, "parent through an overlapping base", err, codes.AlreadyExists)
	mustRead(t, filepath.Join(env.samba.Data, top, "y", "vol", "a"), "a")
	deleteVol(t, c, v.GetVolumeId(), smbSecrets())
}

// nfs://h/export with subDir top/y/vol and nfs://h/export/top with subDir
// y/vol are one directory too: the session is rooted at the export, with
// NFSv3 (the export list) and NFSv4.1 (where the file system changes) alike,
// and a class of one version sees the other's volumes.
func TestOverlappingNFSExportPathsAreOneDirectory(t *testing.T) {
	c := controller(t)
	ctx := context.Background()
	for _, vers := range []struct{ name, deep, shallow string }{
		{"nfs", "", ""}, {"nfs41", "?vers=4.1", "?vers=4.1"}, {"mixed", "", "?vers=4.1"}, {"mixed-other-way", "?vers=4.1", ""},
	} {
		t.Run(vers.name, func(t *testing.T) {
			top := "overlap-" + vers.name
			if err := os.MkdirAll(filepath.Join(env.nfs.Data, top, "y"), 0o777); err != nil {
				t.Fatal(err)
			}
			deep := map[string]string{"source": nfsSource(top+"/y") + vers.deep}
			shallow := map[string]string{"source": nfsSource(top) + vers.shallow}
			v := create(t, c, "pvc-a", withParams(deep, "subDir", "vol"), nil)
			writeFile(t, filepath.Join(env.nfs.Data, top, "y", "vol", "a"), "a")
			_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-b", Parameters: withParams(shallow, "subDir", "y/vol"), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			wantCode(t, "same directory through an overlapping export path", err, codes.AlreadyExists)
			_, err = c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-c", Parameters: withParams(shallow, "subDir", "y"), VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
			wantCode(t, "parent through an overlapping export path", err, codes.AlreadyExists)
			mustRead(t, filepath.Join(env.nfs.Data, top, "y", "vol", "a"), "a")
			// The volume answers through either class's ID form, and deletes.
			deleteVol(t, c, v.GetVolumeId(), nil)
			if _, err := os.Stat(filepath.Join(env.nfs.Data, top, "y", "vol")); !os.IsNotExist(err) {
				t.Errorf("delete left the directory: %v", err)
			}
		})
	}
}

// A claim whose subDir resolves to an archive's name never gets it.
func TestArchivesAreNeverAdopted(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		p := withParams(params, "onDelete", "archive", "subDir", "tenant-a")
		v := create(t, c, "pvc-a", p, secrets)
		writeFile(t, filepath.Join(base, "tenant-a", "private"), "a's data")
		deleteVol(t, c, v.GetVolumeId(), secrets)
		mustRead(t, filepath.Join(base, "archived-tenant-a", "private"), "a's data")

		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-b", Parameters: withParams(params, "subDir", "archived-tenant-a"), Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a claim named like an archive", err, codes.InvalidArgument)
		// An archive renamed by hand is still marked.
		if err := os.Rename(filepath.Join(base, "archived-tenant-a"), filepath.Join(base, "renamed")); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(base, "renamed"), filepath.Join(base, "archived-tenant-a")); err != nil {
			t.Fatal(err)
		}
		mustRead(t, filepath.Join(base, "archived-tenant-a", "private"), "a's data")
	})
}

// Names at the 255-byte limit work through create, archive and a second
// archive of the same name; a name that cannot work fails before anything
// is created.
func TestLongNames(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		long := strings.Repeat("n", 255)
		for round := range 2 {
			v := create(t, c, "pvc-long", withParams(params, "subDir", long, "onDelete", "archive"), secrets)
			writeFile(t, filepath.Join(base, long, "f"), "round")
			deleteVol(t, c, v.GetVolumeId(), secrets)
			if _, err := os.Stat(filepath.Join(base, long)); !os.IsNotExist(err) {
				t.Fatalf("round %d: archive left the directory in place: %v", round, err)
			}
		}
		entries, _ := os.ReadDir(base)
		archives := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "archived-") {
				archives++
			}
		}
		if archives != 2 {
			t.Errorf("want 2 archives of the long name, found %d", archives)
		}
		v := create(t, c, "pvc-long2", withParams(params, "subDir", long), secrets)
		deleteVol(t, c, v.GetVolumeId(), secrets)
		if _, err := os.Stat(filepath.Join(base, long)); !os.IsNotExist(err) {
			t.Errorf("delete of a 255-byte name left it: %v", err)
		}

		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-too-long", Parameters: withParams(params, "subDir", long+"x"), Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		wantCode(t, "a 256-byte name", err, codes.InvalidArgument)
		if _, err := os.Stat(filepath.Join(base, long+"x")); !os.IsNotExist(err) && !errors.Is(err, syscall.ENAMETOOLONG) {
			t.Errorf("a refused name left a directory: %v", err)
		}
	})
}

// A failed CreateVolume leaves no directory behind.
func TestFailedCreateLeavesNoOrphan(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		ctx := context.Background()
		// The record directory is a file: the record cannot be written.
		// Records live at the root of the SMB share or the NFS export.
		meta := metadataRoot(t)
		if err := os.MkdirAll(meta, 0o777); err != nil {
			t.Fatal(err)
		}
		volumes := filepath.Join(meta, "volumes")
		saved := volumes + ".saved-" + strings.ReplaceAll(t.Name(), "/", "-")
		if err := os.Rename(volumes, saved); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		writeFile(t, volumes, "not a directory")
		defer func() {
			os.Remove(volumes)
			if _, err := os.Stat(saved); err == nil {
				os.Rename(saved, volumes)
			}
		}()
		_, err := c.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: "pvc-orphan", Parameters: withParams(params, "subDir", "orphan"), Secrets: secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
		if err == nil {
			t.Fatal("CreateVolume succeeded without a place for its record")
		}
		if _, serr := os.Stat(filepath.Join(base, "orphan")); !os.IsNotExist(serr) {
			t.Errorf("the failed CreateVolume (%v) left its directory: %v", err, serr)
		}
	})
}

// A pod still writing while its volume is deleted: the answer is success or
// a code the CO retries (Aborted), never AlreadyExists, and the retry after
// the writer stops finishes the job.
func TestDeleteRacingAWriter(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		v := create(t, c, "busy", params, secrets)
		dir := filepath.Join(base, "busy")
		fillTree(t, dir, 4, 50, false, fileOwner(t))
		// The writer holds the directory open, as a mount does, so it
		// follows the directory wherever the delete moves it.
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Close(fd)
		stop := make(chan struct{})
		done := make(chan int)
		go func() {
			// Bounded in count and pace: a pod writing, not a flood.
			n := 0
			for n < 3000 {
				select {
				case <-stop:
					done <- n
					return
				case <-time.After(time.Millisecond):
				}
				if f, err := syscall.Openat(fd, "w"+strconv.Itoa(n), syscall.O_CREAT|syscall.O_WRONLY, 0o666); err == nil {
					syscall.Close(f)
				}
				n++
			}
			<-stop
			done <- n
		}()
		// The CO's deadline for the call, not a measure of it: in the
		// emulated test VM, SMB's delete of these 3,200 files takes 28-50 s
		// (under a second on the host), and past 60 s when the machine's
		// two cores are busy with more than the VM.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		_, err = c.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: v.GetVolumeId(), Secrets: secrets})
		close(stop)
		written := <-done
		if code := status.Code(err); code != codes.OK && code != codes.Aborted {
			t.Fatalf("DeleteVolume while a writer made %d files: %v; want OK or Aborted", written, err)
		}
		deleteVol(t, c, v.GetVolumeId(), secrets)
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("volume directory still in place: %v", err)
		}
		// Records live at the root of the SMB share or the NFS export.
		meta := metadataRoot(t)
		if q, err := os.Lstat(filepath.Join(meta, "deleting", v.GetVolumeId()[len(v.GetVolumeId())-16:])); err == nil {
			t.Errorf("the retried delete left the quarantine %s", q.Name())
		}
	})
}

// A tree wide enough that the delete walk spreads its entries over
// workers: on SMB they share one session, so compounds (three credits
// each) are in flight beside directory listings, which ask for most of the
// session's credits. Every entry goes, and no request fails for credits
// (a listing once asked for more output than the credits it was lent
// covered, and Samba refused it: STATUS_INVALID_PARAMETER).
func TestDeleteOfAWideTree(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		v := create(t, c, "wide", params, secrets)
		dir := filepath.Join(base, "wide")
		fillTree(t, dir, 100, 60, false, fileOwner(t))
		deleteVol(t, c, v.GetVolumeId(), secrets)
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("volume directory still in place: %v", err)
		}
	})
}
