// Package hostfs does the node's file operations in the plugin's own process:
// all of them in a HostProcess pod, which runs on the node itself, and in an
// ordinary pod the reads csi-proxy v1 has no API for (Readlink, ReadDir,
// FreeSpace) on the kubelet directory mounted into the pod.
package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/fileshare-csi/fileshare-csi/pkg/aside"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

// FS implements the file operations of winhost.Host with the os package.
type FS struct{}

// withContext runs f, but returns when ctx ends: a stat through a link to a
// share whose server is gone blocks in the kernel for a long time, and must
// not block the CSI call with it. f finishes in the background.
func withContext[T any](ctx context.Context, what string, f func() (T, error)) (T, error) {
	return aside.Run(ctx, what+" does not answer", f)
}

func (FS) PathExists(ctx context.Context, path string) (bool, error) {
	return withContext(ctx, path, func() (bool, error) {
		_, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	})
}

func (FS) IsSymlink(ctx context.Context, path string) (bool, error) {
	return withContext(ctx, path, func() (bool, error) {
		fi, err := os.Lstat(path)
		if err != nil {
			return false, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return false, nil
		}
		// os.Stat follows the link: to the share, when it points there.
		_, err = os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	})
}

func (FS) Mkdir(ctx context.Context, path string) error {
	_, err := withContext(ctx, path, func() (struct{}, error) {
		return struct{}{}, os.MkdirAll(path, 0o755)
	})
	return err
}

// Rmdir uses os.Remove, never os.RemoveAll: on a directory that is not a
// link, RemoveAll would delete what the volume holds.
func (FS) Rmdir(ctx context.Context, path string) error {
	_, err := withContext(ctx, path, func() (struct{}, error) {
		return struct{}{}, os.Remove(path)
	})
	return err
}

func (FS) CreateSymlink(ctx context.Context, link, target string) error {
	_, err := withContext(ctx, link, func() (struct{}, error) {
		return struct{}{}, createDirLink(link, target)
	})
	return err
}

func (FS) Readlink(ctx context.Context, path string) (string, error) {
	return withContext(ctx, path, func() (string, error) {
		fi, err := os.Lstat(path)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return "", fmt.Errorf("%s: %w", path, winhost.ErrNotLink)
		}
		return os.Readlink(path)
	})
}

func (FS) ReadDir(ctx context.Context, dir string) ([]string, error) {
	return withContext(ctx, dir, func() ([]string, error) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		return names, nil
	})
}

func (FS) FreeSpace(ctx context.Context, path string) (winhost.Space, error) {
	return withContext(ctx, path, func() (winhost.Space, error) { return freeSpace(path) })
}

// OpenDir lists dir with GetFileInformationByHandleEx (FILE_FULL_DIR_INFO),
// which gives each name's allocation size; the os package reads the same
// listing but keeps only the end of file.
func (FS) OpenDir(dir string) (winhost.Dir, error) { return openDir(dir) }
