package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A volume made against a server's old address (smb://old-fs/share) and
// reached through a source alias at its new one (smb://fs/share) maps the
// same share as a volume made against the new address. The node must hold
// both to one set of credentials: Windows has one mapping per share, and
// the second volume's stage reused the first one's, credentials and all,
// when the check compared the hosts as the volumes name them.
func TestAVolumeReachedThroughAnAliasNeverUsesAnotherUsersMapping(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	dir := t.TempDir()
	path := filepath.Join(dir, "sourceAliases")
	if err := os.WriteFile(path, []byte("smb://old-fs/share -> smb://fs/share\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aliases, err := source.OpenAliasFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := newTestDriver(t, Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(fake.NewClient(t)),
		StateDir: filepath.Join(dir, "state"),
		Aliases:  aliases,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-alice#delete", "a", secretOf("alice", "alice-pw")); err != nil {
		t.Fatal(err)
	}
	err = stageOn(ctx, d, fake, "v1#smb://old-fs/share#pvc-bob#delete", "b", secretOf("bob", "bob-pw"))
	if err == nil {
		l, _ := fake.Link(winStagingOf("b"))
		t.Fatalf("bob's volume (old address, aliased to alice's server) was staged: its link %q goes through the mapping %+v, made as alice", l, fake.Mappings())
	}
}
