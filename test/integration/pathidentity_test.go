//go:build linux

package integration

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/container-storage-interface/spec/lib/go/csi"

	"github.com/fileshare-csi/fileshare-csi/pkg/share"
)

// A path is not an identity: after `mv d d.old; mkdir d` (a tenant's pod,
// or the driver archiving a volume and making a new one of the same name),
// every call on a path below d reaches the new d, on the same session that
// used the old one before. A session that kept the old d's handle by its
// path wrote a clone into the first volume's archive (issue #26).
func TestPathIsNotAnIdentity(t *testing.T) {
	for _, p := range treeProtocols() {
		t.Run(p.name, func(t *testing.T) {
			c, rel, dir := dialTree(t, p, "pathid-"+p.name)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			at := func(name string) string { return path.Join(rel, name) }
			// Samba checks Unix permissions as the SMB user: every
			// directory made here is world-writable.
			mkdir := func(p string) {
				t.Helper()
				for q := p; q != "/" && q != "."; q = filepath.Dir(q) {
					if _, err := os.Stat(q); err == nil {
						break
					}
					defer func() { must(t, os.Chmod(q, 0o777)) }()
				}
				must(t, os.MkdirAll(p, 0o777))
			}
			create := func(name, data string) {
				t.Helper()
				w, err := c.Create(ctx, at(name), 0o644)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.WriteAt(ctx, []byte(data), 0); err != nil {
					t.Fatal(err)
				}
				must(t, w.Close(ctx))
			}
			list := func(name string) []string {
				t.Helper()
				var names []string
				must(t, c.ReadDir(ctx, at(name), func(page []share.DirEntry) error {
					for _, e := range page {
						names = append(names, e.Name)
					}
					return nil
				}))
				return names
			}

			// The session uses d and d/sub by their paths: a write, a
			// listing, an Lstat.
			mkdir(filepath.Join(dir, "d/sub"))
			must(t, os.WriteFile(filepath.Join(dir, "d/sub/old-only"), []byte("old"), 0o666))
			create("d/one", "1")
			if got := list("d/sub"); !equalStrings(got, []string{"old-only"}) {
				t.Fatalf("d/sub lists %v before the swap", got)
			}
			if _, err := c.Lstat(ctx, at("d/sub/old-only")); err != nil {
				t.Fatal(err)
			}

			// Behind the session's back, d is moved aside and made anew.
			must(t, os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.old")))
			mkdir(filepath.Join(dir, "d/sub"))
			must(t, os.WriteFile(filepath.Join(dir, "d/sub/new-only"), []byte("new"), 0o666))
			must(t, os.Chmod(filepath.Join(dir, "d/sub/new-only"), 0o666))

			// Writes reach the new d, never the old one.
			create("d/two", "2")
			create("d/sub/three", "3")
			for _, name := range []string{"d/two", "d/sub/three"} {
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("%s was not written in the new directory: %v", name, err)
				}
				old := filepath.Join(dir, "d.old", strings.TrimPrefix(name, "d/"))
				if _, err := os.Stat(old); err == nil {
					t.Errorf("%s was written into the moved-aside directory as %s", name, old)
				}
			}
			// Reads see the new d: its listing, its entries.
			if got := list("d/sub"); !equalStrings(got, []string{"new-only", "three"}) && !equalStrings(got, []string{"three", "new-only"}) {
				t.Errorf("d/sub lists %v after the swap, want the new directory's new-only and three", got)
			}
			if _, err := c.Lstat(ctx, at("d/sub/new-only")); err != nil {
				t.Errorf("Lstat(d/sub/new-only) after the swap: %v", err)
			}
			if _, err := c.Lstat(ctx, at("d/sub/old-only")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Lstat(d/sub/old-only) after the swap = %v, want fs.ErrNotExist: the old directory was read", err)
			}
			// And so do attribute changes.
			newTime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := c.SetAttr(ctx, at("d/sub/new-only"), share.Attr{ModTime: newTime}, share.SetModTime); err != nil {
				t.Errorf("SetAttr(d/sub/new-only) after the swap: %v", err)
			} else if fi, err := os.Stat(filepath.Join(dir, "d/sub/new-only")); err != nil || !fi.ModTime().Equal(newTime) {
				t.Errorf("SetAttr after the swap did not reach the new file: %v, %v", fi.ModTime(), err)
			}

			// A copy's path scope ends with it: what its calls looked up is
			// not what a later copy on the same session reaches.
			first, end := share.WithPathScope(ctx)
			w, err := c.Create(first, at("d/sub/four"), 0o644)
			if err != nil {
				t.Fatal(err)
			}
			must(t, w.Close(first))
			end()
			must(t, os.Rename(filepath.Join(dir, "d"), filepath.Join(dir, "d.older")))
			mkdir(filepath.Join(dir, "d/sub"))
			second, end2 := share.WithPathScope(ctx)
			defer end2()
			for _, cctx := range []context.Context{first, second} {
				w, err := c.Create(cctx, at("d/sub/five"), 0o644)
				if err != nil {
					t.Fatal(err)
				}
				must(t, w.Close(cctx))
				if err := os.Remove(filepath.Join(dir, "d.older/sub/five")); err == nil {
					t.Error("a call in a later scope, or in one that ended, reached the directory an earlier scope looked up")
				}
				if err := os.Remove(filepath.Join(dir, "d/sub/five")); err != nil {
					t.Error(err)
				}
			}

			// The same for the small-file calls the driver keeps its
			// records with, in the metadata directory at the session's
			// root (where a session once kept handles by path).
			root := dir
			if rel != "" {
				root = strings.TrimSuffix(dir, "/"+rel)
			}
			meta := ".fileshare-csi/pathid-test-" + p.name
			t.Cleanup(func() { os.RemoveAll(filepath.Join(root, meta)) })
			mkdir(filepath.Join(root, meta, "sub"))
			must(t, c.WriteFile(ctx, meta+"/sub/rec", []byte("first")))
			if _, err := c.ReadFile(ctx, meta+"/sub/rec"); err != nil {
				t.Fatal(err)
			}
			must(t, os.Rename(filepath.Join(root, meta, "sub"), filepath.Join(root, meta, "sub.old")))
			mkdir(filepath.Join(root, meta, "sub"))
			must(t, c.WriteFile(ctx, meta+"/sub/rec", []byte("second")))
			mustRead(t, filepath.Join(root, meta, "sub/rec"), "second")
			mustRead(t, filepath.Join(root, meta, "sub.old/rec"), "first")
			if got, err := c.ReadFile(ctx, meta+"/sub/rec"); err != nil || string(got) != "second" {
				t.Errorf("ReadFile after the swap = %q, %v; want the new directory's record", got, err)
			}
		})
	}
}

