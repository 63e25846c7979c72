//go:build linux

package mounter

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	mount "k8s.io/mount-utils"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// The plugin is killed during a mount (its credentials file, a password in
// plain text, is left in its /tmp emptyDir) and the kubelet restarts the
// container at once, as it does (10 s back-off). The start's sweep keeps
// files younger than 10 minutes, and nothing sweeps again: the password
// stayed in the pod's /tmp for as long as the pod lived. Every later
// stage sweeps again.
func TestACredentialsFileAKilledStageLeftIsRemovedAfterAQuickRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "creds")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, "cifs-1234567")
	if err := os.WriteFile(leftover, []byte("username=u\npassword=SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	killed := time.Now().Add(-30 * time.Second) // killed 30 s ago, restarted now
	if err := os.Chtimes(leftover, killed, killed); err != nil {
		t.Fatal(err)
	}
	// The restart: what New does first.
	removeStaleCredentials(dir, staleCredentials)

	// The restarted plugin then serves stages for an hour (mtimes moved
	// instead of waiting): the leftover is never looked at again.
	l := NewLinuxForTest(mount.NewFakeMounter(nil), func(context.Context, string, string, string, []string) error { return nil }, dir)
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(leftover, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	src, err := source.Parse("smb://fs/share")
	if err != nil {
		t.Fatal(err)
	}
	req := StageRequest{Source: src, StagingPath: filepath.Join(t.TempDir(), "globalmount"), Credentials: source.Credentials{Username: "u", Password: "p"}}
	if err := l.Stage(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(leftover); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the killed stage's credentials file (a plaintext password) is still in the plugin's /tmp after a restart and an hour of stages: %v", err)
	}
}

// The same kill and quick restart on a node where no SMB volume is staged
// afterwards: no later stage sweeps, and the start's sweep kept the file
// as too young. The start sweeps again once the files it kept are stale.
func TestACredentialsFileAKilledStageLeftIsRemovedWithoutALaterStage(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := filepath.Join(tmp, "fileshare-csi-credentials")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, "cifs-7654321")
	if err := os.WriteFile(leftover, []byte("username=u\npassword=SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Written just short of the age the sweep removes.
	killed := time.Now().Add(-staleCredentials + 3*time.Second)
	if err := os.Chtimes(leftover, killed, killed); err != nil {
		t.Fatal(err)
	}
	_ = New()
	if _, err := os.Stat(leftover); err != nil {
		t.Fatalf("the start removed a credentials file younger than %s: %v", staleCredentials, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(leftover); errors.Is(err, fs.ErrNotExist) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the killed stage's credentials file (a plaintext password) is still in the plugin's /tmp once it is stale, and stays until a stage of an SMB volume comes")
}
