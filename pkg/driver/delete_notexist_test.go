package driver

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A server that answers "no such file" to a step that makes or moves
// something in the middle of a DeleteVolume (a broken server, a race with
// an operator) has not said the volume is gone: the store reads a volume
// whose record, directory or base is gone as deleted by itself, from the
// answers to its reads. So the call fails, retryably, and its retry
// finishes the delete; it never answers OK while the record, or the
// directory it was to remove or archive, is still on the share (the CO
// would forget a volume the share still holds). Every such step of each
// onDelete is cut. (A read's or a removal's "no such file" is an answer:
// the thing is not there.)
func TestDeleteVolumeNeverTakesAStrayNotExistForDeleted(t *testing.T) {
	for _, onDelete := range []string{"delete", "archive", "retain"} {
		for n := 1; ; n++ {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			ctx := context.Background()
			id := createOn(t, d, "pvc-a", onDelete)
			if err := ms.WriteFileDirect("pvc-a/data.txt", []byte("the tenant's")); err != nil {
				t.Fatal(err)
			}
			reached, seen := false, 0
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if !mutations[op.Name] || when != memshare.Before {
					return nil
				}
				if seen++; seen == n {
					reached = true
					return &fs.PathError{Op: op.Name, Path: op.Path, Err: fs.ErrNotExist}
				}
				return nil
			})
			_, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id})
			ms.SetHook(nil)
			if !reached {
				break // the delete takes fewer steps: every one was cut
			}
			where := fmt.Sprintf("onDelete %s, NOENT at step %d", onDelete, n)
			if err == nil {
				assertDisposed(t, ms, onDelete, where+" answered OK")
			} else if c := status.Code(err); c != codes.Unavailable {
				t.Errorf("%s: %v (%s), want Unavailable: a retry finishes it", where, err, c)
			}
			if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id}); err != nil {
				t.Fatalf("%s: the retry: %v", where, err)
			}
			assertDisposed(t, ms, onDelete, where+" and retried")
		}
	}
}

// mutations are the memshare operations whose "no such file" cannot mean
// the step is done.
var mutations = map[string]bool{"mkdir": true, "rename": true, "replace": true, "write": true, "create": true, "chmod": true, "setattr": true, "symlink": true}

// memshareDriver is a controller whose every session is on ms.
func memshareDriver(t *testing.T, ms *memshare.Share) *Driver {
	t.Helper()
	pool := share.NewPool()
	pool.Dial = func(context.Context, source.Source, share.Credentials) (share.Client, error) { return ms.Client(), nil }
	t.Cleanup(pool.Close)
	d, err := New(Config{Name: "test.csi", Controller: true, Pool: pool})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// createOn makes the volume name at the session's root (the class's base).
func createOn(t *testing.T, d *Driver, name, onDelete string) string {
	t.Helper()
	res, err := d.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
		Name:       name,
		Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": onDelete},
		VolumeCapabilities: []*csi.VolumeCapability{{
			AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
			AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.GetVolume().GetVolumeId()
}

// assertDisposed: no volume record is left, and pvc-a's directory is gone
// (delete), an archive (archive) or kept (retain).
func assertDisposed(t *testing.T, ms *memshare.Share, onDelete, where string) {
	t.Helper()
	var dir, archived bool
	for _, e := range ms.Dump() {
		switch {
		case strings.HasPrefix(e.Path, ".fileshare-csi/volumes/") && !e.Dir:
			t.Errorf("%s: the volume's record %s is still on the share", where, e.Path)
		case e.Path == "pvc-a":
			dir = true
		case strings.HasPrefix(e.Path, "archived-pvc-a") && !strings.Contains(e.Path, "/"):
			archived = true
		}
	}
	if want := onDelete == "retain"; dir != want {
		t.Errorf("%s: the volume's directory there: %v, want %v", where, dir, want)
	}
	if want := onDelete == "archive"; archived != want {
		t.Errorf("%s: an archive: %v, want %v", where, archived, want)
	}
}
