package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
	"github.com/fileshare-csi/fileshare-csi/pkg/state"
)

// A snapshot's copy says on the share that it runs while it does (so that
// no reclaimer of another process, replica or cluster takes it for
// abandoned: state's TestAReclaimerSparesACopyAnotherProcessRuns), and
// stops saying so when it ends.
func TestACopyBeatsOnTheShareWhileItRuns(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	id := createOn(t, d, "pvc-a", "delete")
	if err := ms.WriteFileDirect("pvc-a/data.txt", []byte("the tenant's")); err != nil {
		t.Fatal(err)
	}
	// The share's operations, in order: the copy's reads of the volume,
	// and the writes and removals of beats. (A hook runs under the
	// in-memory share's lock, so it records; it cannot hold the copy.)
	var mu sync.Mutex
	var ops []memshare.Op
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.After && (strings.HasPrefix(op.Path, "pvc-a/") || strings.HasPrefix(op.Path, ".fileshare-csi/busy/")) {
			mu.Lock()
			ops = append(ops, op)
			mu.Unlock()
		}
		return nil
	})
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
		if err == nil && resp.GetSnapshot().GetReadyToUse() {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the snapshot is not ready: %v, %v", resp, err)
		}
	}
	ms.SetHook(nil)
	firstRead, lastRead, beat, stopped := -1, -1, -1, -1
	for i, op := range ops {
		switch {
		case strings.HasPrefix(op.Path, "pvc-a/"):
			if firstRead < 0 {
				firstRead = i
			}
			lastRead = i
		case op.Name == "write" && beat < 0:
			beat = i
		case op.Name == "remove":
			stopped = i
		}
	}
	if firstRead < 0 || beat < 0 || stopped < 0 || beat > firstRead || stopped < lastRead {
		t.Fatalf("the copy read the volume at operations %d to %d, beat at %d and stopped at %d: want a beat before the copy and its removal after: %+v", firstRead, lastRead, beat, stopped, ops)
	}
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/busy/") && !e.Dir {
			t.Errorf("a beat stayed after the copy ended: %s", e.Path)
		}
	}
}

// slowCopies makes every read of a volume's files on ms take a while, so a
// copy of them runs long enough to be seen running. (The hook holds the
// in-memory share's lock while it sleeps; the beats and the test's own
// writes go between two reads.)
func slowCopies(ms *memshare.Share, prefix string) {
	ms.SetHook(func(op memshare.Op, when memshare.When) error {
		if when == memshare.Before && strings.HasPrefix(op.Path, prefix) {
			time.Sleep(3 * time.Millisecond)
		}
		return nil
	})
}

// fenced is a controller on ms whose copies beat every 10 ms and take
// another process's copy over after 100 ms of its beat unchanged.
func fenced(t *testing.T, ms *memshare.Share) *Driver {
	d := memshareDriver(t, ms)
	d.beatTimes = beatTimes{every: 10 * time.Millisecond, takeover: 100 * time.Millisecond}
	return d
}

// snapshotRecord is the one snapshot record on ms.
func snapshotRecord(t *testing.T, ms *memshare.Share) state.Snapshot {
	t.Helper()
	snaps, err := state.New(ms.Client()).ListSnapshots(context.Background())
	if err != nil || len(snaps) != 1 {
		t.Fatalf("snapshots: %+v, %v", snaps, err)
	}
	return snaps[0]
}

// manyFiles writes n files into the volume pvc-a.
func manyFiles(t *testing.T, ms *memshare.Share, n int) {
	t.Helper()
	for i := range n {
		if err := ms.WriteFileDirect(fmt.Sprintf("pvc-a/d%d/f%03d", i%10, i), []byte(strings.Repeat("x", 100))); err != nil {
			t.Fatal(err)
		}
	}
}

// copyingSnapshot has first, a controller on ms, copy pvc-a's 300 files
// into a snapshot slowly, and returns as soon as the copy runs: the
// snapshot's request and UID.
func copyingSnapshot(t *testing.T, ms *memshare.Share, first *Driver) (*csi.CreateSnapshotRequest, string) {
	t.Helper()
	id := createOn(t, first, "pvc-a", "delete")
	manyFiles(t, ms, 300)
	slowCopies(ms, "pvc-a/")
	req := &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id}
	short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if resp, err := first.CreateSnapshot(short, req); err != nil || resp.GetSnapshot().GetReadyToUse() {
		t.Fatalf("the first controller's call: %v, %v, want not ready", resp, err)
	}
	uid := snapshotRecord(t, ms).UID
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b, err := state.New(ms.Client()).ReadBeat(context.Background(), uid); err == nil && b.Owner == first.instance {
			return req, uid
		}
		if time.Now().After(end) {
			t.Fatal("the copy never beat")
		}
	}
}

