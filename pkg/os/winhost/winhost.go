// Package winhost declares what the Windows node plugin asks of the node, so
// that the staging logic (pkg/mounter) does not depend on how it is done:
// through csi-proxy from an ordinary pod (pkg/os/csiproxy), or directly from a
// HostProcess pod (pkg/os/hostprocess).
//
// The semantics are those of csi-proxy's smb v1 and filesystem v1 API groups,
// which both implementations follow.
package winhost

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrUnavailable says the service that does the node's privileged work
// (csi-proxy) does not answer. The operation may succeed when retried.
var ErrUnavailable = errors.New("the node's storage service is unavailable")

// ErrNotLink is returned by Readlink for a path that exists but is not a
// symbolic link.
var ErrNotLink = errors.New("not a symbolic link")

// Space is the size of the file system behind a path, in bytes.
type Space struct {
	Total int64
	// Free is free space on the volume; Available the part of it the caller
	// may use (quotas make them differ).
	Free, Available int64
}

// DirEntry is one name in a directory as the directory's listing gives it
// (FILE_FULL_DIR_INFO): nothing is opened per entry, so a walk of a share
// costs a query per batch of names, not one per file.
type DirEntry struct {
	Name string
	// Dir is a directory that is not a link.
	Dir bool
	// Link is a reparse point (a symbolic link or junction): never
	// followed.
	Link bool
	// Size is the end of file; Allocated what the server says the file
	// occupies (its AllocationSize: less than Size for a sparse file).
	Size, Allocated int64
}

// Dir is a directory being listed.
type Dir interface {
	// Read returns up to n more entries ("." and ".." left out), and
	// io.EOF once there are none.
	Read(n int) ([]DirEntry, error)
	Close() error
}

// MapOptions are the choices of a new SMB global mapping beside its
// credentials.
type MapOptions struct {
	// RequirePrivacy demands SMB 3 encryption (New-SmbGlobalMapping
	// -RequirePrivacy): a server that cannot encrypt is refused. A mapping
	// already there is reused as it is: one share has one mapping per node.
	// csi-proxy's v1 API carries no such choice; csi-proxy decides itself.
	RequirePrivacy bool
	// RequireIntegrity demands signing (New-SmbGlobalMapping
	// -RequireIntegrity): the cifs option sign.
	RequireIntegrity bool
	// CompressNetworkTraffic asks for SMB compression
	// (-CompressNetworkTraffic, Windows Server 2022 and later): the cifs
	// option compress.
	CompressNetworkTraffic bool
	// BlockNTLM keeps the mapping from ever logging on with NTLM
	// (New-SmbGlobalMapping -BlockNTLM, Windows Server 2025 and Windows 11
	// 24H2 and later): Kerberos or nothing, what a class with auth krb5
	// promises. Older Windows has no such parameter (ErrNoBlockNTLM).
	BlockNTLM bool
}

// Host is the node as the Windows mounter sees it. Every path is a Windows
// path with backslashes. A call returns when ctx ends, at the latest.
type Host interface {
	// NewSMBGlobalMapping maps the share remotePath lies on (\\host\share)
	// for every session on the node, unless a working mapping of it is
	// there already, and then, when localPath is not empty, creates
	// localPath as a directory link to remotePath. localPath must not exist.
	NewSMBGlobalMapping(ctx context.Context, remotePath, localPath, username, password string, opts MapOptions) error
	// RemoveSMBGlobalMapping removes the node's mapping of the share
	// remotePath lies on. A share the node has no mapping of (a reboot
	// drops them all) is no error: nothing is left to remove.
	RemoveSMBGlobalMapping(ctx context.Context, remotePath string) error
	// PassesMapOptions reports whether NewSMBGlobalMapping hands MapOptions
	// to the node. csi-proxy's v1 API has no field for them, so a mounter
	// over csi-proxy must refuse what it would otherwise drop unseen.
	PassesMapOptions() bool

	// PathExists reports whether path exists, without following a link.
	PathExists(ctx context.Context, path string) (bool, error)
	// IsSymlink reports whether path is a link whose target exists; for a
	// link to a share that means the share answers. A path that does not
	// exist is an error.
	IsSymlink(ctx context.Context, path string) (bool, error)
	// Mkdir creates path and its missing parents.
	Mkdir(ctx context.Context, path string) error
	// Rmdir removes a link, or a directory that is empty. It never removes
	// anything a link points to, nor a directory's contents.
	Rmdir(ctx context.Context, path string) error
	// CreateSymlink creates link as a directory link to target. Links to
	// network paths are made by NewSMBGlobalMapping; csi-proxy refuses them
	// here.
	CreateSymlink(ctx context.Context, link, target string) error

	// Readlink returns the target of the link at path: an error wrapping
	// fs.ErrNotExist when there is nothing at path, ErrNotLink when it is
	// not a link.
	Readlink(ctx context.Context, path string) (string, error)
	// ReadDir lists the names in dir.
	ReadDir(ctx context.Context, dir string) ([]string, error)
	// FreeSpace reports the size of the file system at path, following
	// links.
	FreeSpace(ctx context.Context, path string) (Space, error)
	// OpenDir opens the directory dir (a path on a share, \\?\UNC\...)
	// for listing, in the plugin's own process: csi-proxy has no such
	// API. It takes no context: the usage walk that calls it runs in a
	// goroutine of its own, which may block on a hung share (and only
	// that one goroutine does).
	OpenDir(dir string) (Dir, error)
}

