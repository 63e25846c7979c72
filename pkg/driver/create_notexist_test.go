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

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A "no such file" that a step of a CreateVolume meets after its reads
// (a rename of the intent onto its root's mark that a killed try's own
// rename, run late by the server, got to first; a concurrent call) is not
// the spec's NotFound (a content source that is not there), which
// csi-provisioner takes for final: the claim would be made again as new
// and what this create made forgotten. The call fails retryably, and its
// retry ends with the volume and nothing else. Every mutating step is cut,
// of an empty volume's create and of a clone's (its copy, and the record
// that says it is filled).
func TestCreateVolumeNeverAnswersNotFoundForItsOwnSteps(t *testing.T) {
	for _, clone := range []bool{false, true} {
		for n := 1; ; n++ {
			ms := memshare.New()
			d := memshareDriver(t, ms)
			req := &csi.CreateVolumeRequest{
				Name:       "pvc-a",
				Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base"},
				VolumeCapabilities: []*csi.VolumeCapability{{
					AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
					AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
				}},
			}
			records := 1
			if clone {
				src := createOn(t, d, "pvc-src", "delete")
				for _, f := range []string{"pvc-src/a.txt", "pvc-src/d/b.txt"} {
					if err := ms.WriteFileDirect(f, []byte("data of "+f)); err != nil {
						t.Fatal(err)
					}
				}
				req.VolumeContentSource = &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: src}}}
				records = 2
			}
			reached, seen := false, 0
			var cutOp memshare.Op
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if !mutations[op.Name] || when != memshare.Before {
					return nil
				}
				if seen++; seen == n {
					reached, cutOp = true, op
					return &fs.PathError{Op: op.Name, Path: op.Path, Err: fs.ErrNotExist}
				}
				return nil
			})
			_, err := d.CreateVolume(context.Background(), req)
			ms.SetHook(nil)
			if !reached {
				if n == 1 {
					t.Fatal("the create made no change on the share")
				}
				break
			}
			where := fmt.Sprintf("clone %v, NOENT at mutating step %d (%s %s)", clone, n, cutOp.Name, cutOp.Path)
			if c := status.Code(err); err != nil && c != codes.Unavailable {
				t.Errorf("%s: %v (%s), want Unavailable: a retry finishes it", where, err, c)
			}
			res, err := d.CreateVolume(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: the retry: %v", where, err)
			}
			var recs, intents int
			for _, e := range ms.Dump() {
				switch {
				case strings.HasPrefix(e.Path, ".fileshare-csi/volumes/") && !e.Dir:
					recs++
				case strings.HasPrefix(e.Path, ".fileshare-csi/intents/") && !e.Dir:
					intents++
				}
			}
			if recs != records || intents != 0 {
				t.Errorf("%s: after the retry, %d records and %d intents on the share, want %d and 0", where, recs, intents, records)
			}
			if res.GetVolume().GetVolumeId() == "" {
				t.Errorf("%s: the retry answered no volume ID", where)
			}
		}
	}
}