// Two controller processes on one share (a demoted leader still copying,
// the new leader asked for the same snapshot): the second does not start
// the copy beside the first while the first beats, answers "not ready",
// and takes the copy over only once the first one's beat has stayed the
// same for the takeover time (its process died).
func TestACopyAnotherProcessBeatsForIsNotStartedBesideIt(t *testing.T) {
	ms := memshare.New()
	first, second := fenced(t, ms), fenced(t, ms)
	ctx := context.Background()
	req, uid := copyingSnapshot(t, ms, first)
	resp, err := second.CreateSnapshot(ctx, req)
	if err != nil || resp.GetSnapshot().GetReadyToUse() {
		t.Fatalf("the second controller's call while the first copies: %v, %v, want not ready", resp, err)
	}
	if j := second.jobs.Get(snapshotJobKey(uid)); j == nil || !errors.Is(j.Err(), errCopiedElsewhere) {
		t.Fatalf("the second controller's copy job: %v, want it not started (errCopiedElsewhere)", j)
	}
	// The first controller dies: its copy stops and its last beat stays
	// (one the second has not seen yet).
	first.jobs.Cancel(ctx, snapshotJobKey(uid))
	if err := state.New(ms.Client()).Beat(ctx, uid, first.instance); err != nil {
		t.Fatal(err)
	}
	ms.SetHook(nil)
	if resp, err := second.CreateSnapshot(ctx, req); err != nil || resp.GetSnapshot().GetReadyToUse() {
		t.Fatalf("the second controller's call just after the first died: %v, %v, want not ready: it cannot tell yet", resp, err)
	}
	time.Sleep(150 * time.Millisecond)
	takesOver(t, ms, second, req, uid, "the second controller")
}

// takesOver asks d for the snapshot of req until it is ready, which d
// makes it only by taking over the copy another process left beating, and
// checks that no beat stays after it.
func takesOver(t *testing.T, ms *memshare.Share, d *Driver, req *csi.CreateSnapshotRequest, uid, who string) {
	t.Helper()
	ctx := context.Background()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		resp, err := d.CreateSnapshot(ctx, req)
		if err == nil && resp.GetSnapshot().GetReadyToUse() {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%s never took the copy over: %v, %v", who, resp, err)
		}
	}
	if b, err := state.New(ms.Client()).ReadBeat(ctx, uid); err != nil || b.Owner != "" {
		t.Errorf("a beat stayed after the copy was made: %+v, %v", b, err)
	}
}

// A copy runs on between its beats. One taken over in that time (another
// process found its beat stale during a pause of this one) that then
// reaches its end commits nothing: the fence is asked once more before
// the commit, whose snapshot would otherwise be the late copy's.
func TestACopyTakenOverSinceItsLastBeatCommitsNothing(t *testing.T) {
	ms := memshare.New()
	ctx := context.Background()
	d := fenced(t, ms)
	d.beatTimes.every = time.Hour // no beat after the first
	_, uid := copyingSnapshot(t, ms, d)
	if err := state.New(ms.Client()).Beat(ctx, uid, "newleader"); err != nil {
		t.Fatal(err)
	}
	ms.SetHook(nil)
	job := d.jobs.Get(snapshotJobKey(uid))
	select {
	case <-job.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the copy did not end")
	}
	if !errors.Is(job.Err(), errTakenOver) {
		t.Errorf("the copy ended with %v, want it taken over", job.Err())
	}
	if snap := snapshotRecord(t, ms); snap.Ready {
		t.Errorf("the taken-over copy committed the snapshot: %+v", snap)
	}
	if b, err := state.New(ms.Client()).ReadBeat(ctx, uid); err != nil || b.Owner != "newleader" {
		t.Errorf("the beat of the process that took over: %+v, %v", b, err)
	}
}

// podFenced is fenced for a controller of the pod pod, which never takes
// a copy over for a beat that stayed the same (an hour): what it takes
// over at once, it takes over as the next container of the same pod.
func podFenced(t *testing.T, ms *memshare.Share, pod string) *Driver {
	d := fenced(t, ms)
	d.cfg.PodUID, d.instance = pod, instanceID(pod)
	d.beatTimes.takeover = time.Hour
	return d
}

