package driver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"

	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/hostprocess"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
)

// The contract of a Windows node in HostProcess mode for what a class
// demands of a share's mapping: auth krb5 as -BlockNTLM, and no volume
// staged on a mapping made without the encryption, signing or -BlockNTLM
// its class demands, after a restart of the plugin too.

// psFails makes a mapping of the fake HostProcess node fail as PowerShell
// reports it (psError), returning what the HostProcess host makes of that
// (hostprocess.MappingError).
func psFails(stderr string) func(ctx context.Context, remote, user string, opts winhost.MapOptions) error {
	return func(ctx context.Context, remote, user string, opts winhost.MapOptions) error {
		root, err := winpath.ShareRoot(remote)
		if err != nil {
			return err
		}
		return hostprocess.MappingError(ctx, root, user, opts, errors.New(stderr))
	}
}

func newHostProcessNode(t *testing.T, fake *csiproxytest.Server, stateDir string, old bool) (*Driver, *csiproxytest.OptionsHost) {
	t.Helper()
	h := &csiproxytest.OptionsHost{Host: fake.NewClient(t), OldWindows: old}
	d, err := newTestDriver(t, Config{
		Name: "fileshare.csi.dev", NodeID: "win-1", Node: true,
		Mounter:  mounter.NewWindows(h),
		StateDir: stateDir,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d, h
}

// stageClass stages vol with a class's source and mount options.
func stageClass(ctx context.Context, d *Driver, fake *csiproxytest.Server, id, vol, src, opts string, secrets map[string]string) error {
	fake.Mkdir(winStagingOf(vol))
	_, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: id, StagingTargetPath: winStagingOf(vol), VolumeCapability: windowsCapability(), Secrets: secrets,
		VolumeContext: map[string]string{ContextSource: src, ContextSubDir: vol, ContextMountOptions: opts},
	})
	return err
}

func winKrbSecret() map[string]string {
	return map[string]string{"principal": "alice@CORP.EXAMPLE", "password": "s3cret"}
}

func TestWindowsNodeStagesKrb5WithBlockNTLM(t *testing.T) {
	ctx := context.Background()
	fake := csiproxytest.Start(t, winDriverDir)
	d, h := newHostProcessNode(t, fake, filepath.Join(t.TempDir(), "state"), false)
	if err := stageClass(ctx, d, fake, "vol-k", "k", "smb://fs/share?auth=krb5", "", winKrbSecret()); err != nil {
		t.Fatal(err)
	}
	if err := stageClass(ctx, d, fake, "vol-n", "n", "smb://fs2/share?auth=negotiate", "", winKrbSecret()); err != nil {
		t.Fatal(err)
	}
	// -BlockNTLM exactly for the krb5 class.
	if len(h.Asked) != 2 || !h.Asked[0].BlockNTLM || h.Asked[1].BlockNTLM {
		t.Fatalf("mappings asked %+v, want BlockNTLM for the krb5 volume only", h.Asked)
	}
	if m := fake.Mappings(); len(m) != 2 || m[0].Username != "alice@CORP.EXAMPLE" {
		t.Fatalf("mappings %+v", m)
	}

	// A Secret with a keytab and no password: InvalidArgument naming what
	// to put in it, before anything is mapped.
	h.Asked = nil
	err := stageClass(ctx, d, fake, "vol-kt", "kt", "smb://fs3/share?auth=krb5", "",
		map[string]string{"principal": "alice@CORP.EXAMPLE", "krb5.keytab": "BQIAAABHAAEKQ09SUC5FWEFNUExF"})
	wantCode(t, "keytab-only Secret", err, codes.InvalidArgument, "put password in the Secret")
	if strings.Contains(err.Error(), "BQIAAABH") || len(h.Asked) != 0 {
		t.Fatalf("keytab shown (%v) or mapped anyway (%+v)", err, h.Asked)
	}
}

// Windows before Server 2025: FailedPrecondition saying what is needed,
// and nothing left on the node.
func TestWindowsNodeKrb5NeedsWindowsServer2025(t *testing.T) {
	ctx := context.Background()
	fake := csiproxytest.Start(t, winDriverDir)
	d, h := newHostProcessNode(t, fake, filepath.Join(t.TempDir(), "state"), true)
	err := stageClass(ctx, d, fake, "vol-k", "k", "smb://fs/share?auth=krb5", "", winKrbSecret())
	wantCode(t, "krb5 on old Windows", err, codes.FailedPrecondition, "Windows Server 2025")
	if !strings.Contains(err.Error(), "auth negotiate") || len(h.Asked) != 1 {
		t.Fatalf("%v (asked %+v): want auth negotiate named, after one try", err, h.Asked)
	}
	if m := fake.Mappings(); len(m) != 0 {
		t.Fatalf("mappings left %+v", m)
	}
	if _, ok := fake.Link(winStagingOf("k")); ok {
		t.Fatal("a link was left")
	}
	// The same node maps the class with negotiate.
	if err := stageClass(ctx, d, fake, "vol-n", "n", "smb://fs/share?auth=negotiate", "", winKrbSecret()); err != nil {
		t.Fatalf("negotiate on old Windows: %v", err)
	}

	// csi-proxy cannot pass -BlockNTLM at all: refused before any call,
	// and with that reason even where another user maps the server.
	proxy := csiproxytest.Start(t, winDriverDir)
	dp := newWindowsCredsNode(t, proxy, filepath.Join(t.TempDir(), "state"))
	if err := stageOn(ctx, dp, proxy, "v1#smb://fs/share#pvc-bob#delete", "b", secretOf("bob", "bob-pw")); err != nil {
		t.Fatal(err)
	}
	proxy.ResetCalls()
	err = stageClass(ctx, dp, proxy, "vol-k", "k", "smb://fs/share?auth=krb5", "", winKrbSecret())
	wantCode(t, "krb5 through csi-proxy", err, codes.FailedPrecondition, "HostProcess mode on Windows Server 2025")
	for _, c := range proxy.Calls() {
		if c.Method == "NewSmbGlobalMapping" {
			t.Fatal("mapped through csi-proxy although krb5 was refused")
		}
	}
}

