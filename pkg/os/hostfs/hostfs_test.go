package hostfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
)

var _ interface {
	PathExists(context.Context, string) (bool, error)
	IsSymlink(context.Context, string) (bool, error)
	Mkdir(context.Context, string) error
	Rmdir(context.Context, string) error
	CreateSymlink(context.Context, string, string) error
	Readlink(context.Context, string) (string, error)
	ReadDir(context.Context, string) ([]string, error)
	FreeSpace(context.Context, string) (winhost.Space, error)
} = FS{}

func TestLinksAndDirectories(t *testing.T) {
	ctx := context.Background()
	var h FS
	root := t.TempDir()
	volume := filepath.Join(root, "share", "vol")
	link := filepath.Join(root, "plugins", "h1", "globalmount")
	if err := h.Mkdir(ctx, volume); err != nil {
		t.Fatal(err)
	}
	if err := h.Mkdir(ctx, filepath.Dir(link)); err != nil {
		t.Fatal(err)
	}
	if err := h.CreateSymlink(ctx, link, volume); err != nil {
		t.Fatal(err)
	}

	if ok, err := h.PathExists(ctx, link); !ok || err != nil {
		t.Errorf("PathExists(link) = %v, %v", ok, err)
	}
	if ok, err := h.PathExists(ctx, filepath.Join(root, "nothing")); ok || err != nil {
		t.Errorf("PathExists(missing) = %v, %v", ok, err)
	}
	if ok, err := h.IsSymlink(ctx, link); !ok || err != nil {
		t.Errorf("IsSymlink(link) = %v, %v", ok, err)
	}
	if ok, err := h.IsSymlink(ctx, volume); ok || err != nil {
		t.Errorf("IsSymlink(directory) = %v, %v", ok, err)
	}
	if got, err := h.Readlink(ctx, link); got != volume || err != nil {
		t.Errorf("Readlink(link) = %q, %v", got, err)
	}
	if _, err := h.Readlink(ctx, volume); !errors.Is(err, winhost.ErrNotLink) {
		t.Errorf("Readlink(directory) = %v, want ErrNotLink", err)
	}
	if _, err := h.Readlink(ctx, filepath.Join(root, "nothing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Readlink(missing) = %v, want ErrNotExist", err)
	}
	if names, err := h.ReadDir(ctx, filepath.Join(root, "plugins")); err != nil || len(names) != 1 || names[0] != "h1" {
		t.Errorf("ReadDir = %q, %v", names, err)
	}

	// A link whose target is gone does not count as a working link.
	if err := os.WriteFile(filepath.Join(volume, "data"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := h.Rmdir(ctx, volume); err == nil {
		t.Fatal("Rmdir removed a directory that holds a file")
	}
	if err := h.Rmdir(ctx, link); err != nil {
		t.Fatalf("Rmdir(link): %v", err)
	}
	if _, err := os.Stat(filepath.Join(volume, "data")); err != nil {
		t.Fatalf("removing the link touched its target: %v", err)
	}
	dangling := filepath.Join(root, "dangling")
	if err := h.CreateSymlink(ctx, dangling, filepath.Join(root, "gone")); err != nil {
		t.Fatal(err)
	}
	if ok, err := h.IsSymlink(ctx, dangling); ok || err != nil {
		t.Errorf("IsSymlink(dangling link) = %v, %v; want false", ok, err)
	}
}

func TestCallsReturnAtTheDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	unblock := make(chan struct{})
	defer close(unblock)
	start := time.Now()
	_, err := withContext(ctx, `c:\stuck`, func() (bool, error) { <-unblock; return true, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("returned after %v", d)
	}
}

func TestFreeSpace(t *testing.T) {
	sp, err := FS{}.FreeSpace(context.Background(), t.TempDir())
	if runtime.GOOS != "windows" {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("FreeSpace off Windows: %v, want ErrUnsupported", err)
		}
		return
	}
	if err != nil || sp.Total <= 0 || sp.Free > sp.Total || sp.Available > sp.Free {
		t.Fatalf("FreeSpace = %+v, %v", sp, err)
	}
}
