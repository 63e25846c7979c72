//go:build linux

package node

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// testImage is an image the cluster needs that nobody can pull here: a few
// static binaries (the sandbox's pause, busybox, agnhost, csi-provisioner,
// the sidecar stand-ins) in one layer.
type testImage struct {
	refs       []string          // the names the kubelet or the e2e suite ask for
	files      map[string]string // path in the image -> file on the host
	links      map[string]string // path in the image -> link target
	entrypoint []string
	user       string
}

// write builds the image and writes it as an archive `ctr import` takes.
func (im testImage) write(out string) error {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	// Reproducible: fixed times, sorted names, root-owned.
	epoch := time.Unix(0, 0)
	dirs := map[string]bool{"tmp": true}
	var names []string
	for p := range im.files {
		names = append(names, p)
	}
	for p := range im.links {
		names = append(names, p)
	}
	for _, p := range names {
		for d := path.Dir(strings.TrimPrefix(p, "/")); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var dirList []string
	for d := range dirs {
		dirList = append(dirList, d)
	}
	sort.Strings(dirList)
	for _, d := range dirList {
		mode := int64(0o755)
		if d == "tmp" {
			mode = 0o1777
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: mode, ModTime: epoch}); err != nil {
			return err
		}
	}
	sort.Strings(names)
	for _, p := range names {
		rel := strings.TrimPrefix(p, "/")
		if target, ok := im.links[p]; ok {
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: rel, Linkname: target, Mode: 0o777, ModTime: epoch}); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(im.files[p])
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: 0o755, Size: int64(len(b)), ModTime: epoch}); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	layerBytes := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerBytes)), nil
	})
	if err != nil {
		return err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", "amd64"
	cf.Created = v1.Time{Time: epoch}
	cf.Config.Entrypoint = im.entrypoint
	cf.Config.User = im.user
	cf.Config.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return err
	}
	refs := map[name.Reference]v1.Image{}
	for _, r := range im.refs {
		tag, err := name.NewTag(r)
		if err != nil {
			return err
		}
		refs[tag] = img
	}
	return tarball.MultiRefWriteToFile(out, refs)
}

// busyboxLinks lists the applets of the static busybox at bin, each as a
// link in /bin, as the busybox images have them.
func busyboxLinks(bin string) (map[string]string, error) {
	out, err := exec.Command(bin, "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list: %w", bin, err)
	}
	links := map[string]string{}
	for _, a := range strings.Fields(string(out)) {
		if a != "busybox" {
			links["/bin/"+a] = "busybox"
		}
	}
	return links, nil
}
