//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// snapshotRows: a snapshot, a restore and a clone of a tree of small files
// and of one large file, by our controller in user space, next to what the
// peers do on a kernel mount in the same run: csi-driver-nfs snapshots with
// `tar czf` and restores with `tar xzf`, csi-driver-smb clones with `cp -a`.
func (e *env) snapshotRows(p protocol) error {
	d, err := e.startDriver("controller")
	if err != nil {
		return err
	}
	defer d.stop()
	ctrl := csi.NewControllerClient(d.conn)
	files, uid := p.tree()
	type shape struct {
		name string
		fill func(dir string) error
	}
	shapes := []shape{{fmt.Sprintf("%d files in %d directories", files, *treeDirs), func(dir string) error { return makeTree(dir, *treeDirs, files, uid) }}}
	if *bigFileMiB > 0 {
		shapes = append(shapes, shape{fmt.Sprintf("one file of %d MiB", *bigFileMiB), func(dir string) error { return makeBigFile(filepath.Join(dir, "big"), *bigFileMiB<<20, uid) }})
	}
	for _, shape := range shapes {
		if err := e.snapshotShape(ctrl, p, shape.name, shape.fill); err != nil {
			return fmt.Errorf("%s, %s: %w", p.name, shape.name, err)
		}
	}
	return nil
}

func makeBigFile(p string, size int, uid int) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	block := make([]byte, 4<<20)
	for i := range block {
		block[i] = byte(i*31 + 7)
	}
	for n := 0; n < size; n += len(block) {
		if _, err := f.Write(block[:min(len(block), size-n)]); err != nil {
			f.Close()
			return err
		}
	}
	_ = f.Chmod(0o666)
	_ = f.Chown(uid, -1)
	return f.Close()
}

func (e *env) snapshotShape(ctrl csi.ControllerClient, p protocol, shape string, fill func(string) error) error {
	ctx := context.Background()
	params := map[string]string{"source": p.source}
	name := fmt.Sprintf("snap-%s-%d", p.name, len(e.rows))
	vol, err := ctrl.CreateVolume(ctx, &csi.CreateVolumeRequest{Name: name, Parameters: params, Secrets: p.secrets, VolumeCapabilities: []*csi.VolumeCapability{mountCap}})
	if err != nil {
		return err
	}
	volDir := filepath.Join(p.base, name)
	if err := fill(volDir); err != nil {
		return err
	}
	volID := vol.GetVolume().GetVolumeId()

	// Snapshot: until CreateSnapshot answers ready.
	start := time.Now()
	var snapID string
	for {
		resp, err := ctrl.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: name, SourceVolumeId: volID, Secrets: p.secrets})
		if err != nil {
			return fmt.Errorf("CreateSnapshot: %w", err)
		}
		if resp.GetSnapshot().GetReadyToUse() {
			snapID = resp.GetSnapshot().GetSnapshotId()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.one(p, "snapshot of "+shape, "fileshare-csi, user space", time.Since(start))

	// Restore and clone: until CreateVolume answers (Aborted while the copy runs).
	fromSource := func(what string, cs *csi.VolumeContentSource) (string, error) {
		start := time.Now()
		for {
			c, cancel := context.WithTimeout(ctx, 30*time.Second)
			resp, err := ctrl.CreateVolume(c, &csi.CreateVolumeRequest{Name: name + "-" + what, Parameters: params, Secrets: p.secrets,
				VolumeCapabilities: []*csi.VolumeCapability{mountCap}, VolumeContentSource: cs})
			cancel()
			if err == nil {
				e.one(p, what+" of "+shape, "fileshare-csi, user space", time.Since(start))
				return resp.GetVolume().GetVolumeId(), nil
			}
			if status.Code(err) != codes.Aborted {
				return "", fmt.Errorf("CreateVolume (%s): %w", what, err)
			}
		}
	}
	// Each copy goes once measured: the test VM keeps its files in memory.
	defer ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: volID, Secrets: p.secrets})
	for _, c := range []struct {
		what string
		cs   *csi.VolumeContentSource
	}{
		{"restore", &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snapID}}}},
		{"clone", &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: volID}}}},
	} {
		id, err := fromSource(c.what, c.cs)
		if err != nil {
			return err
		}
		if _, err := ctrl.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id, Secrets: p.secrets}); err != nil {
			return err
		}
	}
	if _, err := ctrl.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: snapID, Secrets: p.secrets}); err != nil {
		return err
	}
	if !e.canMount {
		return nil
	}

	// The peers' way, on a kernel mount of the share.
	mnt := filepath.Join(e.dir, "snap-mnt-"+p.name)
	_ = os.MkdirAll(mnt, 0o755)
	archive := filepath.Join(mnt, name+".tar.gz")
	in := func(rel string) string { return filepath.Join(mnt, rel) }
	for _, b := range []struct {
		what, method string
		steps        [][]string
		made         string // removed from the server's disk once measured
	}{
		{"snapshot", "baseline: mount(8), tar czf (csi-driver-nfs), umount", [][]string{{"tar", "czf", archive, "-C", in(name), "."}}, ""},
		{"restore", "baseline: mount(8), tar xzf (csi-driver-nfs), umount", [][]string{{"mkdir", in(name + "-untar")}, {"tar", "xzf", archive, "-C", in(name + "-untar")}}, name + "-untar"},
		{"clone", "baseline: mount(8), cp -a (csi-driver-smb), umount", [][]string{{"cp", "-a", in(name), in(name + "-cp")}}, name + "-cp"},
	} {
		steps := append([][]string{{"mount", "-t", p.fstype, "-o", p.mountOptions(), p.device, mnt}}, b.steps...)
		steps = append(steps, []string{"umount", mnt})
		start := time.Now()
		if err := runSteps(steps); err != nil {
			_ = runSteps([][]string{{"umount", mnt}})
			return err
		}
		e.one(p, b.what+" of "+shape, b.method, time.Since(start))
		if b.made != "" {
			_ = os.RemoveAll(filepath.Join(p.base, b.made))
		}
	}
	return os.RemoveAll(filepath.Join(p.base, name+".tar.gz"))
}

// one adds a row measured once.
func (e *env) one(p protocol, what, method string, took time.Duration) {
	e.add(row{name: p.name + " " + what, server: p.server, method: method, n: 1, p50: took, p99: took, opsPerSec: 1 / took.Seconds()})
}