// A controller container that crashed (an OOM kill) leaves its copy's beat
// on the share; the kubelet starts the next container of the same pod only
// once it has exited, so that one takes the copy over at once, where a
// controller of another pod waits for the beat to stay the same.
func TestACopyAnEarlierContainerOfThisPodLeftIsTakenOverAtOnce(t *testing.T) {
	ms := memshare.New()
	ctx := context.Background()
	crashed := podFenced(t, ms, "0b6f3a7e-5a41-4c55-9d7c-2f0a4a1b9e10")
	req, uid := copyingSnapshot(t, ms, crashed)
	crashed.jobs.Cancel(ctx, snapshotJobKey(uid))
	if err := state.New(ms.Client()).Beat(ctx, uid, crashed.instance); err != nil {
		t.Fatal(err)
	}
	ms.SetHook(nil)
	for _, other := range []*Driver{podFenced(t, ms, "7c1d2e3f-0000-4000-8000-000000000001"), podFenced(t, ms, "")} {
		if resp, err := other.CreateSnapshot(ctx, req); err != nil || resp.GetSnapshot().GetReadyToUse() {
			t.Fatalf("a controller of another pod (%q): %v, %v, want not ready", other.cfg.PodUID, resp, err)
		}
		if j := other.jobs.Get(snapshotJobKey(uid)); j == nil || !errors.Is(j.Err(), errCopiedElsewhere) {
			t.Fatalf("a controller of another pod (%q) started the copy: %v", other.cfg.PodUID, j)
		}
	}
	takesOver(t, ms, podFenced(t, ms, crashed.cfg.PodUID), req, uid, "the next container of the pod")
	if _, err := New(Config{Name: "test.csi", Controller: true, PodUID: "pod/x"}); err == nil {
		t.Error("--pod-uid with a slash was taken: a beat's owner would not say its pod")
	}
}

// A copy that another process took over (it found this one's beat stale,
// after a pause of this process) stops at its next beat, and one whose
// volume another process filled meanwhile stops too: neither writes on
// beside the copy that now owns the destination, or into a volume a pod
// may use.
func TestACopyStopsOnceItIsNoLongerItsOwn(t *testing.T) {
	for _, c := range []struct {
		name string
		then func(t *testing.T, ms *memshare.Share, uid string)
		want error
	}{
		{"taken over", func(t *testing.T, ms *memshare.Share, uid string) {
			// The other process beats as a copy does (a beat that lands
			// between this copy's look and its own beat is overwritten;
			// the other process's next look then stops its own copy: one
			// of the two goes on either way).
			stop := make(chan struct{})
			t.Cleanup(func() { close(stop) })
			go func() {
				for {
					_ = state.New(ms.Client()).Beat(context.Background(), uid, "newleader")
					select {
					case <-stop:
						return
					case <-time.After(2 * time.Millisecond):
					}
				}
			}()
		}, errTakenOver},
		{"filled elsewhere", func(t *testing.T, ms *memshare.Share, uid string) {
			st := state.New(ms.Client())
			rec, err := st.Get(context.Background(), "pvc-b", uid)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Populated(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
		}, errNoLongerWanted},
	} {
		t.Run(c.name, func(t *testing.T) {
			ms := memshare.New()
			d := fenced(t, ms)
			ctx := context.Background()
			id := createOn(t, d, "pvc-a", "delete")
			manyFiles(t, ms, 300)
			resp, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
			if err != nil || !resp.GetSnapshot().GetReadyToUse() {
				t.Fatalf("snapshot: %v, %v", resp, err)
			}
			slowCopies(ms, "pvc-b/")
			short, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			_, err = d.CreateVolume(short, &csi.CreateVolumeRequest{
				Name:       "pvc-b",
				Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base"},
				VolumeCapabilities: []*csi.VolumeCapability{{
					AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
					AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
				}},
				VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: resp.GetSnapshot().GetSnapshotId()}}},
			})
			if status.Code(err) != codes.Aborted {
				t.Fatalf("the restore with its copy slowed: %v, want Aborted (still being filled)", err)
			}
			// The call answers before the copy is done; the copy goes on
			// and beats.
			var uid string
			for end := time.Now().Add(10 * time.Second); uid == "" && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
				for _, e := range ms.Dump() {
					if u, ok := strings.CutPrefix(e.Path, ".fileshare-csi/busy/"); ok && !e.Dir {
						uid = u
					}
				}
			}
			if uid == "" {
				t.Fatal("no beat while the restore copies")
			}
			c.then(t, ms, uid)
			then := time.Now()
			job := d.jobs.Get(populateJobKey(uid))
			select {
			case <-job.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the copy did not stop")
			}
			if !errors.Is(job.Err(), c.want) {
				t.Fatalf("the copy ended with %v after %v, want %v", job.Err(), time.Since(then), c.want)
			}
			copied := 0
			for _, e := range ms.Dump() {
				if strings.HasPrefix(e.Path, "pvc-b/") && !e.Dir {
					copied++
				}
			}
			if copied == 300 {
				t.Fatalf("the copy wrote all its files (it ended after %v): it did not stop at its next beat", time.Since(then))
			}
			ms.SetHook(nil)
		})
	}
}

