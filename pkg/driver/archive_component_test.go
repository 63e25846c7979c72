package driver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/share/memshare"
)

// A claim chooses its namespace and name, and another class on the same
// base (one directory per claim) may have archived a volume there: a
// subDir template that puts the namespace above the claim's directory
// would, for a namespace named after that archive, make the new volume
// inside the archive, or adopt a directory it holds and hand a deleted
// volume's data to another tenant. No directory a claim's template names
// may be named like an archive, in any case (SMB servers take
// Archived-pvc-a for archived-pvc-a); the archive is left as it was.
func TestAClaimsDirectoryNeverPassesThroughAnArchive(t *testing.T) {
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	id := createOn(t, d, "pvc-a", "archive")
	if err := ms.Client().Mkdir(ctx, "pvc-a/data", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("pvc-a/data/secret.txt", []byte("the first tenant's")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: id}); err != nil {
		t.Fatal(err)
	}
	before := ms.Dump()
	if !slices.ContainsFunc(before, func(e memshare.Entry) bool { return e.Path == "archived-pvc-a/data/secret.txt" }) {
		t.Fatalf("the volume was not archived where this test expects it: %v", before)
	}
	for _, ns := range []string{"archived-pvc-a", "Archived-pvc-a"} {
		_, err := d.CreateVolume(ctx, &csi.CreateVolumeRequest{
			Name: "pvc-b",
			Parameters: map[string]string{
				"source": "nfs://127.0.0.1/export/base", "subDir": "${pvc.metadata.namespace}/data",
				"csi.storage.k8s.io/pvc/name": "data", "csi.storage.k8s.io/pvc/namespace": ns,
			},
			VolumeCapabilities: []*csi.VolumeCapability{{
				AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
				AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER},
			}},
		})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("namespace %s: %v, want InvalidArgument", ns, err)
		}
	}
	if after := ms.Dump(); !slices.Equal(before, after) {
		t.Errorf("the share changed:\nbefore %v\nafter  %v", before, after)
	}
}

// Archiving drops the volume's holds: nothing then kept a claim from
// adopting the directory that holds the archive (a claim named after the
// namespace directory of a ${pvc.metadata.namespace}/${pvc.metadata.name}
// class, through another class on the same base), and its pod read the
// deleted volume's data; its DeleteVolume took the archive into its own
// quarantine. The archive holds its ancestors as a volume does.
func TestAClaimNeverAdoptsADirectoryHoldingAnArchive(t *testing.T) {
	ms, d := archivedTeam1(t)
	before := ms.Dump()
	res, err := createIn(context.Background(), d, archiveSrc, "${pvc.metadata.name}", "pvc-2", "attacker", "team1")
	if status.Code(err) != codes.AlreadyExists {
		t.Errorf("a claim got %q, the directory holding an archive (%v); want AlreadyExists", res.GetVolume().GetVolumeContext()["subDir"], err)
	}
	if after := ms.Dump(); !slices.Equal(before, after) {
		t.Errorf("the share changed:\nbefore %v\nafter  %v", before, after)
	}
}

// An archive record the server hands back torn or corrupt still holds: the
// directory holding the archive is never taken for free of it, nor is the
// archive's hold cleared as stale.
func TestAnUnreadableArchiveRecordStillHolds(t *testing.T) {
	ms, d := archivedTeam1(t)
	var record string
	for _, e := range ms.Dump() {
		if strings.HasPrefix(e.Path, ".fileshare-csi/archives/") && !e.Dir {
			record = e.Path
		}
	}
	if err := ms.WriteFileDirect(record, []byte(`{"uid":`)); err != nil {
		t.Fatal(err)
	}
	before := ms.Dump()
	res, err := createIn(context.Background(), d, archiveSrc, "${pvc.metadata.name}", "pvc-2", "attacker", "team1")
	if err == nil {
		t.Errorf("a claim got %q, the directory holding an archive whose record is corrupt", res.GetVolume().GetVolumeContext()["subDir"])
	}
	if after := ms.Dump(); !slices.Equal(before, after) {
		t.Errorf("the share changed:\nbefore %v\nafter  %v", before, after)
	}
}

const archiveSrc = "nfs://127.0.0.1/export/base"

// archivedTeam1 is a share where a ${pvc.metadata.namespace}/${pvc.metadata.name}
// class archived team1's claim data: team1/archived-data holds its data.
func archivedTeam1(t *testing.T) (*memshare.Share, *Driver) {
	t.Helper()
	ms := memshare.New()
	d := memshareDriver(t, ms)
	ctx := context.Background()
	res, err := createWith(ctx, d, archiveSrc, "${pvc.metadata.namespace}/${pvc.metadata.name}", "archive", "pvc-1", "team1", "data")
	if err != nil {
		t.Fatal(err)
	}
	if err := ms.WriteFileDirect("team1/data/secret.txt", []byte("team1's")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteVolume(ctx, &csi.DeleteVolumeRequest{VolumeId: res.GetVolume().GetVolumeId()}); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ms.Dump(), func(e memshare.Entry) bool { return e.Path == "team1/archived-data/secret.txt" }) {
		t.Fatalf("not archived where the tests expect: %v", ms.Dump())
	}
	return ms, d
}
