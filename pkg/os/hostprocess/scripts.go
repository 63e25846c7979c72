package hostprocess

import (
	"strconv"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/powershell"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// The scripts read every input from these variables; see powershell.Command.
const (
	envRemotePath = "FILESHARE_CSI_SMB_REMOTE_PATH"
	envUsername   = "FILESHARE_CSI_SMB_USERNAME"
	envPassword   = "FILESHARE_CSI_SMB_PASSWORD"
	// envRequirePrivacy is "true" or "false".
	envRequirePrivacy = "FILESHARE_CSI_SMB_REQUIRE_PRIVACY"
	// envRequireIntegrity and envCompress are "true" or "false".
	envRequireIntegrity = "FILESHARE_CSI_SMB_REQUIRE_INTEGRITY"
	envCompress         = "FILESHARE_CSI_SMB_COMPRESS"
	// envBlockNTLM is "true" or "false".
	envBlockNTLM = "FILESHARE_CSI_SMB_BLOCK_NTLM"
)

// mappingStatusScript prints the status of the global mapping of the share
// (OK, Disconnected, ...), "Unreachable" for one that says OK but whose
// server does not answer, and nothing when there is no mapping. Only "not
// found" counts as no mapping: any other failure of the lookup is an error.
const mappingStatusScript = `$ErrorActionPreference = 'Stop'
$mapping = Get-SmbGlobalMapping -RemotePath $env:` + envRemotePath + ` -ErrorAction SilentlyContinue -ErrorVariable lookupErrors
$failures = @($lookupErrors | Where-Object { $_.CategoryInfo.Category -ne 'ObjectNotFound' })
if ($failures.Count -gt 0) { throw $failures[0] }
if ($mapping) {
  if ([string]$mapping.Status -eq 'OK' -and -not (Test-Path -LiteralPath ($env:` + envRemotePath + ` + '\'))) { 'Unreachable' }
  else { [string]$mapping.Status }
}
`

// newMappingScript maps the share for the whole node. -RequirePrivacy
// demands encryption (SMB 3) when the class asks for it (encryption:
// required, and the default, as before classes could choose): the
// mapping serves every pod on the node. A NAS that cannot encrypt needs a
// class with encryption: preferred or off.
//
// -RequireIntegrity (the mount option sign) and -CompressNetworkTraffic
// (compress) are passed only when asked for: -CompressNetworkTraffic came
// with Windows Server 2022, and a node without it must still map classes
// that do not ask for it.
//
// -BlockNTLM (auth krb5) likewise: it came with Windows Server 2025 and
// Windows 11 24H2, and older nodes must still map the other classes. On
// those, PowerShell refuses it as an unknown parameter before anything is
// mapped, which the Host turns into winhost.ErrNoBlockNTLM.
const newMappingScript = `$ErrorActionPreference = 'Stop'
$password = ConvertTo-SecureString -String $env:` + envPassword + ` -AsPlainText -Force
$credential = New-Object System.Management.Automation.PSCredential -ArgumentList $env:` + envUsername + `, $password
$optional = @{}
if ($env:` + envRequireIntegrity + ` -eq 'true') { $optional['RequireIntegrity'] = $true }
if ($env:` + envCompress + ` -eq 'true') { $optional['CompressNetworkTraffic'] = $true }
if ($env:` + envBlockNTLM + ` -eq 'true') { $optional['BlockNTLM'] = $true }
New-SmbGlobalMapping -RemotePath $env:` + envRemotePath + ` -Credential $credential -RequirePrivacy ([bool]::Parse($env:` + envRequirePrivacy + `)) @optional | Out-Null
`

// removeMappingScript removes the mapping if there is one. -Force closes
// files still open through it: it is removed only when no staged volume on
// the node uses the share any more.
const removeMappingScript = `$ErrorActionPreference = 'Stop'
$mapping = Get-SmbGlobalMapping -RemotePath $env:` + envRemotePath + ` -ErrorAction SilentlyContinue -ErrorVariable lookupErrors
$failures = @($lookupErrors | Where-Object { $_.CategoryInfo.Category -ne 'ObjectNotFound' })
if ($failures.Count -gt 0) { throw $failures[0] }
if ($mapping) { $mapping | Remove-SmbGlobalMapping -Force }
`

func mappingStatusCommand(shareRoot string) powershell.Command {
	return powershell.Command{Script: mappingStatusScript, Env: map[string]string{envRemotePath: shareRoot}}
}

func newMappingCommand(shareRoot, username, password string, opts winhost.MapOptions) powershell.Command {
	return powershell.Command{Script: newMappingScript, Env: map[string]string{
		envRemotePath:       shareRoot,
		envUsername:         username,
		envPassword:         password,
		envRequirePrivacy:   strconv.FormatBool(opts.RequirePrivacy),
		envRequireIntegrity: strconv.FormatBool(opts.RequireIntegrity),
		envCompress:         strconv.FormatBool(opts.CompressNetworkTraffic),
		envBlockNTLM:        strconv.FormatBool(opts.BlockNTLM),
	}}
}

func removeMappingCommand(shareRoot string) powershell.Command {
	return powershell.Command{Script: removeMappingScript, Env: map[string]string{envRemotePath: shareRoot}}
}
