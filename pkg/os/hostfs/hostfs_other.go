//go:build !windows

package hostfs

import (
	"errors"
	"fmt"
	"os"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// createDirLink makes an ordinary symbolic link: other systems have no
// separate kind of link for directories. This lets tests run on Linux.
func createDirLink(link, target string) error {
	return os.Symlink(target, link)
}

func freeSpace(path string) (winhost.Space, error) {
	return winhost.Space{}, fmt.Errorf("free space of %s: only implemented for Windows nodes: %w", path, errors.ErrUnsupported)
}

func openDir(dir string) (winhost.Dir, error) {
	return nil, fmt.Errorf("list %s: only implemented for Windows nodes: %w", dir, errors.ErrUnsupported)
}
