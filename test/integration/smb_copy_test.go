//go:build linux

package integration

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/copytree"
	"github.com/fileshare-csi/fileshare-csi/pkg/share"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// The server copies a file itself (FSCTL_SRV_COPYCHUNK_WRITE): the copy is
// exact, and the bytes that cross the connection, counted by a proxy in
// front of Samba, are a small fraction of the file's.
func TestSMBServerSideCopy(t *testing.T) {
	proxy, viaProxy := smbThroughProxy(t)
	c, rel, dir := dialTree(t, viaProxy, "smb-server-side-copy")
	ssc, ok := c.(share.ServerSideCopier)
	if !ok {
		t.Fatal("the SMB client is not a share.ServerSideCopier")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// 40 MiB and a bit: several copychunk requests and a short last chunk.
	data := make([]byte, 40<<20+4097)
	rand.Read(data)
	must(t, os.WriteFile(filepath.Join(dir, "src"), data, 0o666))
	must(t, os.Chmod(filepath.Join(dir, "src"), 0o666))
	w, err := c.Create(ctx, rel+"/dst", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	must(t, w.Close(ctx))

	up, down := proxy.Forwarded()
	start := time.Now()
	must(t, ssc.CopyData(ctx, rel+"/src", rel+"/dst", int64(len(data))))
	took := time.Since(start)
	up2, down2 := proxy.Forwarded()
	sent, received := up2-up, down2-down
	t.Logf("copied %d bytes in %v; the connection carried %d bytes to the server and %d back", len(data), took, sent, received)

	got, err := os.ReadFile(filepath.Join(dir, "dst"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("the copy has %d bytes and differs from the source's %d", len(got), len(data))
	}
	if limit := int64(len(data)) / 100; sent > limit || received > limit {
		t.Fatalf("the copy moved %d bytes up and %d down the connection, more than 1%% of the file's %d: the data went through the client", sent, received, len(data))
	}

	// The counts are real: reading 1 MiB through the client shows on them.
	r, err := c.Open(ctx, rel+"/dst")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	if n, err := r.ReadAt(ctx, make([]byte, 1<<20), 0); err != nil || n != 1<<20 {
		t.Fatalf("ReadAt = %d, %v", n, err)
	}
	if _, down3 := proxy.Forwarded(); down3-down2 < 1<<20 {
		t.Fatalf("reading 1 MiB moved only %d bytes down the connection: the proxy does not count", down3-down2)
	}
}

// Samba's per-request work is what a copy of small files waits on, so the
// round trips per file are a budget, counted by a proxy in front of Samba:
//   - a tree copy (a clone): 7, CREATE of the copy, CREATE (with the
//     QUERY_INFO of its file ID in the same compound, share.IDOpener's
//     check), resume key, copychunk and CLOSE of the source, then the time
//     and attributes and CLOSE on the copy's own handle;
//   - a snapshot into a pack: 0.3, each file's CREATE, QUERY_INFO of its file
//     ID, READ and CLOSE in one compound with 15 other files'
//     (share.FilesReader; it was 3), the pack's writes carrying many files
//     each;
//   - a restore from the pack: 0.3, each file's CREATE, WRITE, the time and
//     attributes, and CLOSE in one compound with 15 other files'
//     (share.FilesWriter; it was 4 round trips per file, one per request).
func TestSMBCopyRequestsPerFile(t *testing.T) {
	proxy, viaProxy := smbThroughProxy(t)
	const base = "smb-copy-requests"
	worker, rel, dir := dialTree(t, viaProxy, base)
	src, err := source.Parse(viaProxy.source(base))
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := share.Dial(ctx, src, viaProxy.creds)
	must(t, err)
	defer c.Close()
	lister := c.(share.TreeClient)

	const files = 60
	must(t, os.Mkdir(filepath.Join(dir, "src"), 0o777))
	must(t, os.Chmod(filepath.Join(dir, "src"), 0o777))
	mtime := time.Date(2020, 2, 29, 12, 0, 0, 0, time.UTC)
	for i := range files {
		p := filepath.Join(dir, "src", fmt.Sprintf("f%02d", i))
		must(t, os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o666))
		must(t, os.Chmod(p, 0o666))
		must(t, os.Chtimes(p, mtime, mtime))
	}

	sessions := copytree.Sessions{Lister: lister, Workers: []copytree.Pair{{Src: worker, Dst: worker}}}
	for _, step := range []struct {
		what, from, to string
		opts           copytree.Options
		budget         float64
	}{
		{"tree copy", "src", "clone", copytree.Options{}, 7.5},
		{"snapshot into a pack", "src", "snap", copytree.Options{PackTo: rel + "/snap.pack"}, 0.5},
		{"restore from the pack", "snap", "restored", copytree.Options{UnpackFrom: rel + "/snap.pack"}, 0.5},
	} {
		before := proxy.Requests()
		stats, err := copytree.Copy(ctx, sessions, rel+"/"+step.from, rel+"/"+step.to, step.opts)
		must(t, err)
		requests := proxy.Requests() - before
		perFile := float64(requests) / files
		t.Logf("%s: %d files (%d bytes copied on the server) in %d round trips: %.2f per file", step.what, stats.Files, stats.ServerSideBytes, requests, perFile)
		if stats.Files != files {
			t.Fatalf("%s: %d files, want %d", step.what, stats.Files, files)
		}
		// The directory's own listing, creation and attributes spread
		// over the files.
		if perFile > step.budget {
			t.Errorf("%s: %.2f SMB round trips per file, the budget is %.1f", step.what, perFile, step.budget)
		}
		if step.opts.PackTo != "" {
			if entries, err := os.ReadDir(filepath.Join(dir, step.to)); err != nil || len(entries) != 0 {
				t.Fatalf("%s: the tree holds %v (%v), want the files in the pack only", step.what, entries, err)
			}
			continue
		}
		for i := range files {
			p := filepath.Join(dir, step.to, fmt.Sprintf("f%02d", i))
			got, err := os.ReadFile(p)
			must(t, err)
			if want := fmt.Sprintf("file %d\n", i); string(got) != want {
				t.Fatalf("%s: %s holds %q, want %q", step.what, p, got, want)
			}
			fi, err := os.Stat(p)
			must(t, err)
			if !fi.ModTime().Equal(mtime) {
				t.Fatalf("%s: %s has mtime %v, want %v", step.what, p, fi.ModTime(), mtime)
			}
		}
	}
}

// smbThroughProxy is the SMB tree protocol through a stall proxy (stalling
// off) that counts what crosses it.
func smbThroughProxy(t *testing.T) (*localservers.StallProxy, treeProtocol) {
	t.Helper()
	proxy := stallProxy(t)
	proxy.SetStall(false)
	return proxy, treeProtocol{
		name:   "smb",
		source: func(base string) string { return "smb://" + proxy.Addr + "/" + localservers.SMBShare + "/" + base },
		creds:  share.Credentials{Username: localservers.SMBUser, Password: localservers.SMBPassword},
	}
}

// swapOnOpen is a copy's worker session that swaps the source directory
// d for a link to another volume (swap) just before the first of d's files
// is opened, read in a compound, or has its copy made: after the lister
// checked d's file ID and listed it.
type swapOnOpen struct {
	share.TreeClient
	once sync.Once
	swap func()
}

func (s *swapOnOpen) before(rel string) {
	if strings.Contains(rel, "/d/") {
		s.once.Do(s.swap)
	}
}

func (s *swapOnOpen) Create(ctx context.Context, rel string, perm fs.FileMode) (share.FileWriter, error) {
	s.before(rel)
	return s.TreeClient.Create(ctx, rel, perm)
}

func (s *swapOnOpen) Open(ctx context.Context, rel string) (share.FileReader, error) {
	s.before(rel)
	return s.TreeClient.Open(ctx, rel)
}

func (s *swapOnOpen) OpenID(ctx context.Context, rel string, id uint64) (share.FileReader, error) {
	s.before(rel)
	return s.TreeClient.(share.IDOpener).OpenID(ctx, rel, id)
}

func (s *swapOnOpen) ReadFiles(ctx context.Context, files []share.ListedFile) []share.Result {
	for _, f := range files {
		s.before(f.Path)
	}
	return s.TreeClient.(share.FilesReader).ReadFiles(ctx, files)
}

func (s *swapOnOpen) FilesLimit() (size, count int) {
	return s.TreeClient.(share.FilesReader).FilesLimit()
}

// ReadDirOf is the session's own: the copy lists a directory again
// through it when a file is not the one listed.
func (s *swapOnOpen) ReadDirOf(ctx context.Context, rel string, id uint64, fn func([]share.DirEntry) error) error {
	return s.TreeClient.(share.IDLister).ReadDirOf(ctx, rel, id, fn)
}

// Samba resolves links inside the share for its clients (follow symlinks =
// yes): a directory a copy listed, swapped for a link to another volume
// before its files are opened, had each path open the other volume's file
// of the same name. Each source file is opened only when it has the file
// ID the listing gave it, streamed, read in a snapshot's compounds, or as
// a server-side copy's source: the copy fails, and none of the other
// volume's bytes reach it. A file an application saved again by renaming
// over it meanwhile is another file too, in its own directory: the copy
// looks it up again and copies it as it is now.
func TestSMBCopyReadsOnlyTheListedFiles(t *testing.T) {
	const base = "smb-copy-listed-files"
	smbTree := smbTreeProtocol()
	worker, rel, dir := dialTree(t, smbTree, base)
	src, err := source.Parse(smbTree.source(base))
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := share.Dial(ctx, src, smbTree.creds)
	must(t, err)
	defer c.Close()
	lister := c.(share.TreeClient)
	for _, tc := range []struct {
		what     string
		opts     copytree.Options
		onServer bool // the worker is source and destination: a server-side copy
		save     bool // src/d/f renamed over instead of d swapped for a link
	}{
		{"streamed", copytree.Options{}, false, false},
		{"server-side copy", copytree.Options{}, true, false},
		{"snapshot into a pack", copytree.Options{PackTo: rel + "/snap.pack"}, false, false},
		{"streamed, a file saved again", copytree.Options{}, false, true},
		{"server-side copy, a file saved again", copytree.Options{}, true, true},
		{"snapshot into a pack, a file saved again", copytree.Options{PackTo: rel + "/snap.pack"}, false, true},
	} {
		t.Run(tc.what, func(t *testing.T) {
			for _, p := range []string{"src", "src/d", "other", "copy"} {
				must(t, os.RemoveAll(filepath.Join(dir, p)))
			}
			_ = os.Remove(filepath.Join(dir, "snap.pack"))
			for _, d := range []string{"src", "src/d", "other"} {
				must(t, os.MkdirAll(filepath.Join(dir, d), 0o777))
				must(t, os.Chmod(filepath.Join(dir, d), 0o777))
			}
			for _, f := range []string{"f", "g"} {
				must(t, os.WriteFile(filepath.Join(dir, "src/d", f), []byte("the tenant's own "+f), 0o666))
				must(t, os.WriteFile(filepath.Join(dir, "other", f), []byte("SECRET of the other volume's "+f), 0o666))
			}
			swapped := false
			// On a worker's goroutine: t.Error, not t.Fatal.
			w := &swapOnOpen{TreeClient: worker, swap: func() {
				if tc.save {
					f := filepath.Join(dir, "src/d/f")
					if err := os.WriteFile(f+".new", []byte("saved again"), 0o666); err != nil {
						t.Error(err)
						return
					}
					if err := os.Rename(f+".new", f); err != nil {
						t.Error(err)
						return
					}
					swapped = true
					return
				}
				if err := os.Rename(filepath.Join(dir, "src/d"), filepath.Join(dir, "src/d.moved")); err != nil {
					t.Error(err)
					return
				}
				if err := os.Symlink("../other", filepath.Join(dir, "src/d")); err != nil {
					t.Error(err)
					return
				}
				swapped = true
			}}
			pair := copytree.Pair{Src: w, Dst: worker}
			if tc.onServer {
				pair.Dst = w
			}
			_, err := copytree.Copy(ctx, copytree.Sessions{Lister: lister, Workers: []copytree.Pair{pair}}, rel+"/src", rel+"/copy", tc.opts)
			if !swapped {
				t.Fatal("the directory was never swapped: the test did not test")
			}
			_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || strings.Contains(p, "/other/") || strings.Contains(p, "/src/") {
					return nil
				}
				if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte("SECRET")) {
					t.Errorf("%s holds the other volume's data", p)
				}
				return nil
			})
			if tc.save {
				if err != nil {
					t.Fatalf("a copy of a file saved again by a rename after its listing: %v", err)
				}
				var got []byte
				if tc.opts.PackTo != "" {
					got, err = os.ReadFile(filepath.Join(dir, "snap.pack"))
				} else {
					got, err = os.ReadFile(filepath.Join(dir, "copy/d/f"))
				}
				must(t, err)
				if !bytes.Contains(got, []byte("saved again")) {
					t.Errorf("the copy does not hold the file as it was saved again: %q", got)
				}
				return
			}
			if !errors.Is(err, share.ErrChanged) || !errors.Is(err, copytree.ErrIncomplete) {
				t.Errorf("a copy whose directory was swapped for a link after its listing: %v, want ErrChanged and ErrIncomplete", err)
			}
		})
	}
}

