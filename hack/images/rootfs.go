package main

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path"
	"sort"
	"strings"
	"time"
)

// epoch is every file's time in the images: the same inputs give the same
// bytes, so the same digests.
var epoch = time.Unix(0, 0).UTC()

// entry is one file of a root file system being assembled.
type entry struct {
	hdr  tar.Header
	data []byte
}

// rootfs collects files by path; a later file at the same path replaces the
// earlier one.
type rootfs map[string]*entry

// dropped are the parts of a Debian package a container never reads. The
// copyright files stay: they are the packages' licences.
func dropped(name string) bool {
	for _, p := range []string{"usr/share/man/", "usr/share/info/", "usr/share/locale/", "usr/share/lintian/", "usr/share/bug/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(name, "usr/share/doc/"); ok {
		_, file, _ := strings.Cut(rest, "/")
		return file != "" && file != "copyright"
	}
	return false
}

// addDeb unpacks a .deb's files into the root, as dpkg would, without
// running any of its maintainer scripts.
func (r rootfs) addDeb(ctx context.Context, deb string) error {
	cmd := exec.CommandContext(ctx, "dpkg-deb", "--fsys-tarfile", deb)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	tr := tar.NewReader(out)
	var readErr error
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			readErr = err
			break
		}
		name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
		if name == "" || dropped(name) {
			continue
		}
		e := &entry{hdr: tar.Header{
			Typeflag: h.Typeflag, Name: name, Mode: h.Mode, Uid: h.Uid, Gid: h.Gid,
			Linkname: h.Linkname, ModTime: epoch,
		}}
		switch h.Typeflag {
		case tar.TypeDir:
			e.hdr.Name += "/"
		case tar.TypeLink:
			e.hdr.Linkname = strings.TrimPrefix(path.Clean("/"+h.Linkname), "/")
		case tar.TypeReg:
			if e.data, err = io.ReadAll(tr); err != nil {
				readErr = err
			}
			e.hdr.Size = int64(len(e.data))
		case tar.TypeSymlink:
		default:
			continue // no devices or fifos in Debian's packages
		}
		r[name] = e
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("dpkg-deb --fsys-tarfile %s: %w: %s", deb, err, stderr.String())
	}
	if readErr != nil {
		return fmt.Errorf("%s: %w", deb, readErr)
	}
	return nil
}

func (r rootfs) addFile(name string, mode int64, content string) {
	r[name] = &entry{hdr: tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(content)), ModTime: epoch}, data: []byte(content)}
}

func (r rootfs) addDir(name string, mode int64) {
	r[name] = &entry{hdr: tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, ModTime: epoch}}
}

func (r rootfs) addLink(name, target string) {
	r[name] = &entry{hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: epoch}}
}

// baseFiles are what Debian's maintainer scripts and base-files would have
// made, and what the node plugin needs of them: users for file ownership,
// name lookups from files and DNS (an NFS server given by name), and the
// mount table where mount(8) expects it.
func (r rootfs) baseFiles() {
	r.addFile("etc/passwd", 0o644, "root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/usr/sbin/nologin\n")
	r.addFile("etc/group", 0o644, "root:x:0:\nnogroup:x:65534:\nnonroot:x:65532:\n")
	r.addFile("etc/nsswitch.conf", 0o644, "passwd: files\ngroup: files\nhosts: files dns\n")
	r.addLink("etc/mtab", "../proc/self/mounts")
	for _, d := range []string{"proc", "sys", "dev", "run", "var/lib/nfs"} {
		if _, ok := r[d]; !ok {
			r.addDir(d, 0o755)
		}
	}
	r.addDir("tmp", 0o1777)
}

// writeTar writes the root as one layer: parents before children, names
// sorted, every directory present.
func (r rootfs) writeTar(w io.Writer) error {
	for name := range r {
		for d := path.Dir(name); d != "." && d != "/"; d = path.Dir(d) {
			if _, ok := r[d]; !ok {
				r.addDir(d, 0o755)
			}
		}
	}
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	sort.Strings(names)
	tw := tar.NewWriter(w)
	for _, n := range names {
		e := r[n]
		if err := tw.WriteHeader(&e.hdr); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		if e.hdr.Typeflag == tar.TypeReg {
			if _, err := tw.Write(e.data); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

// has reports whether the root has a file or link at name.
func (r rootfs) has(name string) bool {
	_, ok := r[strings.TrimPrefix(name, "/")]
	return ok
}

// tarNames lists the entries of a tar stream, as the layer names them.
func tarNames(b []byte) ([]string, error) {
	tr := tar.NewReader(bytes.NewReader(b))
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, nil
		}
		if err != nil {
			return nil, err
		}
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(path.Clean("/"+h.Name), "/"), "/"))
	}
}
