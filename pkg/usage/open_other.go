//go:build !unix

package usage

import "os"

// openDir: the os view is for Linux mounts (a Windows node walks its SMB
// mappings through its host, pkg/mounter); elsewhere a plain open.
func openDir(dir string) (*os.File, error) { return os.Open(dir) }

func notADir(error) bool { return false }