// A copy that resumes finds what its earlier run left in its destination.
// Samba shows a link planted there as the file it leads to: a create that
// opened the name (the copy used to truncate what was there) wrote the
// copy's data into another volume's file. Each file is now made only
// where nothing is, after what is in the way went by its name. This holds
// for every protocol (TestTreeClientNeverCreatesThroughALink); Samba is
// the server that resolves the link.
func TestSMBCopyNeverWritesThroughALinkInItsDestination(t *testing.T) {
	const base = "smb-copy-planted-links"
	smbTree := smbTreeProtocol()
	c, rel, dir := dialTree(t, smbTree, base)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plant(t, dir, map[string]string{
		"src/f": "the volume's f", "src/d/g": "the volume's g",
		"other/f": "SECRET f", "other/g": "SECRET g",
		"copy/earlier": "what an earlier run copied", "copy/d/": "",
	})
	must(t, os.Symlink("../other/f", filepath.Join(dir, "copy/f")))
	must(t, os.Symlink("../../other/g", filepath.Join(dir, "copy/d/g")))
	if a, err := c.Lstat(ctx, rel+"/copy/f"); err != nil || a.Type != share.TypeFile {
		t.Fatalf("Samba shows the planted link as %+v, %v; want a file (follow symlinks = yes): the test does not test", a, err)
	}
	_, err := copytree.Copy(ctx, copytree.Sessions{Lister: c, Workers: []copytree.Pair{{Src: c, Dst: c}}}, rel+"/src", rel+"/copy", copytree.Options{TopExists: true})
	must(t, err)
	for p, want := range map[string]string{
		"other/f": "SECRET f", "other/g": "SECRET g", "copy/f": "the volume's f", "copy/d/g": "the volume's g",
	} {
		fi, err := os.Lstat(filepath.Join(dir, p))
		must(t, err)
		got, err := os.ReadFile(filepath.Join(dir, p))
		must(t, err)
		if !fi.Mode().IsRegular() || string(got) != want {
			t.Errorf("%s is a %v holding %q, want a file holding %q", p, fi.Mode().Type(), got, want)
		}
	}
}

