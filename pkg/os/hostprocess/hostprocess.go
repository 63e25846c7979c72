// Package hostprocess is the Windows node as a plugin in a HostProcess pod
// sees it: the plugin runs on the node itself, as SYSTEM, so it maps shares
// with the SMB PowerShell cmdlets and makes links with the Win32 API, and
// needs no csi-proxy.
package hostprocess

import (
	"context"
	"fmt"

	"k8s.io/klog/v2"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/hostfs"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/powershell"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
)

// scriptRunner runs one PowerShell command; *powershell.Runner in
// production.
type scriptRunner interface {
	Run(ctx context.Context, c powershell.Command) (string, error)
}

// Host implements winhost.Host with PowerShell for the SMB global mappings
// and the os package for everything on the file system.
type Host struct {
	hostfs.FS
	ps scriptRunner
}

var _ winhost.Host = (*Host)(nil)

// New returns a Host that runs its PowerShell scripts with ps.
func New(ps *powershell.Runner) *Host {
	return &Host{ps: ps}
}

// NewSMBGlobalMapping follows csi-proxy's semantics: the mapping is of the
// share root, made only when there is no working one, and the link points to
// the full remote path.
func (h *Host) NewSMBGlobalMapping(ctx context.Context, remotePath, localPath, username, password string, opts winhost.MapOptions) error {
	root, err := winpath.ShareRoot(remotePath)
	if err != nil {
		return err
	}
	status, err := h.ps.Run(ctx, mappingStatusCommand(root))
	if err != nil {
		return fmt.Errorf("look up the SMB global mapping of %s: %w", root, err)
	}
	switch status {
	case "OK":
		// Reused whoever it logs on as, as csi-proxy does, without
		// comparing its user with username: the driver's node service
		// makes that safe, not this host. Every mapping the driver makes
		// or links into, for a stage or an inline volume's publish, first
		// passes the driver's check (driver.claimServer: the server's lock,
		// then mappingConflict) against the record of every volume mounted
		// on the server, which keeps who its mapping logs on as for as
		// long as the volume is mounted; so a working mapping the driver
		// made is found here only by a request with the same user (and a
		// password the server takes). Nor could the host compare:
		// Get-SmbGlobalMapping does not say who a mapping logs on as, nor
		// with which password. A mapping made outside the driver is not
		// inspected (docs/windows.md).
	case "":
		if err := h.newMapping(ctx, root, username, password, opts); err != nil {
			return err
		}
	default:
		klog.FromContext(ctx).Info("replacing SMB global mapping that does not work", "share", root, "status", status)
		if _, err := h.ps.Run(ctx, removeMappingCommand(root)); err != nil {
			return fmt.Errorf("remove the SMB global mapping of %s (status %s): %w", root, status, err)
		}
		if err := h.newMapping(ctx, root, username, password, opts); err != nil {
			return err
		}
	}
	if localPath == "" {
		return nil
	}
	// The trailing backslash lets a link to a share root resolve: Windows
	// does not open `\\host\share` without it.
	return h.CreateSymlink(ctx, localPath, winpath.Clean(remotePath)+`\`)
}

func (h *Host) newMapping(ctx context.Context, root, username, password string, opts winhost.MapOptions) error {
	if _, err := h.ps.Run(ctx, newMappingCommand(root, username, password, opts)); err != nil {
		return MappingError(ctx, root, username, opts, err)
	}
	return nil
}

// MappingError is the error NewSMBGlobalMapping returns when the mapping
// script for root as username failed with err (the runner's error, with
// what PowerShell wrote to stderr). It is exported so that the driver's
// contract tests give their fake node the errors this Host gives for
// Windows' own error texts.
//
// Failures the driver can explain become its own words and error kinds:
// system error 1219, no -BlockNTLM on old Windows, and, for a -BlockNTLM
// mapping (auth krb5) only, a Kerberos logon that failed. A mapping that
// may use NTLM keeps PowerShell's text: there a failed logon is not the
// class's doing, and its errors stay as they were.
func MappingError(ctx context.Context, root, username string, opts winhost.MapOptions, err error) error {
	if ctx.Err() == nil {
		if winhost.IsCredentialConflict(err.Error()) {
			return winhost.CredentialConflict(root)
		}
		if opts.BlockNTLM && winhost.IsNoBlockNTLM(err.Error()) {
			return winhost.NoBlockNTLM(root)
		}
		if opts.BlockNTLM {
			if kerr := winhost.KerberosFailure(root, username, err.Error()); kerr != nil {
				return kerr
			}
		}
	}
	return fmt.Errorf("New-SmbGlobalMapping %s as %s: %w", root, username, err)
}

// PassesMapOptions is true: the script passes each of them to
// New-SmbGlobalMapping.
func (*Host) PassesMapOptions() bool { return true }

func (h *Host) RemoveSMBGlobalMapping(ctx context.Context, remotePath string) error {
	root, err := winpath.ShareRoot(remotePath)
	if err != nil {
		return err
	}
	if _, err := h.ps.Run(ctx, removeMappingCommand(root)); err != nil {
		return fmt.Errorf("Remove-SmbGlobalMapping %s: %w", root, err)
	}
	return nil
}