// Issue #26 end to end, through the driver and its pooled sessions: a
// class that archives; B cloned from A, written to by its tenant, deleted
// (archived); A changes; B cloned from A again under the same name. The
// new B is A as it is now, and the archive stays what the first B was. A
// snapshot taken after `mv d d.old; mkdir d` in A copies the new d as d.
func TestCloneAfterArchiveNeverWritesTheArchive(t *testing.T) {
	c := controller(t)
	protocols(t, func(t *testing.T, params, secrets map[string]string, base string) {
		p := withParams(params, "onDelete", "archive")
		a := create(t, c, "a", p, secrets)
		writeFile(t, filepath.Join(base, "a", "top"), "top 1")
		writeFile(t, filepath.Join(base, "a", "d", "one"), "1")
		writeFile(t, filepath.Join(base, "a", "d", "sub", "deep"), "deep 1")
		b := createFrom(t, c, "b", p, secrets, fromVolume(a.GetVolumeId()))
		writeFile(t, filepath.Join(base, "b", "d", "sub", "tenant"), "b's own")
		deleteVol(t, c, b.GetVolumeId(), secrets)
		archives, _ := filepath.Glob(filepath.Join(base, "archived-b*"))
		if len(archives) != 1 {
			t.Fatalf("archives of b: %v, want one", archives)
		}
		archive := archives[0]
		t.Cleanup(func() { os.RemoveAll(archive) })

		writeFile(t, filepath.Join(base, "a", "top"), "top 2")
		writeFile(t, filepath.Join(base, "a", "d", "two"), "2")
		writeFile(t, filepath.Join(base, "a", "d", "sub", "deep2"), "deep 2")
		b2 := createFrom(t, c, "b", p, secrets, fromVolume(a.GetVolumeId()))
		for name, want := range map[string]string{"top": "top 2", "d/one": "1", "d/two": "2", "d/sub/deep": "deep 1", "d/sub/deep2": "deep 2"} {
			mustRead(t, filepath.Join(base, "b", name), want)
		}
		if _, err := os.Stat(filepath.Join(base, "b", "d", "sub", "tenant")); err == nil {
			t.Error("the new b holds the first b's file")
		}
		want := map[string]string{"top": "top 1", "d/one": "1", "d/sub/deep": "deep 1", "d/sub/tenant": "b's own"}
		for name, content := range want {
			mustRead(t, filepath.Join(archive, name), content)
		}
		for _, name := range []string{"d/two", "d/sub/deep2"} {
			if _, err := os.Stat(filepath.Join(archive, name)); err == nil {
				t.Errorf("the second clone wrote %s into the first b's archive", name)
			}
		}

		// Reads: a snapshot after d was moved aside and made again.
		s1 := snapshotOf(t, c, "before-move", a.GetVolumeId(), secrets)
		must(t, os.Rename(filepath.Join(base, "a", "d"), filepath.Join(base, "a", "d.old")))
		writeFile(t, filepath.Join(base, "a", "d", "sub", "fresh"), "fresh")
		s2 := snapshotOf(t, c, "after-move", a.GetVolumeId(), secrets)
		r := createFrom(t, c, "restored", params, secrets, fromSnapshot(s2.GetSnapshotId()))
		mustRead(t, filepath.Join(base, "restored", "d", "sub", "fresh"), "fresh")
		mustRead(t, filepath.Join(base, "restored", "d.old", "sub", "deep"), "deep 1")
		for _, name := range []string{"d/sub/deep", "d/sub/deep2", "d/one"} {
			if _, err := os.Stat(filepath.Join(base, "restored", name)); err == nil {
				t.Errorf("the snapshot after the move holds d.old's %s as d's", name)
			}
		}
		for _, id := range []string{s1.GetSnapshotId(), s2.GetSnapshotId()} {
			if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: id, Secrets: secrets}); err != nil {
				t.Error(err)
			}
		}
		for _, v := range []string{r.GetVolumeId(), b2.GetVolumeId(), a.GetVolumeId()} {
			deleteVol(t, c, v, secrets)
		}
		for _, name := range []string{"a", "b", "restored"} {
			if arch, _ := filepath.Glob(filepath.Join(base, "archived-"+name+"*")); len(arch) > 0 {
				t.Cleanup(func() {
					for _, d := range arch {
						os.RemoveAll(d)
					}
				})
			}
		}
	})
}