// Samba lists both of two names that differ only in case (made over NFS,
// or on the server), but takes them for one name in a create: a copy of
// the two ended with one, and passed for whole. It fails now and names
// the entry. A snapshot's pack keeps both names, so that copy is whole;
// its restore into the share fails the same way.
func TestSMBCopyOfNamesThatDifferOnlyInCaseFails(t *testing.T) {
	const base = "smb-copy-case"
	smbTree := smbTreeProtocol()
	_, rel, dir := dialTree(t, smbTree, base)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plant(t, dir, map[string]string{"src/d/Report.txt": "Report.txt", "src/d/report.TXT": "report.TXT"})
	src, err := source.Parse(smbTree.source(base))
	must(t, err)
	// A session per copy: a failed copy cuts its session's requests.
	sessions := func() copytree.Sessions {
		sc, err := share.Dial(ctx, src, smbTree.creds)
		must(t, err)
		t.Cleanup(func() { sc.Close() })
		tc := sc.(share.TreeClient)
		return copytree.Sessions{Lister: tc, Workers: []copytree.Pair{{Src: tc, Dst: tc}}}
	}
	clash := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, copytree.ErrIncomplete) || !strings.Contains(err.Error(), "only in case") {
			names, _ := filepath.Glob(filepath.Join(dir, "*/d/*"))
			t.Errorf("%s of two names that differ only in case: %v (the share holds %v), want ErrIncomplete", what, err, names)
		}
	}
	_, err = copytree.Copy(ctx, sessions(), rel+"/src", rel+"/copy", copytree.Options{})
	clash("a copy", err)
	_, err = copytree.Copy(ctx, sessions(), rel+"/src", rel+"/snap", copytree.Options{PackTo: rel + "/snap.pack"})
	must(t, err)
	_, err = copytree.Copy(ctx, sessions(), rel+"/snap", rel+"/restore", copytree.Options{UnpackFrom: rel + "/snap.pack"})
	clash("a restore", err)
}

