package driver

import (
	"archive/tar"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"github.com/csi-addons/spec/lib/go/volumegroup"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/ktesting"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// The dead-session enumeration. A call's step function runs a second time
// on a new session when the pooled session it reused turns out dead
// (withShare): a step that feeds its first run's result into the second,
// or a store method that changes its argument before a write that failed,
// does not end where an uninterrupted call ends. For every mutating
// controller call (CSI and CSI-Addons), every share operation of an
// uninterrupted call is failed with share.ErrUnavailable, in four ways
// (deadModes): once, before it takes effect (the request never reached
// the server) or after (the server did it, the reply was lost); or so
// that its session dies there, failing every later operation of that
// session too, before or after. The call, with withShare's second run
// and, if it still fails, one retry of the same request by the CO, must
// give the uninterrupted call's answer (UIDs and times aside) and leave
// the share as it leaves it (deadCanon, as pkg/state's crash test
// compares shares).
//
// An operation is named by its name, path and how many of the same came
// before it in the call, not by its place in the call: the copies of
// snapshots, restores and clones run on several sessions at once, and
// their operations interleave differently in every run.
//
// Not enumerated: two failures in one call (a second dead session, or the
// second run's own), a failure in the CO's retry, a cut deadline (the
// crash enumerations of pkg/state cut at every operation with every later
// one failing, or the context cancelled, and retry until answered), and
// the periodic beats of copies longer than a beat interval.

// deadCase is one mutating call: setup lays out the share, through a
// controller on it (so its pool holds an idle session the call reuses),
// and returns the call.
type deadCase struct {
	name  string
	setup func(t *testing.T, d *Driver, ms *memshare.Share) func(ctx context.Context) (proto.Message, error)
}

const deadSource = "nfs://127.0.0.1/export/base"

// createReq asks for volume name of 1 GiB, from content cs when not nil.
func deadCreateReq(name string, cs *csi.VolumeContentSource) *csi.CreateVolumeRequest {
	return &csi.CreateVolumeRequest{
		Name:                name,
		Parameters:          map[string]string{"source": deadSource, "onDelete": "delete"},
		CapacityRange:       &csi.CapacityRange{RequiredBytes: 1 << 30},
		VolumeCapabilities:  reviewCaps(),
		VolumeContentSource: cs,
	}
}

// deadVolume makes volume name with a file in it, and returns its ID.
func deadVolume(t *testing.T, d *Driver, ms *memshare.Share, name, onDelete string) string {
	t.Helper()
	id := createOn(t, d, name, onDelete)
	if err := ms.WriteFileDirect(name+"/data.txt", []byte(name+"'s data")); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect(name+"/sub/more.txt", []byte(name+"'s more")); err != nil {
		t.Fatal(err)
	}
	return id
}

// deadSnapshot takes a snapshot, ready, of the volume id.
func deadSnapshot(t *testing.T, d *Driver, name, id string) *csi.Snapshot {
	t.Helper()
	res, err := d.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: name, SourceVolumeId: id})
	if err != nil || !res.GetSnapshot().GetReadyToUse() {
		t.Fatalf("snapshot %s: %v, %v", name, res, err)
	}
	return res.GetSnapshot()
}

var (
	deadSMB     = "smb://fs/share/base"
	deadSecrets = map[string]string{"username": "u", "password": "p"}
)

