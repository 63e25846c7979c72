package hostprocess

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/powershell"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// fakePowerShell answers the mapping-status script with status and records
// every command. oldWindows is a node before Windows Server 2025, whose
// New-SmbGlobalMapping has no -BlockNTLM: the script, which passes it
// only when its variable says true, fails there as PowerShell does.
type fakePowerShell struct {
	status     string
	fail       error
	oldWindows bool
	ran        []powershell.Command
}

// oldWindowsError is what Windows PowerShell 5.1 on Windows Server 2022
// writes to stderr for New-SmbGlobalMapping -BlockNTLM, as the runner
// reports it.
const oldWindowsError = `PowerShell failed: exit status 1: New-SmbGlobalMapping : A parameter cannot be found that matches parameter name 'BlockNTLM'.
At line:7 char:1
+ New-SmbGlobalMapping -RemotePath $env:FILESHARE_CSI_SMB_REMOTE_PATH -Credential ...
    + CategoryInfo          : InvalidArgument: (:) [New-SmbGlobalMapping], ParameterBindingException
    + FullyQualifiedErrorId : NamedParameterNotFound,New-SmbGlobalMapping`

func (f *fakePowerShell) Run(_ context.Context, c powershell.Command) (string, error) {
	f.ran = append(f.ran, c)
	if f.fail != nil {
		return "", f.fail
	}
	switch c.Script {
	case mappingStatusScript:
		return f.status, nil
	case newMappingScript:
		// The script takes every switch from its variable: each must be
		// set, to true or false, or the script would read "" as false.
		for _, k := range []string{envRequirePrivacy, envRequireIntegrity, envCompress, envBlockNTLM} {
			if v := c.Env[k]; v != "true" && v != "false" {
				return "", errors.New("fake PowerShell: " + k + " is " + strconv.Quote(v))
			}
		}
		if f.oldWindows && c.Env[envBlockNTLM] == "true" {
			return "", errors.New(oldWindowsError)
		}
	}
	return "", nil
}

func scripts(cmds []powershell.Command) []string {
	var out []string
	for _, c := range cmds {
		switch c.Script {
		case mappingStatusScript:
			out = append(out, "status")
		case newMappingScript:
			out = append(out, "new")
		case removeMappingScript:
			out = append(out, "remove")
		default:
			out = append(out, "?")
		}
	}
	return out
}

func TestNewMappingCommandKeepsTheCredentialsInTheEnvironment(t *testing.T) {
	c := newMappingCommand(`\\fs\share`, `CORP\alice`, "pa'ss; Remove-Item C:\\ -Recurse", winhost.MapOptions{RequirePrivacy: true, CompressNetworkTraffic: true})
	want := map[string]string{
		"FILESHARE_CSI_SMB_REMOTE_PATH":       `\\fs\share`,
		"FILESHARE_CSI_SMB_USERNAME":          `CORP\alice`,
		"FILESHARE_CSI_SMB_PASSWORD":          "pa'ss; Remove-Item C:\\ -Recurse",
		"FILESHARE_CSI_SMB_REQUIRE_PRIVACY":   "true",
		"FILESHARE_CSI_SMB_REQUIRE_INTEGRITY": "false",
		"FILESHARE_CSI_SMB_COMPRESS":          "true",
		"FILESHARE_CSI_SMB_BLOCK_NTLM":        "false",
	}
	if len(c.Env) != len(want) {
		t.Fatalf("env %q, want %q", c.Env, want)
	}
	for k, v := range want {
		if c.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, c.Env[k], v)
		}
	}
	for _, v := range want {
		if v == "true" || v == "false" {
			continue // words the script itself has
		}
		if strings.Contains(c.Script, v) {
			t.Errorf("the script contains the input %q", v)
		}
	}
	for _, a := range c.Args() {
		for _, v := range []string{"pa'ss", "alice", `\\fs\share`} {
			if strings.Contains(a, v) {
				t.Errorf("argument %q contains the input %q", a, v)
			}
		}
	}
	// The encoded script, decoded, names the variables and takes
	// -RequirePrivacy from one of them.
	args := c.Args()
	b, err := base64.StdEncoding.DecodeString(args[len(args)-1])
	if err != nil {
		t.Fatal(err)
	}
	var decoded strings.Builder
	for i := 0; i+1 < len(b); i += 2 {
		decoded.WriteByte(b[i])
	}
	for _, want := range []string{
		"$env:FILESHARE_CSI_SMB_PASSWORD",
		"$env:FILESHARE_CSI_SMB_USERNAME",
		"New-SmbGlobalMapping -RemotePath $env:FILESHARE_CSI_SMB_REMOTE_PATH",
		"-RequirePrivacy ([bool]::Parse($env:FILESHARE_CSI_SMB_REQUIRE_PRIVACY))",
	} {
		if !strings.Contains(decoded.String(), want) {
			t.Errorf("script lacks %q:\n%s", want, decoded.String())
		}
	}
}

