package driver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
)

// On a Windows node a volume's staging path and its pods' target paths
// are links the driver made: the staging link into the volume's directory
// on its share, a target link to the staging path. A request naming one
// volume must never take, remove or re-point the links of another: a
// pod's target link follows its staging link at every access, so a
// staging link re-pointed is another volume's data under a running pod.

const (
	pathsVolumeA = "v1#smb://fs/share/base#pvc-a#delete"
	pathsVolumeB = "v1#smb://fs/share/base#pvc-b#delete"
	linkOfA      = `\\?\UNC\fs\share\base\pvc-a\`
)

// twoVolumesStaged is a node with volume A staged at staging "a" and
// published for pod "pa", and volume B staged at staging "b".
func twoVolumesStaged(t *testing.T) (*Driver, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	secrets := secretOf("alice", "s3cret")
	if err := stageOn(ctx, d, fake, pathsVolumeA, "a", secrets); err != nil {
		t.Fatal(err)
	}
	fake.Mkdir(winTargetOf("pa"))
	if err := publishOn(ctx, d, pathsVolumeA, "a", "pa", secrets); err != nil {
		t.Fatal(err)
	}
	if err := stageOn(ctx, d, fake, pathsVolumeB, "b", secrets); err != nil {
		t.Fatal(err)
	}
	return d, fake
}

// volumeAIntact fails the test unless volume A's staging link still leads
// into A's directory and its pod's target to A's staging path.
func volumeAIntact(t *testing.T, fake *csiproxytest.Server, step string) {
	t.Helper()
	if got, ok := fake.Link(winStagingOf("a")); !ok || got != linkOfA {
		t.Errorf("%s: volume A's staging link is %q (%v), want %q", step, got, ok, linkOfA)
	}
	if got, ok := fake.Link(winTargetOf("pa")); !ok || got != winStagingOf("a") {
		t.Errorf("%s: volume A's pod target links to %q (%v), want A's staging path", step, got, ok)
	}
	if len(fake.Mappings()) != 1 {
		t.Errorf("%s: mappings %+v, want the share's one", step, fake.Mappings())
	}
}

// A publish of volume B whose target is volume A's staging path: the
// mounter took the staging link for "a link to an old staging path",
// removed it, and linked A's staging path to B's, so A's pod (whose
// target follows A's staging link) saw volume B's directory.
func TestAPublishNeverRepointsAnotherVolumesStagingLink(t *testing.T) {
	d, fake := twoVolumesStaged(t)
	_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: pathsVolumeB, StagingTargetPath: winStagingOf("b"), TargetPath: winStagingOf("a"),
		VolumeCapability: windowsCapability(),
	})
	if err == nil {
		t.Error("publish of volume B at volume A's staging path succeeded")
	}
	volumeAIntact(t, fake, "after the publish")
}

// An unpublish of volume B whose target is volume A's staging path: A's
// staging record made it look like an inline volume without its publish
// record, and A was taken down (its link, and the share's mapping with
// the share's last other user) under A's pod, without A's lock.
func TestAnUnpublishNeverTakesAnotherVolumesStaging(t *testing.T) {
	d, fake := twoVolumesStaged(t)
	_, err := d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{
		VolumeId: pathsVolumeB, TargetPath: winStagingOf("a"),
	})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("unpublish of volume B at volume A's staging path: %v, want FailedPrecondition", err)
	}
	volumeAIntact(t, fake, "after the unpublish")
	if st, err := d.nodeState().Staged(winStagingOf("a")); err != nil || st.VolumeID != pathsVolumeA {
		t.Errorf("volume A's staging record: %+v, %v", st.VolumeID, err)
	}
	// Nor another volume's publish target.
	_, err = d.NodeUnpublishVolume(context.Background(), &csi.NodeUnpublishVolumeRequest{
		VolumeId: pathsVolumeB, TargetPath: winTargetOf("pa"),
	})
	if status.Code(err) != codes.FailedPrecondition {
		t.Errorf("unpublish of volume B at volume A's pod target: %v, want FailedPrecondition", err)
	}
	volumeAIntact(t, fake, "after the unpublish of A's target")
}

// An unstage of volume B whose staging path is volume A's pod target: no
// staging record is kept for a target, and the mounter removed any link
// that does not lead into a share as "what a failed stage left" (a stage
// makes none such).
func TestAnUnstageNeverRemovesAPodsTargetLink(t *testing.T) {
	d, fake := twoVolumesStaged(t)
	_, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{
		VolumeId: pathsVolumeB, StagingTargetPath: winTargetOf("pa"),
	})
	if err == nil {
		t.Error("unstage of volume B at volume A's pod target succeeded")
	}
	volumeAIntact(t, fake, "after the unstage")
}

// Windows takes a path in any case, with slashes, with a trailing
// separator and with the long-path prefix for the same file; the node's
// records are keyed by the path as written. Another spelling of volume
// A's staging path passed the check of which volume is staged there.
func TestAnotherSpellingOfAStagingPathIsTheSamePath(t *testing.T) {
	for _, spelling := range []string{
		strings.ToUpper(winStagingOf("a")),
		winStagingOf("a") + `\`,
		strings.ReplaceAll(winStagingOf("a"), `\`, "/"),
		`\\?\` + winStagingOf("a"),
	} {
		t.Run(spelling, func(t *testing.T) {
			d, fake := twoVolumesStaged(t)
			_, err := d.NodeUnstageVolume(context.Background(), &csi.NodeUnstageVolumeRequest{
				VolumeId: pathsVolumeB, StagingTargetPath: spelling,
			})
			if err == nil {
				t.Errorf("unstage of volume B at %q succeeded", spelling)
			}
			volumeAIntact(t, fake, "after the unstage")
			_, err = d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
				VolumeId: pathsVolumeB, StagingTargetPath: spelling, TargetPath: winTargetOf("pb"),
				VolumeCapability: windowsCapability(),
			})
			fake.Mkdir(winTargetOf("pb"))
			_, err2 := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
				VolumeId: pathsVolumeB, StagingTargetPath: spelling, TargetPath: winTargetOf("pb"),
				VolumeCapability: windowsCapability(),
			})
			if err == nil || err2 == nil {
				t.Errorf("publish of volume B from %q: %v, %v, want refusals", spelling, err, err2)
			}
			if got, ok := fake.Link(winTargetOf("pb")); ok {
				t.Errorf("volume B's pod target links to %q: volume A's staging", got)
			}
		})
	}
}

// A publish of volume B at volume A's pod target in capitals: the record
// of A's publication was not found under that spelling, and the mounter
// replaced the link of A's pod (to A's staging path, "a link to an old
// staging path") with one to B's.
func TestAPublishAtAnotherSpellingOfAPodsTargetIsRefused(t *testing.T) {
	d, fake := twoVolumesStaged(t)
	_, err := d.NodePublishVolume(context.Background(), &csi.NodePublishVolumeRequest{
		VolumeId: pathsVolumeB, StagingTargetPath: winStagingOf("b"), TargetPath: strings.ToUpper(winTargetOf("pa")),
		VolumeCapability: windowsCapability(),
	})
	if status.Code(err) != codes.AlreadyExists {
		t.Errorf("publish of volume B at volume A's target in capitals: %v, want AlreadyExists", err)
	}
	volumeAIntact(t, fake, "after the publish")
}