// deadV1Volume lays out a volume an earlier build made (a v1 ID: no UID),
// with its record in the base's metadata directory, and returns its ID.
func deadV1Volume(t *testing.T, ms *memshare.Share, name, onDelete string) string {
	t.Helper()
	rec, err := json.Marshal(state.Record{Name: name, CapacityBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect(state.LegacyRecordPath("", name), rec); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect(name+"/data.txt", []byte(name+"'s data")); err != nil {
		t.Fatal(err)
	}
	src, err := source.Parse(deadSource)
	if err != nil {
		t.Fatal(err)
	}
	return volume.Volume{Source: src, SubDir: name, OnDelete: volume.OnDelete(onDelete)}.ID()
}

func deadCases() []deadCase {
	cases := []deadCase{
		{"CreateVolume empty", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			deadVolume(t, d, ms, "pvc-other", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, deadCreateReq("pvc-a", nil))
			}
		}},
		{"CreateVolume from a snapshot", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			src := deadVolume(t, d, ms, "pvc-src", "delete")
			snap := deadSnapshot(t, d, "snap-1", src)
			cs := &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{
				Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: snap.GetSnapshotId()}}}
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, deadCreateReq("pvc-a", cs))
			}
		}},
		{"CreateVolume clone", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			src := deadVolume(t, d, ms, "pvc-src", "delete")
			cs := &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{
				Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: src}}}
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, deadCreateReq("pvc-a", cs))
			}
		}},
	}
	cases = append(cases,
		deadCase{"CreateVolume over a directory there before", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			deadVolume(t, d, ms, "pvc-other", "delete")
			if err := ms.WriteFileDirect("pvc-a/old.txt", []byte("kept")); err != nil {
				t.Fatal(err)
			}
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, deadCreateReq("pvc-a", nil))
			}
		}},
		deadCase{"CreateVolume again, the volume made", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			if _, err := d.CreateVolume(context.Background(), deadCreateReq("pvc-a", nil)); err != nil {
				t.Fatal(err)
			}
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, deadCreateReq("pvc-a", nil))
			}
		}},
		deadCase{"CreateVolume SMB", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			req := deadCreateReq("pvc-other", nil)
			req.Parameters["source"], req.Secrets = deadSMB, deadSecrets
			if _, err := d.CreateVolume(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			req = deadCreateReq("pvc-a", nil)
			req.Parameters["source"], req.Secrets = deadSMB, deadSecrets
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolume(ctx, req)
			}
		}},
	)
	for _, onDelete := range []string{"delete", "retain", "archive"} {
		cases = append(cases, deadCase{"DeleteVolume onDelete " + onDelete, func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", onDelete)
			deadVolume(t, d, ms, "pvc-other", onDelete)
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id})
			}
		}})
		cases = append(cases, deadCase{"DeleteVolume v1 onDelete " + onDelete, func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			deadVolume(t, d, ms, "pvc-other", onDelete)
			id := deadV1Volume(t, ms, "pvc-v1", onDelete)
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id})
			}
		}})
	}
	cases = append(cases,
		deadCase{"DeleteVolume onDelete archive, the archive's name taken", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", "archive")
			if err := ms.WriteFileDirect(state.ArchivePrefix+"pvc-a/theirs.txt", []byte("an operator's")); err != nil {
				t.Fatal(err)
			}
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id})
			}
		}},
		deadCase{"DeleteVolume SMB onDelete archive", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			req := deadCreateReq("pvc-a", nil)
			req.Parameters["source"], req.Parameters["onDelete"], req.Secrets = deadSMB, "archive", deadSecrets
			res, err := d.CreateVolume(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if err := ms.WriteFileDirect("base/pvc-a/data.txt", []byte("a's data")); err != nil {
				t.Fatal(err)
			}
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: res.GetVolume().GetVolumeId(), Secrets: deadSecrets})
			}
		}},
		deadCase{"ControllerExpandVolume v1", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			deadVolume(t, d, ms, "pvc-other", "delete")
			id := deadV1Volume(t, ms, "pvc-v1", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{
					VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: 3 << 30},
				})
			}
		}},
	)
	cases = append(cases,
		deadCase{"CreateSnapshot", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
			}
		}},
		deadCase{"CreateSnapshot again, the snapshot ready", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", "delete")
			deadSnapshot(t, d, "snap-1", id)
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
			}
		}},
		deadCase{"DeleteSnapshot", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", "delete")
			snap := deadSnapshot(t, d, "snap-1", id)
			deadSnapshot(t, d, "snap-2", id)
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteSnapshot(ctx, &csi.DeleteSnapshotRequest{SnapshotId: snap.GetSnapshotId()})
			}
		}},
		deadCase{"ControllerExpandVolume", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			id := deadVolume(t, d, ms, "pvc-a", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.ControllerExpandVolume(ctx, &csi.ControllerExpandVolumeRequest{
					VolumeId: id, CapacityRange: &csi.CapacityRange{RequiredBytes: 3 << 30},
				})
			}
		}},
		deadCase{"CreateVolumeGroupSnapshot", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}})
			}
		}},
		deadCase{"CreateVolumeGroupSnapshot of a volume group", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			vg := deadVolumeGroup(t, d, "vg-1", a, b)
			return func(ctx context.Context) (proto.Message, error) {
				return d.CreateVolumeGroupSnapshot(ctx, &csi.CreateVolumeGroupSnapshotRequest{
					Name: "group-1", SourceVolumeIds: []string{a, b},
					Parameters: map[string]string{ParamVolumeGroupID: vg.GetVolumeGroupId()},
				})
			}
		}},
		deadCase{"DeleteVolumeGroupSnapshot", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			res, err := d.CreateVolumeGroupSnapshot(context.Background(), &csi.CreateVolumeGroupSnapshotRequest{Name: "group-1", SourceVolumeIds: []string{a, b}})
			if err != nil || !res.GetGroupSnapshot().GetReadyToUse() {
				t.Fatalf("the group snapshot: %v, %v", res, err)
			}
			var ids []string
			for _, s := range res.GetGroupSnapshot().GetSnapshots() {
				ids = append(ids, s.GetSnapshotId())
			}
			return func(ctx context.Context) (proto.Message, error) {
				return d.DeleteVolumeGroupSnapshot(ctx, &csi.DeleteVolumeGroupSnapshotRequest{
					GroupSnapshotId: res.GetGroupSnapshot().GetGroupSnapshotId(), SnapshotIds: ids,
				})
			}
		}},
		deadCase{"CreateVolumeGroup", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.VolumeGroups().CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{Name: "vg-1", VolumeIds: []string{a, b}})
			}
		}},
		deadCase{"CreateVolumeGroup empty", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			deadVolume(t, d, ms, "pvc-a", "delete")
			return func(ctx context.Context) (proto.Message, error) {
				return d.VolumeGroups().CreateVolumeGroup(ctx, &volumegroup.CreateVolumeGroupRequest{
					Name: "vg-1", Parameters: map[string]string{"source": deadSource},
				})
			}
		}},
		deadCase{"ModifyVolumeGroupMembership", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			c := deadVolume(t, d, ms, "pvc-c", "delete")
			vg := deadVolumeGroup(t, d, "vg-1", a, b)
			return func(ctx context.Context) (proto.Message, error) {
				return d.VolumeGroups().ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{
					VolumeGroupId: vg.GetVolumeGroupId(), VolumeIds: []string{b, c},
				})
			}
		}},
		deadCase{"ModifyVolumeGroupMembership to none", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			vg := deadVolumeGroup(t, d, "vg-1", a)
			return func(ctx context.Context) (proto.Message, error) {
				return d.VolumeGroups().ModifyVolumeGroupMembership(ctx, &volumegroup.ModifyVolumeGroupMembershipRequest{VolumeGroupId: vg.GetVolumeGroupId()})
			}
		}},
		deadCase{"DeleteVolumeGroup", func(t *testing.T, d *Driver, ms *memshare.Share) func(context.Context) (proto.Message, error) {
			a := deadVolume(t, d, ms, "pvc-a", "delete")
			b := deadVolume(t, d, ms, "pvc-b", "delete")
			vg := deadVolumeGroup(t, d, "vg-1", a, b)
			deadVolumeGroup(t, d, "vg-2")
			return func(ctx context.Context) (proto.Message, error) {
				return d.VolumeGroups().DeleteVolumeGroup(ctx, &volumegroup.DeleteVolumeGroupRequest{VolumeGroupId: vg.GetVolumeGroupId()})
			}
		}},
	)
	return cases
}