func TestStatusAndRemoveCommandsCarryOnlyThePath(t *testing.T) {
	for name, c := range map[string]powershell.Command{
		"status": mappingStatusCommand(`\\fs\share`),
		"remove": removeMappingCommand(`\\fs\share`),
	} {
		if len(c.Env) != 1 || c.Env["FILESHARE_CSI_SMB_REMOTE_PATH"] != `\\fs\share` {
			t.Errorf("%s: env %q", name, c.Env)
		}
		for _, cmdlet := range []string{"Get-SmbGlobalMapping -RemotePath $env:FILESHARE_CSI_SMB_REMOTE_PATH", "ObjectNotFound"} {
			if !strings.Contains(c.Script, cmdlet) {
				t.Errorf("%s script lacks %q", name, cmdlet)
			}
		}
	}
	if !strings.Contains(removeMappingScript, "Remove-SmbGlobalMapping -Force") {
		t.Error("remove script does not force the removal")
	}
}

func TestNewSMBGlobalMappingMapsTheShareRootOnlyWhenNeeded(t *testing.T) {
	for _, tc := range []struct {
		status string
		want   []string
	}{
		{"", []string{"status", "new"}},
		{"OK", []string{"status"}},
		{"Disconnected", []string{"status", "remove", "new"}},
		{"Unreachable", []string{"status", "remove", "new"}},
	} {
		ps := &fakePowerShell{status: tc.status}
		h := &Host{ps: ps}
		link := filepath.Join(t.TempDir(), "globalmount")
		if err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\base\vol`, link, `CORP\alice`, "s3cret", winhost.MapOptions{RequirePrivacy: true}); err != nil {
			t.Fatalf("status %q: %v", tc.status, err)
		}
		if got := scripts(ps.ran); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("status %q: ran %v, want %v", tc.status, got, tc.want)
		}
		for _, c := range ps.ran {
			if r := c.Env["FILESHARE_CSI_SMB_REMOTE_PATH"]; r != `\\fs\share` {
				t.Errorf("status %q: a script got remote path %q, want the share root", tc.status, r)
			}
		}
		target, err := os.Readlink(link)
		if err != nil {
			t.Fatal(err)
		}
		if target != `\\fs\share\base\vol\` {
			t.Errorf("link target %q, want the volume directory with a trailing backslash", target)
		}
	}
}

func TestPowerShellFailuresAreReported(t *testing.T) {
	boom := errors.New("PowerShell failed: exit status 1: Access is denied")
	h := &Host{ps: &fakePowerShell{fail: boom}}
	link := filepath.Join(t.TempDir(), "globalmount")
	err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, link, "alice", "s3cret", winhost.MapOptions{})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap the PowerShell failure", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("error shows the password: %v", err)
	}
	if _, err := os.Lstat(link); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("link made although the mapping failed: %v", err)
	}
	if err := h.RemoveSMBGlobalMapping(context.Background(), `\\fs\share\vol`); !errors.Is(err, boom) {
		t.Fatalf("remove: %v", err)
	}
}

// The class's encryption reaches New-SmbGlobalMapping -RequirePrivacy
// through the environment, never the script text.
func TestNewMappingRequiresPrivacyOnlyWhenAsked(t *testing.T) {
	if !strings.Contains(newMappingScript, "-RequirePrivacy ([bool]::Parse($env:FILESHARE_CSI_SMB_REQUIRE_PRIVACY))") {
		t.Fatal("the mapping script does not take -RequirePrivacy from the environment")
	}
	for _, require := range []bool{true, false} {
		ps := &fakePowerShell{}
		h := &Host{ps: ps}
		link := filepath.Join(t.TempDir(), "globalmount")
		if err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, link, "alice", "s3cret", winhost.MapOptions{RequirePrivacy: require}); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range ps.ran {
			if c.Script == newMappingScript {
				got = append(got, c.Env["FILESHARE_CSI_SMB_REQUIRE_PRIVACY"])
			}
		}
		want := "false"
		if require {
			want = "true"
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("RequirePrivacy %v: the mapping script got %v, want [%s]", require, got, want)
		}
	}
}

// The mount options sign and compress reach New-SmbGlobalMapping as
// -RequireIntegrity and -CompressNetworkTraffic through the environment,
// and only when set: a node older than Windows Server 2022 has no
// -CompressNetworkTraffic and must still map classes without it.
func TestNewMappingPassesIntegrityAndCompressionOnlyWhenAsked(t *testing.T) {
	for _, want := range []string{
		"if ($env:FILESHARE_CSI_SMB_REQUIRE_INTEGRITY -eq 'true') { $optional['RequireIntegrity'] = $true }",
		"if ($env:FILESHARE_CSI_SMB_COMPRESS -eq 'true') { $optional['CompressNetworkTraffic'] = $true }",
		"@optional | Out-Null",
	} {
		if !strings.Contains(newMappingScript, want) {
			t.Errorf("the mapping script lacks %q", want)
		}
	}
	if strings.Contains(newMappingScript, "-CompressNetworkTraffic") || strings.Contains(newMappingScript, "-RequireIntegrity") {
		t.Error("the mapping script passes -CompressNetworkTraffic or -RequireIntegrity unconditionally")
	}
	for _, opts := range []winhost.MapOptions{{}, {RequireIntegrity: true}, {CompressNetworkTraffic: true}, {RequirePrivacy: true, RequireIntegrity: true, CompressNetworkTraffic: true}} {
		ps := &fakePowerShell{}
		h := &Host{ps: ps}
		if err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, "", "alice", "s3cret", opts); err != nil {
			t.Fatal(err)
		}
		var got []powershell.Command
		for _, c := range ps.ran {
			if c.Script == newMappingScript {
				got = append(got, c)
			}
		}
		if len(got) != 1 {
			t.Fatalf("%+v: %d mapping scripts ran, want 1", opts, len(got))
		}
		env := got[0].Env
		if env["FILESHARE_CSI_SMB_REQUIRE_INTEGRITY"] != strconv.FormatBool(opts.RequireIntegrity) ||
			env["FILESHARE_CSI_SMB_COMPRESS"] != strconv.FormatBool(opts.CompressNetworkTraffic) ||
			env["FILESHARE_CSI_SMB_REQUIRE_PRIVACY"] != strconv.FormatBool(opts.RequirePrivacy) {
			t.Errorf("%+v: environment %q", opts, env)
		}
	}
}

// auth krb5 reaches New-SmbGlobalMapping as -BlockNTLM $true through the
// environment, and only then: Windows before Server 2025 has no such
// parameter and must still map the other classes.
func TestNewMappingBlocksNTLMExactlyWhenAsked(t *testing.T) {
	if !strings.Contains(newMappingScript, "if ($env:FILESHARE_CSI_SMB_BLOCK_NTLM -eq 'true') { $optional['BlockNTLM'] = $true }") {
		t.Fatal("the mapping script does not take -BlockNTLM from the environment")
	}
	if strings.Contains(newMappingScript, "-BlockNTLM") {
		t.Fatal("the mapping script passes -BlockNTLM unconditionally")
	}
	for _, block := range []bool{true, false} {
		ps := &fakePowerShell{}
		h := &Host{ps: ps}
		if err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, "", "alice@CORP.EXAMPLE", "s3cret", winhost.MapOptions{RequirePrivacy: true, BlockNTLM: block}); err != nil {
			t.Fatalf("BlockNTLM %v: %v", block, err)
		}
		var got []string
		for _, c := range ps.ran {
			if c.Script == newMappingScript {
				got = append(got, c.Env["FILESHARE_CSI_SMB_BLOCK_NTLM"])
			}
		}
		if len(got) != 1 || got[0] != strconv.FormatBool(block) {
			t.Errorf("BlockNTLM %v: the mapping script got %v", block, got)
		}
	}
}

// On Windows before Server 2025, a mapping that needs -BlockNTLM fails
// with winhost.ErrNoBlockNTLM and the driver's own words (what Windows is
// needed, or auth negotiate), never PowerShell's text; no link is made,
// and the same node still maps a mapping without it.
func TestOldWindowsWithoutBlockNTLM(t *testing.T) {
	ps := &fakePowerShell{oldWindows: true}
	h := &Host{ps: ps}
	link := filepath.Join(t.TempDir(), "globalmount")
	err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, link, "alice@CORP.EXAMPLE", "s3cret", winhost.MapOptions{BlockNTLM: true})
	if !errors.Is(err, winhost.ErrNoBlockNTLM) {
		t.Fatalf("err = %v, want ErrNoBlockNTLM", err)
	}
	for _, want := range []string{`\\fs\share`, "Windows Server 2025", "auth negotiate"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "ParameterBindingException") {
		t.Errorf("the error shows the password or PowerShell's raw text: %v", err)
	}
	if _, err := os.Lstat(link); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("link made although the mapping failed: %v", err)
	}
	if err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, link, "alice", "s3cret", winhost.MapOptions{RequirePrivacy: true}); err != nil {
		t.Fatalf("a mapping without -BlockNTLM on the same node: %v", err)
	}
	// Another failure that names the parameter is not taken for it.
	if winhost.IsNoBlockNTLM("PowerShell failed: exit status 1: Access is denied") || !winhost.IsNoBlockNTLM("... FullyQualifiedErrorId : NamedParameterNotFound,New-SmbGlobalMapping ... 'BlockNTLM'") {
		t.Error("IsNoBlockNTLM misreads PowerShell's errors")
	}
}
