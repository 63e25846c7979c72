//go:build !windows

package usage

import (
	"io/fs"
	"syscall"
)

func devOf(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true //nolint:unconvert // int32 on some platforms
}

func keyOf(fi fs.FileInfo) (FileKey, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileKey{}, 0, false
	}
	return FileKey{uint64(st.Dev), uint64(st.Ino)}, uint64(st.Nlink), true //nolint:unconvert
}

// allocated is what the file occupies: its blocks (512 bytes each, as
// stat(2) counts them, whatever the file system's block size).
func allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512 //nolint:unconvert
	}
	return fi.Size()
}