// deadVolumeGroup makes volume group name of the volumes ids.
func deadVolumeGroup(t *testing.T, d *Driver, name string, ids ...string) *volumegroup.VolumeGroup {
	t.Helper()
	req := &volumegroup.CreateVolumeGroupRequest{Name: name, VolumeIds: ids}
	if len(ids) == 0 {
		req.Parameters = map[string]string{"source": deadSource}
	}
	res, err := d.VolumeGroups().CreateVolumeGroup(context.Background(), req)
	if err != nil {
		t.Fatalf("volume group %s: %v", name, err)
	}
	return res.GetVolumeGroup()
}

// deadOp names one share operation of a call by what it does, not by when:
// the copies run on several sessions at once, so the global order of
// their operations varies between runs, while the n-th operation of one
// name on one path is the same operation in every run.
type deadOp struct {
	name, path string
	nth        int
}

func (o deadOp) String() string { return fmt.Sprintf("%s %s #%d", o.name, o.path, o.nth) }

// opCounter numbers the operations of each name and path.
type opCounter struct {
	mu   sync.Mutex
	seen map[[2]string]int
}

func (c *opCounter) next(op memshare.Op) deadOp {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[[2]string]int{}
	}
	// UIDs are new in every run, and so are file IDs (which the server
	// gives in the order of the concurrent copies' operations). So is the
	// time in an archive's name when its plain name was taken: a cut run
	// a second after the uninterrupted one renames to another name.
	p := deadRootsRE.ReplaceAllString(deadUIDRE.ReplaceAllString(op.Path, "UID"), "roots/ID")
	k := [2]string{op.Name, deadTimeRE.ReplaceAllString(p, "TIME")}
	c.seen[k]++
	return deadOp{name: k[0], path: k[1], nth: c.seen[k]}
}

