//go:build linux

package integration

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// The share.Batcher contract, the same for every protocol, checked against
// what the server's disk holds: the store's CreateVolume and DeleteVolume
// rest on it (pkg/state/batched.go).
func TestBatch(t *testing.T) {
	for _, p := range treeProtocols() {
		t.Run(p.name, func(t *testing.T) {
			tc, rel, dir := dialTree(t, p, "batch-"+p.name)
			c := tc.(share.Client)
			// NFSv3 has no compound: RunBatch sends its ops one at a
			// time, through its exclusive create and its RMDIR.
			_, batches := c.(share.Batcher)
			_, creates := c.(share.Creator)
			_, rmdirs := c.(share.Rmdirer)
			if batches == (p.name == "nfs") || !creates || !rmdirs {
				t.Fatalf("the %s client: Batcher %v, Creator %v, Rmdirer %v", p.name, batches, creates, rmdirs)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			at := func(name string) string { return path.Join(rel, name) }
			disk := func(name string) string { return filepath.Join(dir, name) }
			must(t, os.WriteFile(disk("there"), []byte("old"), 0o666))
			must(t, os.MkdirAll(disk("full/d"), 0o777))
			must(t, os.MkdirAll(disk("empty"), 0o777))
			must(t, os.WriteFile(disk("file"), []byte("a file"), 0o666))

			// Unordered: every op runs, a miss in the middle or not.
			res := share.RunBatch(ctx, c, []share.Op{
				{Kind: share.OpCreate, Path: at("new"), Data: []byte("new data")},
				{Kind: share.OpCreate, Path: at("there"), Data: []byte("lost")},
				{Kind: share.OpRead, Path: at("missing")},
				{Kind: share.OpWrite, Path: at("mark")},
				{Kind: share.OpRead, Path: at("there")},
				{Kind: share.OpStat, Path: at("empty")},
				{Kind: share.OpRmdir, Path: at("full")},
				{Kind: share.OpRmdir, Path: at("file")},
				{Kind: share.OpRemove, Path: at("gone-already")},
			}, false)
			check := func(i int, want error) {
				t.Helper()
				if want == nil && res[i].Err != nil || want != nil && !errors.Is(res[i].Err, want) {
					t.Errorf("op %d: %v, want %v", i, res[i].Err, want)
				}
			}
			check(0, nil)
			check(1, fs.ErrExist)
			check(2, fs.ErrNotExist)
			check(3, nil)
			check(4, nil)
			check(5, nil)
			check(6, share.ErrNotEmpty)
			if res[7].Err == nil {
				t.Errorf("op 7: an rmdir of a file succeeded")
			}
			check(8, nil)
			if b, err := os.ReadFile(disk("new")); err != nil || string(b) != "new data" {
				t.Errorf("the created file holds %q, %v", b, err)
			}
			if b, err := os.ReadFile(disk("there")); err != nil || string(b) != "old" {
				t.Errorf("a create replaced an existing file: %q, %v", b, err)
			}
			if fi, err := os.Stat(disk("mark")); err != nil || fi.Size() != 0 {
				t.Errorf("the empty file: %v, %v", fi, err)
			}
			if string(res[4].Data) != "old" {
				t.Errorf("read %q, want %q", res[4].Data, "old")
			}
			fi, err := os.Stat(disk("empty"))
			if err != nil {
				t.Fatal(err)
			}
			// NFS tells the inode number; Samba an IndexNumber of its own.
			if ino := fi.Sys().(*syscall.Stat_t).Ino; !res[5].Info.IsDir || res[5].Info.ID == 0 || p.unix && res[5].Info.ID != ino {
				t.Errorf("stat of a directory said %+v (inode %d)", res[5].Info, ino)
			}
			if _, err := os.Stat(disk("full/d")); err != nil {
				t.Errorf("rmdir touched a directory with entries: %v", err)
			}
			if _, err := os.Stat(disk("file")); err != nil {
				t.Errorf("rmdir removed a file: %v", err)
			}

			// Ordered: the first failure stops the rest.
			res = share.RunBatch(ctx, c, []share.Op{
				{Kind: share.OpRmdir, Path: at("empty")},
				{Kind: share.OpCreate, Path: at("there")},
				{Kind: share.OpRemove, Path: at("new")},
			}, true)
			check(0, nil)
			check(1, fs.ErrExist)
			check(2, share.ErrSkipped)
			if _, err := os.Stat(disk("empty")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the empty directory is still there: %v", err)
			}
			if _, err := os.Stat(disk("new")); err != nil {
				t.Errorf("an op after the ordered batch's failure ran: %v", err)
			}
		})
	}
}
