package hostprocess

import (
	"context"
	"encoding/base64"
	"errors"
	"io/fs"
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
	// mapFails is what New-SmbGlobalMapping writes to stderr when it
	// fails, as the runner reports it (see windowsError).
	mapFails string
	ran      []powershell.Command
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
		if f.mapFails != "" {
			return "", errors.New(f.mapFails)
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

// windowsError is what Windows PowerShell 5.1 writes to stderr when
// New-SmbGlobalMapping fails with a Windows error, as the runner reports
// it: the message (translated on Windows in another language) and the
// FullyQualifiedErrorId with the code (never translated). id is the code
// as the cmdlet names it: "Windows System Error 1311" for a Win32 error;
// an HRESULT is written in hexadecimal or, by .NET, in signed decimal.
func windowsError(message, id string) string {
	return "PowerShell failed: exit status 1: New-SmbGlobalMapping : " + message + `
At line:8 char:1
+ New-SmbGlobalMapping -RemotePath $env:FILESHARE_CSI_SMB_REMOTE_PATH -Credential ...
+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    + CategoryInfo          : NotSpecified: (MSFT_SmbGlobalMapping:ROOT/Microsoft/...mbGlobalMapping) [New-SmbGlobalMapping], CimException
    + FullyQualifiedErrorId : ` + id + `,New-SmbGlobalMapping`
}

// A -BlockNTLM mapping (auth krb5) that Windows refuses because it cannot
// log on with Kerberos fails with the driver's own words, by the Windows
// error's code whatever the language: winhost.ErrNoKerberos saying what to
// fix (the server's name, a domain controller, the SPN, or auth
// negotiate), or fs.ErrPermission for a refused password. Neither shows
// the password nor PowerShell's text. A mapping that may use NTLM keeps
// PowerShell's text for the same errors, as before.
func TestKrb5MappingFailuresSayWhatToFix(t *testing.T) {
	for _, tc := range []struct {
		name, share, stderr string
		kind                error
		want                []string
	}{
		{"NTLM blocked", `\\fs.corp.example\share`, windowsError("Authentication failed because NTLM authentication has been disabled.", "Windows System Error 1937"),
			winhost.ErrNoKerberos, []string{"no Kerberos ticket", "cifs/", "DNS name", "domain controller of the realm CORP.EXAMPLE", "auth negotiate", "Windows error 1937"}},
		{"NTLM blocked, server named by address", `\\192.0.2.10\share`, windowsError("Authentication failed because NTLM authentication has been disabled.", "Windows System Error 1937"),
			winhost.ErrNoKerberos, []string{"by the address 192.0.2.10", "DNS name", "auth negotiate"}},
		{"no logon session", `\\fs.corp.example\share`, windowsError("A specified logon session does not exist. It may already have been terminated.", "Windows System Error 1312"),
			winhost.ErrNoKerberos, []string{"no Kerberos ticket", "cifs/", "Windows error 1312"}},
		{"no domain controller", `\\fs.corp.example\share`, windowsError("There are currently no logon servers available to service the logon request.", "Windows System Error 1311"),
			winhost.ErrNoKerberos, []string{"no domain controller (KDC) of the realm CORP.EXAMPLE", "port 88", "auth negotiate", "Windows error 1311"}},
		{"no domain controller, in German", `\\fs.corp.example\share`, windowsError("Zurzeit sind keine Anmeldeserver zum Verarbeiten der Anmeldeanforderung verfügbar.", "Windows System Error 1311"),
			winhost.ErrNoKerberos, []string{"no domain controller (KDC)"}},
		{"no authenticating authority, signed HRESULT", `\\fs.corp.example\share`, windowsError("No authority could be contacted for authentication.", "Windows System Error -2146893039"),
			winhost.ErrNoKerberos, []string{"no domain controller (KDC)", "Windows error 0x80090311"}},
		{"target unknown", `\\fs.corp.example\share`, windowsError("The specified target is unknown or unreachable.", "HRESULT 0x80090303"),
			winhost.ErrNoKerberos, []string{"no service principal cifs/fs.corp.example", "setspn -S", "auth negotiate"}},
		{"target unknown, server named by address", `\\192.0.2.10\share`, windowsError("The specified target is unknown or unreachable.", "HRESULT 0x80090303"),
			winhost.ErrNoKerberos, []string{"cifs/192.0.2.10", "by the address 192.0.2.10, use its DNS name"}},
		{"wrong password", `\\fs.corp.example\share`, windowsError("The user name or password is incorrect.", "Windows System Error 1326"),
			fs.ErrPermission, []string{"refused the logon of alice@CORP.EXAMPLE", "node-stage Secret", "Windows error 1326"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			share := tc.share
			ps := &fakePowerShell{mapFails: tc.stderr}
			h := &Host{ps: ps}
			link := filepath.Join(t.TempDir(), "globalmount")
			err := h.NewSMBGlobalMapping(context.Background(), share+`ol`, link, "alice@CORP.EXAMPLE", "s3cret", winhost.MapOptions{RequirePrivacy: true, BlockNTLM: true})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want %v", err, tc.kind)
			}
			for _, w := range append(tc.want, share) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
			for _, leak := range []string{"s3cret", "CimException", "FILESHARE_CSI"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("the error shows %q: %v", leak, err)
				}
			}
			if _, err := os.Lstat(link); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("link made although the mapping failed: %v", err)
			}

			// Without -BlockNTLM the same failure is PowerShell's, as before.
			err = h.NewSMBGlobalMapping(context.Background(), share+`ol`, "", "alice@CORP.EXAMPLE", "s3cret", winhost.MapOptions{RequirePrivacy: true})
			if errors.Is(err, winhost.ErrNoKerberos) || errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), tc.stderr) {
				t.Fatalf("a mapping that may use NTLM: %v, want PowerShell's error as it is", err)
			}
		})
	}
}

// Other failures of a -BlockNTLM mapping, and codes that merely contain a
// Kerberos one, keep PowerShell's text.
func TestKrb5MappingKeepsOtherFailures(t *testing.T) {
	for _, stderr := range []string{
		windowsError("The network path was not found.", "Windows System Error 53"),
		windowsError("Some future error.", "Windows System Error 13110"),
		windowsError("Access is denied.", "HRESULT 0x8009031100"),
	} {
		h := &Host{ps: &fakePowerShell{mapFails: stderr}}
		err := h.NewSMBGlobalMapping(context.Background(), `\\fs\share\vol`, "", "alice@CORP.EXAMPLE", "s3cret", winhost.MapOptions{BlockNTLM: true})
		if errors.Is(err, winhost.ErrNoKerberos) || errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), stderr) {
			t.Errorf("%v: want PowerShell's error as it is", err)
		}
	}
}
