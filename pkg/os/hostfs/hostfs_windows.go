//go:build windows

package hostfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// createDirLink always creates a directory link. os.Symlink decides between
// a file and a directory link by looking at the target, and a share that does
// not answer at that moment would get a file link that never works.
func createDirLink(link, target string) error {
	l, err := windows.UTF16PtrFromString(link)
	if err != nil {
		return err
	}
	t, err := windows.UTF16PtrFromString(target)
	if err != nil {
		return err
	}
	if err := windows.CreateSymbolicLink(l, t, windows.SYMBOLIC_LINK_FLAG_DIRECTORY); err != nil {
		return fmt.Errorf("create link %s to %s: %w", link, target, err)
	}
	return nil
}

// freeSpace asks GetDiskFreeSpaceEx, which follows links to the share. It
// wants a directory name that ends in a backslash.
func freeSpace(path string) (winhost.Space, error) {
	if !strings.HasSuffix(path, `\`) {
		path += `\`
	}
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return winhost.Space{}, err
	}
	var available, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &available, &total, &free); err != nil {
		return winhost.Space{}, fmt.Errorf("GetDiskFreeSpaceEx %s: %w", path, err)
	}
	return winhost.Space{Total: int64(total), Free: int64(free), Available: int64(available)}, nil
}

// openDir opens dir for listing: a directory handle (backup semantics, as
// directories must be opened), read with GetFileInformationByHandleEx
// (FileFullDirectoryInfo), which an SMB mapping answers with one
// QUERY_DIRECTORY per buffer, allocation sizes included.
func openDir(dir string) (winhost.Dir, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(p, windows.FILE_LIST_DIRECTORY,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &listing{
		buf: make([]byte, 64<<10),
		fill: func(buf []byte) error {
			err := windows.GetFileInformationByHandleEx(h, windows.FileFullDirectoryInfo, &buf[0], uint32(len(buf)))
			if errors.Is(err, windows.ERROR_NO_MORE_FILES) {
				return io.EOF
			}
			if err != nil {
				return &fs.PathError{Op: "list", Path: dir, Err: err}
			}
			return nil
		},
		close: func() error { return windows.CloseHandle(h) },
	}, nil
}