// At SIGTERM the controller stops its copies before it exits, and each
// removes its beat: the next controller resumes them at once, rather than
// after state.TakeoverAfter.
func TestStopCopiesRemovesTheirBeats(t *testing.T) {
	ms := memshare.New()
	d, next := fenced(t, ms), fenced(t, ms)
	ctx := context.Background()
	req, uid := copyingSnapshot(t, ms, d)
	if b, err := state.New(ms.Client()).ReadBeat(ctx, uid); err != nil || b.Owner != d.instance {
		t.Fatalf("the copy's beat: %+v, %v", b, err)
	}
	stopCtx, cancelStop := context.WithTimeout(ctx, 10*time.Second)
	defer cancelStop()
	if err := d.StopCopies(stopCtx); err != nil {
		t.Fatal(err)
	}
	if b, err := state.New(ms.Client()).ReadBeat(ctx, uid); err != nil || b.Owner != "" {
		t.Fatalf("the stopped copy's beat stayed: %+v, %v", b, err)
	}
	ms.SetHook(nil)
	resp, err := next.CreateSnapshot(ctx, req)
	if err != nil || !resp.GetSnapshot().GetReadyToUse() {
		t.Fatalf("the next controller's first call: %v, %v, want the copy resumed and ready at once", resp, err)
	}
}

// A copy that holds every session of its share (two per share: its lister
// and its worker) still beats, through its worker's own session between
// files: beats that waited for a spare session would never come, and
// another process would take a live copy over.
func TestACopyHoldingEverySessionStillBeats(t *testing.T) {
	ms := memshare.New()
	d := fenced(t, ms)
	d.cfg.Pool.MaxOpenPerKey = 2
	ctx := context.Background()
	_, uid := copyingSnapshot(t, ms, d)
	seen := map[string]bool{}
	for end := time.Now().Add(10 * time.Second); len(seen) < 3 && time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if b, err := state.New(ms.Client()).ReadBeat(ctx, uid); err == nil && b.Owner == d.instance {
			seen[b.Raw] = true
		}
	}
	if len(seen) < 3 {
		t.Fatalf("%d beats while the copy ran, want it to go on beating", len(seen))
	}
}

// A copy that waits for one of its share's copy slots (the copies ahead of
// it may run for hours) beats while it waits: it is this process's to run,
// and no reclaimer of another process (a demoted leader's, another
// cluster's), which knows nothing of this process's calls, may take the
// volume it is to fill for abandoned once its passes saw no beat for
// state.IntentTTL. Nor does another process start it beside it.
func TestACopyWaitingForASlotBeats(t *testing.T) {
	ms := memshare.New()
	d := fenced(t, ms)
	ctx := context.Background()
	id := createOn(t, d, "pvc-a", "delete")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ms.WriteFileDirect("pvc-a/data.txt", []byte("the tenant's")))
	clone := func(ctx context.Context) error {
		_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name:       "pvc-clone",
			Parameters: map[string]string{"source": "nfs://127.0.0.1/export/base", "onDelete": "delete"},
			VolumeCapabilities: []*csi.VolumeCapability{{
				AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
				AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
			}},
			VolumeContentSource: &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: id}}},
		})
		return err
	}
	// Every slot of the share taken, as by copies that run for hours: a
	// first copy names the share's slots.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := d.CreateSnapshot(ctx, &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: id})
		if err == nil && resp.GetSnapshot().GetReadyToUse() {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the snapshot is not ready: %v, %v", resp, err)
		}
	}
	d.copySlots.mu.Lock()
	full := map[string]chan struct{}{}
	for k, ch := range d.copySlots.slots {
		for range cap(ch) {
			ch <- struct{}{}
		}
		full[k] = ch
	}
	d.copySlots.mu.Unlock()
	if len(full) == 0 {
		t.Fatal("no copy slots were taken")
	}
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	err := clone(cctx)
	cancel()
	if status.Code(err) != codes.Aborted {
		t.Fatalf("the clone waiting for a slot: %v, want Aborted (in progress)", err)
	}
	time.Sleep(50 * time.Millisecond) // beats every 10 ms
	beats := 0
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/busy/") && !e.Dir {
			beats++
		}
	}
	if beats == 0 {
		t.Errorf("the clone's copy waits for a slot without a beat on the share: another process's reclaimer would take its volume for abandoned")
	}
	for _, ch := range full {
		for range cap(ch) {
			<-ch
		}
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		err := clone(cctx)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the clone did not finish once the slots were free: %v", err)
		}
	}
}