// A volume whose class demands encryption, signing or -BlockNTLM is not
// staged on a share's mapping that another volume was staged without;
// across a restart of the plugin too. A weaker class on a stronger
// mapping is fine, and a mapping it makes again keeps the stronger
// switches.
func TestWindowsNodeRefusesAWeakerMapping(t *testing.T) {
	ctx := context.Background()
	fake := csiproxytest.Start(t, winDriverDir)
	state := filepath.Join(t.TempDir(), "state")
	d, h := newHostProcessNode(t, fake, state, false)
	const weak = "vol-weak"
	if err := stageClass(ctx, d, fake, weak, "w", "smb://fs/share?auth=negotiate&encryption=preferred", "", winKrbSecret()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, src, opts, want string }{
		{"seal", "smb://fs/share?auth=negotiate&encryption=preferred", "seal", "encryption"},
		{"encryption required", "smb://fs/share?auth=negotiate", "", "-RequirePrivacy"},
		{"sign", "smb://fs/share?auth=negotiate&encryption=preferred", "sign", "-RequireIntegrity"},
		{"krb5", "smb://fs/share?auth=krb5&encryption=preferred", "", "-BlockNTLM"},
	} {
		h.Asked = nil
		err := stageClass(ctx, d, fake, "vol-"+tc.name, "s", tc.src, tc.opts, winKrbSecret())
		wantCode(t, tc.name, err, codes.FailedPrecondition, weak)
		if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `\\fs\share`) {
			t.Errorf("%s: %q does not say %q and the share", tc.name, err, tc.want)
		}
		if len(h.Asked) != 0 {
			t.Errorf("%s: mapped although refused: %+v", tc.name, h.Asked)
		}
	}
	// Another share of the server has a mapping of its own.
	if err := stageClass(ctx, d, fake, "vol-other", "o", "smb://fs/other?auth=krb5", "seal", winKrbSecret()); err != nil {
		t.Fatalf("a stronger class on another share: %v", err)
	}

	// After a restart of the plugin (a state directory with the same
	// records, and no credentials in memory), still refused.
	restarted := filepath.Join(t.TempDir(), "state")
	copyDir(t, state, restarted)
	d2, _ := newHostProcessNode(t, fake, restarted, false)
	rec, err := (nodestate.NodeStore{Dir: restarted, Identities: true}).Staged(winStagingOf("w"))
	if err != nil || rec.Mapping == nil || *rec.Mapping != (winhost.MapOptions{}) || rec.Request.Credentials.Password != "" {
		t.Fatalf("record of the weaker volume after the restart: %+v, %v; want its mapping's switches (none) and no password", rec, err)
	}
	err = stageClass(ctx, d2, fake, "vol-seal", "s", "smb://fs/share?auth=negotiate&encryption=preferred", "seal", winKrbSecret())
	wantCode(t, "seal after a restart", err, codes.FailedPrecondition, weak)

	// A record of an earlier version, without the switches: what its
	// class demands is what that version asked for.
	earlier := filepath.Join(t.TempDir(), "state")
	copyDir(t, state, earlier)
	stripMapping(t, earlier)
	d4, _ := newHostProcessNode(t, fake, earlier, false)
	err = stageClass(ctx, d4, fake, "vol-seal", "s", "smb://fs/share?auth=negotiate&encryption=preferred", "seal", winKrbSecret())
	wantCode(t, "seal over a record of an earlier version", err, codes.FailedPrecondition, weak)

	// Once the weaker volume is unstaged, the stronger one is staged.
	if _, err := d2.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: weak, StagingTargetPath: winStagingOf("w")}); err != nil {
		t.Fatal(err)
	}
	if err := stageClass(ctx, d2, fake, "vol-seal", "s", "smb://fs/share?auth=krb5", "seal,sign", winKrbSecret()); err != nil {
		t.Fatalf("after the weaker volume left: %v", err)
	}

	// A weaker class on the stronger mapping is staged, and when its
	// stage maps the share again (the mapping is gone), the mapping keeps
	// what the stronger volume asked for.
	if err := stageClass(ctx, d2, fake, weak, "w", "smb://fs/share?auth=negotiate&encryption=preferred", "", winKrbSecret()); err != nil {
		t.Fatalf("a weaker class on a stronger mapping: %v", err)
	}
	fake.ForgetMappings()
	d3, h3 := newHostProcessNode(t, fake, restarted, false)
	if err := stageClass(ctx, d3, fake, weak, "w", "smb://fs/share?auth=negotiate&encryption=preferred", "", winKrbSecret()); err != nil {
		t.Fatalf("stage again after the mapping was lost: %v", err)
	}
	asked := h3.Asked
	want := winhost.MapOptions{RequirePrivacy: true, RequireIntegrity: true, BlockNTLM: true}
	if len(asked) != 1 || asked[0] != want {
		t.Fatalf("the weaker volume mapped the share again with %+v, want %+v", asked, want)
	}
}