// deadRun sets up a case on a new share and controller.
func deadRun(t *testing.T, dc deadCase) (*memshare.Share, func(context.Context) (proto.Message, error)) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	call := dc.setup(t, d, ms)
	return ms, call
}

func TestEveryDeadSessionRetryConverges(t *testing.T) {
	for _, dc := range deadCases() {
		t.Run(dc.name, func(t *testing.T) {
			t.Parallel()
			ms, call := deadRun(t, dc)
			var ops []deadOp
			var c opCounter
			ms.SetHook(func(op memshare.Op, when memshare.When) error {
				if when == memshare.Before {
					ops = append(ops, c.next(op))
				}
				return nil
			})
			ctx, _ := deadLogger()
			res, err := call(ctx)
			ms.SetHook(nil)
			if err != nil {
				t.Fatalf("the uninterrupted call: %v", err)
			}
			want, wantShare := deadAnswer(t, res), deadCanon(ms.Dump())
			if err := namesWhatIsThere(res, ms); err != nil {
				t.Fatalf("the uninterrupted call: %v", err)
			}
			start, cuts, retried, secondRuns := time.Now(), 0, 0, 0
			defer func() {
				t.Logf("%d operations, %d cuts in %v: %d answered by the call (a step ran again on a new session %d times), %d by the CO's retry",
					len(ops), cuts, time.Since(start), cuts-retried, secondRuns, retried)
				// Every call's first operation is on a session reused
				// from the pool (setup's calls left it there).
				if secondRuns == 0 {
					t.Error("no cut had withShare run a step again on a new session: the harness does not test what it is for")
				}
			}()
			for k, op := range ops {
				for _, mode := range deadModes {
					if mode.when == memshare.After && readOnly[op.name] {
						continue // the same as failing before: nothing was done
					}
					cuts++
					at := fmt.Sprintf("op %d (%s) %s", k+1, op, mode.name)
					ms, call := deadRun(t, dc)
					var fired atomic.Bool
					ms.SetHook(cutAt(op, mode, &fired))
					ctx, again := deadLogger()
					res, err := call(ctx)
					ms.SetHook(nil)
					if !fired.Load() {
						t.Errorf("%s: never reached", at)
						continue
					}
					secondRuns += again()
					how := "the call"
					if err != nil {
						retried++
						how = fmt.Sprintf("the CO's retry (the call: %v)", err)
						ctx, _ = deadLogger()
						res, err = call(ctx)
					}
					if err != nil {
						t.Errorf("%s: %s failed: %v", at, how, err)
						continue
					}
					if got := deadAnswer(t, res); got != want {
						t.Errorf("%s: %s answered\n  %s\nan uninterrupted call\n  %s", at, how, got, want)
					}
					if err := namesWhatIsThere(res, ms); err != nil {
						t.Errorf("%s: %s: %v", at, how, err)
					}
					got := deadCanon(ms.Dump())
					if mode.tolerate != nil {
						got = mode.tolerate(op, wantShare, got)
					}
					if diff := memshare.Diff(wantShare, got); diff != "" {
						t.Errorf("%s: after %s the share differs from an uninterrupted call's:\n%s", at, how, diff)
					}
				}
			}
		})
	}
}

