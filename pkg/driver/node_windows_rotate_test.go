package driver

import (
	"context"
	"path/filepath"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
)

// A changed password reaches the node's mapping at a republish, under the
// Linux rotation's rules: checked with the server first; a working mapping
// is kept (its pods keep their open files) and the new password recorded;
// once the server drops the session, the next republish maps the share
// again with it, at the same path, and every volume of the share works.
func TestWindowsNodeRotatesTheMappingPassword(t *testing.T) {
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	const v1, v2 = "v1#smb://fs/share#pvc-1#delete", "v1#smb://fs/share#pvc-2#delete"
	fake.SetPassword("fs", `CORP\alice`, "pw-old-7f")
	for _, v := range []struct{ id, vol, pod string }{{v1, "a", "p1"}, {v2, "b", "p2"}} {
		if err := stageOn(ctx, d, fake, v.id, v.vol, secretOf("alice", "pw-old-7f")); err != nil {
			t.Fatal(err)
		}
		if err := publishOn(ctx, d, v.id, v.vol, v.pod, secretOf("alice", "pw-old-7f")); err != nil {
			t.Fatal(err)
		}
	}

	// The Secret is ahead of the server: refused, the mapping untouched.
	fake.ResetCalls()
	err := publishOn(ctx, d, v1, "a", "p1", secretOf("alice", "pw-new-9c"))
	wantCode(t, "republish with a password the server refuses", err, codes.PermissionDenied, "keeps the node's mapping")
	wantNoSecret(t, "refused rotation", err, "pw-new-9c", "pw-old-7f")
	for _, c := range fake.Calls() {
		if c.Method == "NewSmbGlobalMapping" || c.Method == "RemoveSmbGlobalMapping" {
			t.Fatalf("the mapping was touched for a password the server refuses: %s", c.Method)
		}
	}

	// The server changes; the session lives on: the mapping is kept.
	fake.SetPassword("fs", `CORP\alice`, "pw-new-9c")
	fake.ResetCalls()
	if err := publishOn(ctx, d, v1, "a", "p1", secretOf("alice", "pw-new-9c")); err != nil {
		t.Fatalf("republish with the new password: %v", err)
	}
	for _, c := range fake.Calls() {
		if c.Method == "NewSmbGlobalMapping" || c.Method == "RemoveSmbGlobalMapping" {
			t.Fatalf("a working mapping was replaced (its pods would lose their open files): %s", c.Method)
		}
	}
	if m := fake.Mappings(); len(m) != 1 || m[0].Password != "pw-old-7f" {
		t.Fatalf("mappings %+v, want the old one kept", m)
	}

	// The server drops the session: the old password fails its logon, and
	// both volumes of the share stop working until the next republish,
	// which maps the share again with the recorded new password.
	fake.DropSessions("fs")
	if err := d.cfg.Mounter.Check(ctx, winTargetOf("p2")); err == nil {
		t.Fatal("the second volume works although its mapping's session is gone")
	}
	if err := publishOn(ctx, d, v1, "a", "p1", secretOf("alice", "pw-new-9c")); err != nil {
		t.Fatalf("republish after the session dropped: %v", err)
	}
	if m := fake.Mappings(); len(m) != 1 || m[0].Password != "pw-new-9c" || m[0].Username != `CORP\alice` {
		t.Fatalf("mappings %+v, want one with the new password", m)
	}
	for _, p := range []string{winTargetOf("p1"), winTargetOf("p2"), winStagingOf("a"), winStagingOf("b")} {
		if err := d.cfg.Mounter.Check(ctx, p); err != nil {
			t.Errorf("%s after the rotation: %v", p, err)
		}
	}
	if got, ok := fake.Link(winTargetOf("p2")); !ok || got != winStagingOf("b") {
		t.Errorf("the other pod's link changed: %q (%v)", got, ok)
	}

	// Another user in the Secret cannot replace a live mapping.
	err = publishOn(ctx, d, v1, "a", "p1", secretOf("mallory", "pw-new-9c"))
	wantCode(t, "republish with another user", err, codes.FailedPrecondition, "another SMB user")
}

// On a Windows node a negotiate (or krb5) Secret may name its user by
// principal (a UPN) with a password: the mapping logs on with that
// password, so a changed one is handed over as for NTLM. (It was not: the
// rotation took such a Secret for a Linux Kerberos mount, which holds no
// password, and a repair mapped again with the old one, error 1326.)
func TestAPrincipalSecretsNewPasswordReachesTheWindowsMapping(t *testing.T) {
	d, fake := alicePublishedByPrincipal(t)
	ctx := context.Background()
	// The server and the Secret change; the server drops the session.
	fake.SetPassword("fs", "alice@CORP.EXAMPLE", "pw-alice-2")
	fake.DropSessions("fs")
	err := publishOn(ctx, d, principalVolume, "a", "p1", upnSecret("alice@CORP.EXAMPLE", "pw-alice-2"))
	st, _ := d.nodeState().Staged(winStagingOf("a"))
	if st.Request.Credentials.Password != "pw-alice-2" {
		t.Errorf("after a republish with the new password (answered %v) the record keeps the old one; mappings %+v", err, fake.Mappings())
	}
}

// A Secret naming another principal is refused as another user (it was
// answered OK).
func TestAWindowsRepublishWithAnotherPrincipalIsRefused(t *testing.T) {
	d, fake := alicePublishedByPrincipal(t)
	ctx := context.Background()
	fake.SetPassword("fs", "bob@CORP.EXAMPLE", "pw-bob-1")
	err := publishOn(ctx, d, principalVolume, "a", "p1", upnSecret("bob@CORP.EXAMPLE", "pw-bob-1"))
	if err == nil {
		t.Fatal("republish with another principal answered OK")
	}
	wantCode(t, "republish with another principal", err, codes.FailedPrecondition, "another")
}

// principalVolume is a negotiate volume whose Secret names its user by
// principal (a UPN).
const principalVolume = "v1#smb://fs/share?auth=negotiate#pvc-1#delete"

func upnSecret(principal, password string) map[string]string {
	return map[string]string{"principal": principal, "password": password}
}

// alicePublishedByPrincipal is a Windows node with principalVolume staged
// at "a" and published for pod p1 as alice@CORP.EXAMPLE.
func alicePublishedByPrincipal(t *testing.T) (*Driver, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, winDriverDir)
	d := newWindowsCredsNode(t, fake, filepath.Join(t.TempDir(), "state"))
	ctx := context.Background()
	fake.SetPassword("fs", "alice@CORP.EXAMPLE", "pw-alice-1")
	if err := stageOn(ctx, d, fake, principalVolume, "a", upnSecret("alice@CORP.EXAMPLE", "pw-alice-1")); err != nil {
		t.Fatal(err)
	}
	if err := publishOn(ctx, d, principalVolume, "a", "p1", upnSecret("alice@CORP.EXAMPLE", "pw-alice-1")); err != nil {
		t.Fatal(err)
	}
	return d, fake
}