// stripMapping removes the mapping's switches from every staging record
// in dir, as an earlier version wrote them.
func stripMapping(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "staged-*.json"))
	if len(files) == 0 {
		t.Fatal("no staging records")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		delete(rec, "mapping")
		if b, err = json.Marshal(rec); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// psError is what Windows PowerShell writes to stderr when
// New-SmbGlobalMapping fails with a Windows error, as the runner reports
// it: the message, translated on Windows in another language, and the
// code in the FullyQualifiedErrorId, never translated.
func psError(message, id string) string {
	return "PowerShell failed: exit status 1: New-SmbGlobalMapping : " + message + `
At line:8 char:1
+ New-SmbGlobalMapping -RemotePath $env:FILESHARE_CSI_SMB_REMOTE_PATH -Credential ...
    + CategoryInfo          : NotSpecified: (MSFT_SmbGlobalMapping:ROOT/Microsoft/...mbGlobalMapping) [New-SmbGlobalMapping], CimException
    + FullyQualifiedErrorId : ` + id + `,New-SmbGlobalMapping`
}

// A krb5 mapping that Windows refuses because it cannot log on with
// Kerberos (and may not use NTLM) is FailedPrecondition saying what to
// fix; a refused password is PermissionDenied, as a refused login is on
// the controller. Nothing is left on the node. The same failures of a
// negotiate class stay what they were (Internal, with PowerShell's text).
func TestWindowsNodeKrb5MappingFailuresSayWhatToFix(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, host, stderr string
		code               codes.Code
		want               []string
	}{
		{"NTLM blocked, server named by address", "192.0.2.10", psError("Authentication failed because NTLM authentication has been disabled.", "Windows System Error 1937"),
			codes.FailedPrecondition, []string{"no Kerberos ticket", "by the address 192.0.2.10, use its DNS name", "auth negotiate"}},
		{"no logon session", "fs.corp.example", psError("A specified logon session does not exist. It may already have been terminated.", "Windows System Error 1312"),
			codes.FailedPrecondition, []string{"cifs/ service principal", "domain controller of the realm CORP.EXAMPLE", "auth negotiate"}},
		{"no domain controller", "fs.corp.example", psError("There are currently no logon servers available to service the logon request.", "Windows System Error 1311"),
			codes.FailedPrecondition, []string{"no domain controller (KDC) of the realm CORP.EXAMPLE", "auth negotiate"}},
		{"no authenticating authority", "fs.corp.example", psError("No authority could be contacted for authentication.", "Windows System Error -2146893039"),
			codes.FailedPrecondition, []string{"no domain controller (KDC)"}},
		{"no service principal", "fs.corp.example", psError("The specified target is unknown or unreachable.", "HRESULT 0x80090303"),
			codes.FailedPrecondition, []string{"no service principal cifs/fs.corp.example", "setspn -S", "auth negotiate"}},
		{"wrong password", "fs.corp.example", psError("The user name or password is incorrect.", "Windows System Error 1326"),
			codes.PermissionDenied, []string{"refused the logon of alice@CORP.EXAMPLE", "node-stage Secret"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := csiproxytest.Start(t, winDriverDir)
			d, h := newHostProcessNode(t, fake, filepath.Join(t.TempDir(), "state"), false)
			h.MapFails = psFails(tc.stderr)
			err := stageClass(ctx, d, fake, "vol-k", "k", "smb://"+tc.host+"/share?auth=krb5", "", winKrbSecret())
			for _, w := range tc.want {
				wantCode(t, "krb5 stage", err, tc.code, w)
			}
			if strings.Contains(err.Error(), "CimException") {
				t.Errorf("the message shows PowerShell's text: %v", err)
			}
			if len(h.Asked) != 1 || !h.Asked[0].BlockNTLM {
				t.Fatalf("mappings asked %+v, want one with BlockNTLM", h.Asked)
			}
			if m := fake.Mappings(); len(m) != 0 {
				t.Fatalf("mappings left after the failed stage: %+v", m)
			}

			err = stageClass(ctx, d, fake, "vol-n", "n", "smb://"+tc.host+"/share?auth=negotiate", "", winKrbSecret())
			wantCode(t, "negotiate stage", err, codes.Internal, "FullyQualifiedErrorId")
		})
	}
}
