package mounter

// The usage walk of a Windows node's volumes (no build tag, like
// windowsnode.go: it goes through winhost.Host, so it is tested on Linux
// against the fake csi-proxy).

import (
	"context"
	"fmt"
	"strings"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winpath"
	"github.com/fileshare-csi/fileshare-csi/pkg/usage"
)

// UsageFS is what the node's usage walks read on Windows: the volume's
// directory on the share, reached through the staging link's target (the
// SMB mapping), listed in the plugin's own process. Bytes are the server's
// allocation sizes from the listing; Windows gives no link count in a
// listing, so a file with several names counts once per name, and no
// device, so nothing is skipped as another file system (a share has none
// inside it that a walk could reach other than through a link, and links
// are never followed).
func (w *Windows) UsageFS() usage.FS { return windowsUsage{w.host} }

type windowsUsage struct{ host winhost.Host }

// Root follows the path's links, a publish link to the staging link and
// that to the share, without touching the share: Readlink reads the link
// itself. The walk's first listing is its first access to the share,
// after the counter's Check said the share answers.
func (u windowsUsage) Root(path string) (string, usage.Entry, error) {
	p := winpath.Clean(path)
	for hops := 0; hops < 2; hops++ {
		target, err := u.host.Readlink(context.Background(), p)
		if err != nil {
			return "", usage.Entry{}, fmt.Errorf("read link %s: %w", p, err)
		}
		if winpath.IsUNC(target) {
			return target, usage.Entry{Name: winpath.Base(p), Dir: true}, nil
		}
		p = winpath.Clean(target)
	}
	return "", usage.Entry{}, fmt.Errorf("%s does not lead to a share within two links: %w", path, ErrNotMounted)
}

func (u windowsUsage) OpenDir(dir string) (usage.Dir, error) {
	d, err := u.host.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	return windowsDir{d: d, host: u.host, path: dir}, nil
}

// usageJoin keeps the long form's prefix and drops the trailing backslash a
// link's target ends with (a share root needs it to be opened; a name
// below it does not).
func usageJoin(dir, name string) string {
	return strings.TrimRight(dir, `\`) + `\` + name
}

type windowsDir struct {
	d    winhost.Dir
	host winhost.Host
	path string
}

func (d windowsDir) Close() error { return d.d.Close() }

// Open opens a directory the listing named by its path on the share, as
// the walk always has here: SMB2 has no open relative to a directory
// handle (the redirector sends the server the whole path), and the host's
// OpenDir does not follow a link at the last name
// (FILE_FLAG_OPEN_REPARSE_POINT); the names above it are resolved by the
// client and the server (docs/usage.md, Windows nodes).
func (d windowsDir) Open(e usage.Entry) (usage.Dir, error) {
	return windowsUsage{d.host}.OpenDir(usageJoin(d.path, e.Name))
}

func (d windowsDir) Read(n int) ([]usage.Entry, error) {
	des, err := d.d.Read(n)
	out := make([]usage.Entry, 0, len(des))
	for _, e := range des {
		ue := usage.Entry{Name: e.Name, Dir: e.Dir && !e.Link}
		if !e.Dir {
			// A directory's allocation is the server's business (NTFS
			// lists 0); a file's, or a link's, is what it occupies.
			ue.Bytes = e.Allocated
		}
		out = append(out, ue)
	}
	return out, err
}
