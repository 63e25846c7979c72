package usage

import "io/fs"

// Windows gives no device, inode or block count through os.Lstat: every
// name counts, at its size (an SMB mapping's files, as the server sizes
// them).
func devOf(fs.FileInfo) (uint64, bool) { return 0, false }

func keyOf(fs.FileInfo) (FileKey, uint64, bool) { return FileKey{}, 0, false }

func allocated(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 0
	}
	return fi.Size()
}