// ErrCredentialConflict says Windows refused a mapping because the node is
// connected to the same server with other credentials: system error 1219,
// ERROR_SESSION_CREDENTIAL_CONFLICT. Windows allows one set of credentials
// per server and node (per logon session, and global mappings share one),
// whatever the share.
var ErrCredentialConflict = errors.New("the node is connected to this SMB server with other credentials (Windows system error 1219)")

// credentialConflictMarks are how system error 1219 shows in what
// csi-proxy and PowerShell report: its message in English, and its code as
// a Win32 error, an HRESULT, or csi-proxy's "result:". Windows in another
// language translates the message but keeps the codes.
var credentialConflictMarks = []string{
	"multiple connections to a server or shared resource by the same user",
	"0x800704c3",
	"result: 1219",
	"error 1219",
	"error: 1219",
}

// IsCredentialConflict reports whether an error text from csi-proxy or
// PowerShell is system error 1219.
func IsCredentialConflict(text string) bool {
	t := strings.ToLower(text)
	for _, m := range credentialConflictMarks {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

// CredentialConflict is the error for a mapping of share that Windows
// refused with system error 1219. Its text is the driver's own, never the
// one csi-proxy or PowerShell gave (which can quote the command), and it
// says what to change. The driver checks the volumes it staged itself
// before it maps, so a 1219 that reaches here is a connection it did not
// make: another driver's, a user's net use or New-SmbMapping, an
// administrator's New-SmbGlobalMapping.
func CredentialConflict(share string) error {
	return fmt.Errorf("%w: the node is already connected to the server of %s with other credentials, through a connection this driver did not make (another driver's mapping, New-SmbMapping or net use on the node); Windows allows one set of credentials per server and node. Remove that connection on the node (Get-SmbGlobalMapping, Get-SmbMapping), or give this volume's node-stage Secret the same credentials, or run the pod on another node",
		ErrCredentialConflict, share)
}

// noMappingMarks are how PowerShell's answer to a Remove-SmbGlobalMapping
// (or Get-SmbGlobalMapping) that finds no mapping shows in what csi-proxy
// reports: the error's id, which Windows in every language prints, and its
// English message. Only the query's "not found" has them: access denied,
// say, is a PermissionDenied with an id of its own.
var noMappingMarks = []string{
	"cmdletizationquery_notfound",
	"no msft_smbglobalmapping objects found",
}

// IsNoMapping reports whether an error text from csi-proxy or PowerShell
// says there is no SMB global mapping of the share.
func IsNoMapping(text string) bool {
	t := strings.ToLower(text)
	for _, m := range noMappingMarks {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

// ErrNoBlockNTLM says the node's New-SmbGlobalMapping has no -BlockNTLM
// parameter: Windows older than Windows Server 2025 and Windows 11 24H2.
var ErrNoBlockNTLM = errors.New("this Windows cannot keep an SMB mapping from NTLM (New-SmbGlobalMapping has no -BlockNTLM)")

// IsNoBlockNTLM reports whether an error text from PowerShell is its
// refusal of -BlockNTLM as an unknown parameter. The English message is
// translated on Windows in another language; the error's id
// (NamedParameterNotFound), which PowerShell prints with it, is not.
func IsNoBlockNTLM(text string) bool {
	t := strings.ToLower(text)
	return strings.Contains(t, "blockntlm") &&
		(strings.Contains(t, "namedparameternotfound") || strings.Contains(t, "a parameter cannot be found that matches parameter name"))
}

// NoBlockNTLM is the error for a mapping of share that needed -BlockNTLM on
// a node whose Windows lacks it. Its text is the driver's own and says what
// to change.
func NoBlockNTLM(share string) error {
	return fmt.Errorf("%w: %s needs a mapping that never uses NTLM (auth krb5), and this node's Windows cannot make one: -BlockNTLM came with Windows Server 2025 and Windows 11 24H2. Run the pod on a node with Windows Server 2025 or later, or give Windows pods a class with auth negotiate (Windows then uses Kerberos when the domain lets it, NTLM otherwise)",
		ErrNoBlockNTLM, share)
}
