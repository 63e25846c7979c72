// Package csiproxy is the Windows node as a plugin in an ordinary pod sees
// it: privileged work goes to csi-proxy's smb v1 and filesystem v1 API groups
// over their named pipes. The clients are csi-proxy's generated gRPC
// clients; only dialing the pipes is Windows-specific (dial_windows.go), so
// this package is tested on Linux against an in-process fake csi-proxy.
package csiproxy

import (
	"context"
	"fmt"

	fsv1 "github.com/kubernetes-csi/csi-proxy/client/api/filesystem/v1"
	smbv1 "github.com/kubernetes-csi/csi-proxy/client/api/smb/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
)

// The named pipes csi-proxy serves the API groups on.
const (
	SMBPipe        = `\\.\pipe\csi-proxy-smb-v1`
	FilesystemPipe = `\\.\pipe\csi-proxy-filesystem-v1`
)

// Local does what csi-proxy v1 has no API for, in the plugin's own process:
// reading links and directories, and free space, on the kubelet directory
// mounted into the pod. hostfs.FS in production.
type Local interface {
	Readlink(ctx context.Context, path string) (string, error)
	ReadDir(ctx context.Context, dir string) ([]string, error)
	FreeSpace(ctx context.Context, path string) (winhost.Space, error)
	OpenDir(dir string) (winhost.Dir, error)
}

// Client implements winhost.Host through csi-proxy.
type Client struct {
	smb   smbv1.SmbClient
	fs    fsv1.FilesystemClient
	local Local
	// smbPipe and fsPipe name the endpoints in errors.
	smbPipe, fsPipe string
}

var _ winhost.Host = (*Client)(nil)

// New returns a Client over csi-proxy API clients; smbEndpoint and
// fsEndpoint name where they connect to, for error messages.
func New(smb smbv1.SmbClient, smbEndpoint string, fs fsv1.FilesystemClient, fsEndpoint string, local Local) *Client {
	return &Client{smb: smb, fs: fs, local: local, smbPipe: smbEndpoint, fsPipe: fsEndpoint}
}

// proxyError turns a failed csi-proxy call into an error the driver maps to
// the right CSI code: deadlines and cancellation wrap the context's errors,
// and a csi-proxy that does not answer wraps winhost.ErrUnavailable.
func proxyError(op, endpoint string, err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return fmt.Errorf("csi-proxy %s: %w", op, err)
	}
	switch st.Code() {
	case codes.DeadlineExceeded:
		return fmt.Errorf("csi-proxy %s: %w (%s)", op, context.DeadlineExceeded, st.Message())
	case codes.Canceled:
		return fmt.Errorf("csi-proxy %s: %w (%s)", op, context.Canceled, st.Message())
	case codes.Unavailable:
		return fmt.Errorf("csi-proxy %s: %w: nothing answers on %s; is csi-proxy running on this node, and is the pipe mounted into the pod? (%s)",
			op, winhost.ErrUnavailable, endpoint, st.Message())
	}
	return fmt.Errorf("csi-proxy %s: %s", op, st.Message())
}

// NewSMBGlobalMapping ignores opts: csi-proxy's v1 API has no field for
// them, and csi-proxy maps with the privacy it chooses itself.
func (c *Client) NewSMBGlobalMapping(ctx context.Context, remotePath, localPath, username, password string, _ winhost.MapOptions) error {
	_, err := c.smb.NewSmbGlobalMapping(ctx, &smbv1.NewSmbGlobalMappingRequest{
		RemotePath: remotePath,
		LocalPath:  localPath,
		Username:   username,
		Password:   password,
	})
	if st, ok := status.FromError(err); ok && err != nil && winhost.IsCredentialConflict(st.Message()) {
		root, rerr := winpath.ShareRoot(remotePath)
		if rerr != nil {
			root = remotePath
		}
		return winhost.CredentialConflict(root)
	}
	if err != nil {
		return proxyError(fmt.Sprintf("NewSmbGlobalMapping %s", remotePath), c.smbPipe, err)
	}
	return nil
}

// PassesMapOptions is false: NewSmbGlobalMappingRequest has RemotePath,
// LocalPath, Username and Password, and nothing else.
func (*Client) PassesMapOptions() bool { return false }

// RemoveSMBGlobalMapping answers OK when there is no mapping to remove:
// csi-proxy runs Remove-SmbGlobalMapping, which fails then with "not
// found", as after a reboot, and the unstage that asked has what it wants.
// Every other failure (access denied, csi-proxy unavailable) is one.
func (c *Client) RemoveSMBGlobalMapping(ctx context.Context, remotePath string) error {
	_, err := c.smb.RemoveSmbGlobalMapping(ctx, &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: remotePath})
	if st, ok := status.FromError(err); ok && err != nil && st.Code() == codes.Unknown && winhost.IsNoMapping(st.Message()) {
		return nil
	}
	if err != nil {
		return proxyError(fmt.Sprintf("RemoveSmbGlobalMapping %s", remotePath), c.smbPipe, err)
	}
	return nil
}

func (c *Client) PathExists(ctx context.Context, path string) (bool, error) {
	resp, err := c.fs.PathExists(ctx, &fsv1.PathExistsRequest{Path: path})
	if err != nil {
		return false, proxyError(fmt.Sprintf("PathExists %s", path), c.fsPipe, err)
	}
	return resp.GetExists(), nil
}

func (c *Client) IsSymlink(ctx context.Context, path string) (bool, error) {
	resp, err := c.fs.IsSymlink(ctx, &fsv1.IsSymlinkRequest{Path: path})
	if err != nil {
		return false, proxyError(fmt.Sprintf("IsSymlink %s", path), c.fsPipe, err)
	}
	return resp.GetIsSymlink(), nil
}

func (c *Client) Mkdir(ctx context.Context, path string) error {
	if _, err := c.fs.Mkdir(ctx, &fsv1.MkdirRequest{Path: path}); err != nil {
		return proxyError(fmt.Sprintf("Mkdir %s", path), c.fsPipe, err)
	}
	return nil
}

// Rmdir never sets Force: csi-proxy then calls RemoveAll, which on a
// directory that is not a link deletes what the volume holds.
func (c *Client) Rmdir(ctx context.Context, path string) error {
	if _, err := c.fs.Rmdir(ctx, &fsv1.RmdirRequest{Path: path, Force: false}); err != nil {
		return proxyError(fmt.Sprintf("Rmdir %s", path), c.fsPipe, err)
	}
	return nil
}

// CreateSymlink: csi-proxy's SourcePath is the existing directory and
// TargetPath the new link.
func (c *Client) CreateSymlink(ctx context.Context, link, target string) error {
	if _, err := c.fs.CreateSymlink(ctx, &fsv1.CreateSymlinkRequest{SourcePath: target, TargetPath: link}); err != nil {
		return proxyError(fmt.Sprintf("CreateSymlink %s -> %s", link, target), c.fsPipe, err)
	}
	return nil
}

func (c *Client) Readlink(ctx context.Context, path string) (string, error) {
	return c.local.Readlink(ctx, path)
}

func (c *Client) ReadDir(ctx context.Context, dir string) ([]string, error) {
	return c.local.ReadDir(ctx, dir)
}

func (c *Client) FreeSpace(ctx context.Context, path string) (winhost.Space, error) {
	return c.local.FreeSpace(ctx, path)
}

func (c *Client) OpenDir(dir string) (winhost.Dir, error) {
	return c.local.OpenDir(dir)
}