var (
	// deadUIDRE matches the driver's UIDs (volume.UIDLength hex digits),
	// random in every run, and the keys of records (32), which hash names
	// made of UIDs (a group snapshot's members').
	deadUIDRE = regexp.MustCompile(`\b([0-9a-f]{16}|[0-9a-f]{32})\b`)
	// deadTimeRE matches the times records and answers carry, and the
	// one in the name of an archive whose plain name was taken
	// (state.ArchiveName).
	deadTimeRE   = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z|\b\d{8}T\d{6}Z\b`)
	deadRootsRE  = regexp.MustCompile(`roots/([0-9]+)`)
	deadFileIDRE = regexp.MustCompile(`(?:roots/|"[a-zA-Z]*ID":)([0-9]+)`)
)

// deadAnswer writes a call's answer with what differs between two runs
// and means nothing made equal: UIDs and times.
func deadAnswer(t *testing.T, m proto.Message) string {
	t.Helper()
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// protojson's spacing varies on purpose: through a map, sorted.
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if b, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	return deadTimeRE.ReplaceAllString(deadUIDRE.ReplaceAllString(string(b), "UID"), "TIME")
}

// namesWhatIsThere checks that every UID and record key an answer holds
// (in its IDs) is on the share: deadAnswer makes all UIDs equal, so an
// answer that named a first run's UID while the share kept a second
// run's would pass it.
func namesWhatIsThere(m proto.Message, ms *memshare.Share) error {
	b, err := protojson.Marshal(m)
	if err != nil {
		return err
	}
	var all strings.Builder
	for _, e := range ms.Dump() {
		all.WriteString(e.Path + "\n" + e.Data + "\n")
	}
	for _, id := range deadUIDRE.FindAllString(string(b), -1) {
		if !strings.Contains(all.String(), id) {
			return fmt.Errorf("the answer names %s, which is nowhere on the share: %s", id, b)
		}
	}
	return nil
}

// deadCanon writes a share as sorted lines in which what differs between
// two runs and means nothing is made equal, as pkg/state's crash test
// does: UIDs, times, and file IDs, which are named by the path of the
// object that has them; a pack's entries in name order (deadPack).
func deadCanon(entries []memshare.Entry) []string {
	return memshare.Canon{UID: deadUIDRE, Time: deadTimeRE, IDs: deadFileIDRE, Data: deadPack}.Lines(entries)
}

// deadPack writes a snapshot's pack (a tar archive, beside its tree) as
// its entries sorted by name: the copy's workers put the files in as each
// finishes reading them, in an order that varies between runs and means
// nothing (a restore places every entry by its name).
func deadPack(p, data string) string {
	if !strings.HasSuffix(p, ".pack") && !strings.Contains(p, ".packs/") {
		return data
	}
	tr := tar.NewReader(strings.NewReader(data))
	var entries []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Sprintf("%q (not a whole tar archive: %v)", data, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Sprintf("%q (not a whole tar archive: %v)", data, err)
		}
		pax := make([]string, 0, len(h.PAXRecords))
		for k, v := range h.PAXRecords {
			pax = append(pax, k+"="+v)
		}
		sort.Strings(pax)
		entries = append(entries, fmt.Sprintf("%s %c %o %d:%d %v %q", h.Name, h.Typeflag, h.Mode, h.Uid, h.Gid, pax, b))
	}
	sort.Strings(entries)
	return "tar" + fmt.Sprint(entries)
}

// deadLogger is a context whose logger keeps the call's log (not shown),
// and a count of the times withShare ran a step again on a new session.
func deadLogger() (context.Context, func() int) {
	logger := ktesting.NewLogger(ktesting.NopTL{}, ktesting.NewConfig(ktesting.Verbosity(2), ktesting.BufferLogs(true)))
	return klog.NewContext(context.Background(), logger), func() int {
		n := 0
		for _, e := range logger.GetSink().(ktesting.Underlier).GetBuffer().Data() {
			if e.Message == "idle session was dead, retrying with a new one" {
				n++
			}
		}
		return n
	}
}

// deadMode is how an operation fails: once, or with every later one of
// its session.
type deadMode struct {
	name string
	when memshare.When
	// dies: the operation's session fails every operation after it too,
	// as a connection that broke does (the pool closes the session once
	// the call releases it).
	dies bool
	// tolerate, when set, drops from got what a failure of op may leave
	// that an uninterrupted call does not, for a reason its function
	// gives.
	tolerate func(op deadOp, want, got []string) []string
}

var deadModes = []deadMode{
	{"fails before", memshare.Before, false, leftRunPacks}, // the request never reached the server
	{"fails after", memshare.After, false, leftRunPacks},   // the server did it, the reply was lost
	{"kills its session before", memshare.Before, true, nil},
	{"kills its session after", memshare.After, true, nil},
}

// leftRunPacks tolerates the empty directory of a finished snapshot's run
// packs (.fileshare-csi/snapshots/<uid>.packs) when op was its listing or
// its removal. Once the run's pack is in place, CompleteSnapshot removes
// that directory as a best effort (state's placePack logs a failure and
// goes on): a late run of another process may hold its file there open,
// which must not fail the commit, and the reclaimer removes packs beside a
// finished snapshot once they stayed for IntentTTL. Where the session
// died, the steps after the removal fail too, the step runs again, and
// the second run removes the directory: those modes tolerate nothing.
func leftRunPacks(op deadOp, want, got []string) []string {
	const dir = ".fileshare-csi/snapshots/UID.packs"
	if op.path != dir || (op.name != "list" && op.name != "rmdir") || slices.Contains(want, dir+"/") {
		return got
	}
	for i, l := range got {
		if l == dir+"/" && (i+1 == len(got) || !strings.HasPrefix(got[i+1], dir+"/")) {
			return slices.Delete(slices.Clone(got), i, i+1)
		}
	}
	return got
}

// readOnly are the operations that change nothing on the share: one whose
// reply was lost is one that failed before it took effect.
var readOnly = map[string]bool{
	"stat": true, "lstat": true, "list": true, "read": true, "readdir": true, "readdir page": true,
	"readlink": true, "lookup": true, "ids": true, "capacity": true, "open": true, "close": true,
}

// cutAt fails op as mode says.
func cutAt(op deadOp, mode deadMode, fired *atomic.Bool) memshare.Hook {
	var c opCounter
	var cur deadOp
	dead := 0 // the session that died
	// The hook is called with the share's lock held, and an operation's
	// Before and After calls are under one holding of it.
	return func(o memshare.Op, w memshare.When) error {
		if w == memshare.Before && dead != 0 && o.Session == dead {
			return fmt.Errorf("the session is dead: %w", share.ErrUnavailable)
		}
		if fired.Load() {
			return nil
		}
		if w == memshare.Before {
			cur = c.next(o)
		}
		if cur != op || w != mode.when {
			return nil
		}
		fired.Store(true)
		if mode.dies {
			dead = o.Session
		}
		if w == memshare.Before {
			return fmt.Errorf("the idle session was dead: %w", share.ErrUnavailable)
		}
		return fmt.Errorf("the reply was lost: %w", share.ErrUnavailable)
	}
}
