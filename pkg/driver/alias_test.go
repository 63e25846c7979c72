package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/pkg/volume"
)

// The controller places an aliased volume at its new share: the session it
// dials, its path there (an SMB rule may move the base) and its lock, which
// it shares with a volume made at the new address, so the two exclude each
// other as volumes of one share do.
func TestLocateFollowsSourceAliases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sourceAliases")
	rules := "smb://10.0.0.6/share/k8s -> smb://nas/moved/volumes\nnfs://10.0.0.5/export -> nfs://nas/export, nfs://nas-b/export\n"
	if err := os.WriteFile(path, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	aliases, err := source.OpenAliasFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Config{Name: "test.csi", Controller: true, Aliases: aliases})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := func(id string) where {
		vol, err := volume.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		return d.locate(ctx, vol).where
	}
	old := at("v1#smb://10.0.0.6/share/k8s?auth=krb5#ns/claim#delete")
	if old.root.String() != "smb://nas/moved?auth=krb5" || old.path != "volumes/ns/claim" || old.base != "volumes" {
		t.Fatalf("the aliased SMB volume is placed at %s, path %q, base %q", old.root, old.path, old.base)
	}
	if now := at("v1#smb://nas/moved/volumes#ns/other#delete"); now.canon != old.canon {
		t.Fatalf("lock roots %q and %q: a volume reached through an alias must lock with the share's own", old.canon, now.canon)
	}
	nfs := at("v1#nfs://10.0.0.5/export/k8s?vers=4.1#ns/claim#delete")
	var hosts []string
	for _, a := range nfs.root.Addresses() {
		hosts = append(hosts, a.String())
	}
	if len(hosts) != 2 || hosts[0] != "nfs://nas/export/k8s?vers=4.1" || hosts[1] != "nfs://nas-b/export/k8s?vers=4.1" {
		t.Fatalf("the aliased NFS volume is dialed at %v", hosts)
	}
	if other := at("v1#nfs://10.0.0.50/export#ns/claim#delete"); other.root.String() != "nfs://10.0.0.50/export" {
		t.Fatalf("a source no rule matches was moved to %s", other.root)
	}
}