// A link that leads nowhere yet is no file to Samba (a look-up finds
// nothing), and a create at it would make the file it names, wherever that
// is, if the server followed it. Samba refuses the create ("does not
// exist"), the exclusive one as the one that would have truncated; the
// copy cannot remove what its server will not show, so it fails, having
// made nothing anywhere, until an administrator removes the link. This
// pins that outcome: Samba's refusal is what keeps the link harmless.
func TestSMBCopyNeverCreatesThroughADanglingLink(t *testing.T) {
	const base = "smb-copy-dangling-link"
	smbTree := smbTreeProtocol()
	c, rel, dir := dialTree(t, smbTree, base)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plant(t, dir, map[string]string{"src/h": "the volume's h", "copy/earlier": "what an earlier run copied", "other/": ""})
	must(t, os.Symlink("../other/new", filepath.Join(dir, "copy/h")))
	_, err := copytree.Copy(ctx, copytree.Sessions{Lister: c, Workers: []copytree.Pair{{Src: c, Dst: c}}}, rel+"/src", rel+"/copy", copytree.Options{TopExists: true})
	if _, serr := os.Lstat(filepath.Join(dir, "other/new")); serr == nil {
		t.Fatalf("the copy made other/new through the dangling link copy/h (copy error: %v)", err)
	}
	if err == nil {
		t.Fatal("a copy onto a dangling link it cannot remove succeeded")
	}
	t.Logf("refused: %v", err)
}

// smbTreeProtocol is treeProtocols' SMB.
func smbTreeProtocol() treeProtocol {
	for _, p := range treeProtocols() {
		if p.name == "smb" {
			return p
		}
	}
	panic("no smb in treeProtocols")
}

// plant makes files (a path ending in "/": a directory) below dir on the
// server's disk with their parents, all writable to Samba's user, as a
// tenant's files are to it: only the driver's rules keep them.
func plant(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, p)
		d := full
		if !strings.HasSuffix(p, "/") {
			d = filepath.Dir(full)
		}
		must(t, os.MkdirAll(d, 0o777))
		for x := d; x != dir && strings.HasPrefix(x, dir); x = filepath.Dir(x) {
			must(t, os.Chmod(x, 0o777))
		}
		if !strings.HasSuffix(p, "/") {
			must(t, os.WriteFile(full, []byte(data), 0o666))
			must(t, os.Chmod(full, 0o666))
		}
	}
}
