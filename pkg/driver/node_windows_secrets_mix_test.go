package driver

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A broken staged volume is repaired (NodePublishVolume,
// NodeGetVolumeStats) with n.stage, which resolves the aliases as they are
// now but never passes claimServer/mappingConflict. After a server move
// (alias smb://old-fs/share -> smb://fs/share) alice's volume, staged on
// old-fs as alice, is relinked into the mapping bob's volume made of
// \\fs\share as bob.
func TestARepairAfterAnAliasNeverUsesAnotherUsersMapping(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir, `c:\var\lib\kubelet\pods`)
	dir := t.TempDir()
	aliasPath := filepath.Join(dir, "sourceAliases")
	aliases, err := source.OpenAliasFile(aliasPath) // no file yet: no aliases
	if err != nil {
		t.Fatal(err)
	}
	d := newWindowsCredsNode(t, fake, filepath.Join(dir, "state"))
	d.cfg.Aliases = aliases
	ctx := context.Background()
	const alice, bob = "v1#smb://old-fs/share#pvc-alice#delete", "v1#smb://fs/share#pvc-bob#delete"
	if err := stageOn(ctx, d, fake, alice, "a", secretOf("alice", "alice-pw")); err != nil {
		t.Fatal(err)
	}
	if err := stageOn(ctx, d, fake, bob, "b", secretOf("bob", "bob-pw")); err != nil {
		t.Fatal(err) // two servers, two users: fine
	}
	// The server moves: the alias appears, the old server goes away.
	if err := os.WriteFile(aliasPath, []byte("smb://old-fs/share -> smb://fs/share\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(source.AliasCheckInterval + 100*time.Millisecond)
	fake.SetServerDown(`\\old-fs\share`, true)

	fake.Mkdir(`c:\var\lib\kubelet\pods\alice-pod\volumes\kubernetes.io~csi\pv`)
	err = publishOn(ctx, d, alice, "a", "alice-pod", secretOf("alice", "alice-pw"))
	l, _ := fake.Link(winStagingOf("a"))
	t.Logf("publish: err=%v; alice's staging link -> %q; mappings %+v", err, l, fake.Mappings())
	for _, m := range fake.Mappings() {
		if m.RemotePath == `\\fs\share` && m.Username == `CORP\bob` && err == nil {
			t.Fatalf("alice's volume was repaired into \\\\fs\\share, whose only mapping logs on as %s", m.Username)
		}
	}
}

// mappingConflict compares mounter.WindowsUser (auth negotiate:
// the Secret's username when it has one) but proves the password with
// verifyCredentials, whose negotiate login (share/smb smbInitiator) is
// Kerberos as the Secret's principal whenever the Secret has principal and
// password and a realm answers, NTLM as the username only otherwise. The
// verifier below does what smbInitiator does on a node with a krb5.conf.
func TestNegotiateProvesTheUserItCompares(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	d.cfg.VerifyCredentials = func(_ context.Context, src source.Source, c source.Credentials) error {
		user := c.Domain + `\` + c.Username // NTLMInitiator{User, Domain}
		if src.EffectiveAuth() != source.AuthNTLM && c.Principal != "" && c.Password != "" {
			user = c.Principal // krb5Initiator(loginFor(creds)): AS-REQ as the principal
		}
		if !fake.Accepts(src.Host, user, c.Password) {
			return fmt.Errorf("logon of %s refused: %w", user, fs.ErrPermission)
		}
		return nil
	}
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/share/scratch"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fake.SetPassword("fs", `CORP\svc`, "svc-pw")
	fake.SetPassword("fs", "mallory@CORP.EXAMPLE.COM", "mallory-pw")
	if err := stageOn(ctx, d, fake, "v1#smb://fs/share#pvc-victim#delete", "v", secretOf("svc", "svc-pw")); err != nil {
		t.Fatal(err)
	}
	// Mallory knows svc's name, not its password; she has an account of her own.
	mallory := map[string]string{"username": "svc", "domain": "CORP", "principal": "mallory@CORP.EXAMPLE.COM", "password": "mallory-pw"}
	err = inlineOn(ctx, d, fake, "csi-mallory", "mallory", "smb://fs/share/scratch/mallory?auth=negotiate", "", mallory)
	l, linked := fake.Link(winTargetOf("mallory"))
	t.Logf("inline publish: err=%v link=%q mappings=%+v", err, l, fake.Mappings())
	if err == nil && linked {
		t.Fatalf("mallory's pod is linked to %q through the mapping made as %v, with a password svc's account never took", l, users(fake))
	}
}

// The rotation of a broken mapping stages with mounter.Windows
// directly (RotateMapping -> Stage), not n.stage: the aliases are not
// applied, so a volume reached through an alias is relinked to the
// source's old name, without the per-server check either.
func TestARotationMapsThroughTheAliases(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir, `c:\var\lib\kubelet\pods`)
	dir := t.TempDir()
	aliasPath := filepath.Join(dir, "sourceAliases")
	if err := os.WriteFile(aliasPath, []byte("smb://old-fs/share -> smb://fs/share\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aliases, err := source.OpenAliasFile(aliasPath)
	if err != nil {
		t.Fatal(err)
	}
	d := newWindowsCredsNode(t, fake, filepath.Join(dir, "state"))
	d.cfg.Aliases = aliases
	ctx := context.Background()
	const alice = "v1#smb://old-fs/share#pvc-alice#delete"
	if err := stageOn(ctx, d, fake, alice, "a", secretOf("alice", "old-pw")); err != nil {
		t.Fatal(err)
	}
	fake.SetPassword("fs", `CORP\alice`, "new-pw")
	fake.DropSessions("fs")
	fake.Mkdir(`c:\var\lib\kubelet\pods\p\volumes\kubernetes.io~csi\pv`)
	err = publishOn(ctx, d, alice, "a", "p", secretOf("alice", "new-pw"))
	l, _ := fake.Link(winStagingOf("a"))
	t.Logf("publish: err=%v; link %q; mappings %+v", err, l, fake.Mappings())
	if !strings.Contains(strings.ToLower(l), `\fs\share`) {
		t.Fatalf("the rotation relinked the aliased volume to %q", l)
	}
}
