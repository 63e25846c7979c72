package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// platform is one architecture the images are built for, in the names each
// tool uses.
type platform struct {
	oci     v1.Platform
	debian  string // Debian's architecture
	goarch  string
	goarm   string
	tagPart string // in file names: amd64, arm64, arm-v7
}

var platforms = map[string]platform{
	"amd64":  {oci: v1.Platform{OS: "linux", Architecture: "amd64"}, debian: "amd64", goarch: "amd64", tagPart: "amd64"},
	"arm64":  {oci: v1.Platform{OS: "linux", Architecture: "arm64"}, debian: "arm64", goarch: "arm64", tagPart: "arm64"},
	"arm/v7": {oci: v1.Platform{OS: "linux", Architecture: "arm", Variant: "v7"}, debian: "armhf", goarch: "arm", goarm: "7", tagPart: "arm-v7"},
}

// imageKind is one of the two images: what it holds beside the binary and
// how it starts. linux/Dockerfile's targets of the same names must agree
// (images_test.go checks).
type imageKind struct {
	name       string // node | controller
	repo       string // the manifests' image name, without the tag
	entrypoint []string
	title      string
}

var (
	nodeImage = imageKind{
		name: "node", repo: "ghcr.io/fileshare-csi/fileshare-csi",
		entrypoint: []string{"/fileshare-csi"},
		title:      "fileshare-csi",
	}
	controllerImage = imageKind{
		name: "controller", repo: "ghcr.io/fileshare-csi/fileshare-csi-controller",
		entrypoint: []string{"/fileshare-csi", "--mode=controller"},
		title:      "fileshare-csi controller",
	}
)

// binaryPath is where both images keep the driver.
const binaryPath = "/fileshare-csi"

// layerFromTar makes a layer from tar bytes.
func layerFromTar(b []byte) (v1.Layer, error) {
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	})
}

// binaryLayer holds the driver binary alone.
func binaryLayer(bin string) (v1.Layer, error) {
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: binaryPath[1:], Mode: 0o755, Size: int64(len(data)), ModTime: epoch}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(data); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return layerFromTar(buf.Bytes())
}

// assemble makes one image of kind for p from its layers.
func assemble(kind imageKind, p platform, version string, layers ...v1.Layer) (v1.Image, error) {
	img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layers...)
	if err != nil {
		return nil, err
	}
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture, cf.Variant = p.oci.OS, p.oci.Architecture, p.oci.Variant
	cf.Created = v1.Time{Time: epoch}
	cf.Config.Entrypoint = kind.entrypoint
	cf.Config.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
	cf.Config.Labels = map[string]string{
		"org.opencontainers.image.title":   kind.title,
		"org.opencontainers.image.source":  "https://github.com/fileshare-csi/fileshare-csi",
		"org.opencontainers.image.version": version,
	}
	return mutate.ConfigFile(img, cf)
}

// writeArchive writes one platform's image as an archive that `ctr images
// import`, `kind load image-archive` and the others take, under the
// manifests' name.
func writeArchive(out string, kind imageKind, tag string, img v1.Image) error {
	ref, err := name.NewTag(kind.repo + ":" + tag)
	if err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := tarball.WriteToFile(tmp, ref, img); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// index puts the platforms' images in one multi-platform index.
func index(imgs map[string]v1.Image, order []string) v1.ImageIndex {
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, a := range order {
		p := platforms[a].oci
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: imgs[a], Descriptor: v1.Descriptor{Platform: &p}})
	}
	return idx
}

// writeLayout writes the index as an OCI image layout directory (what
// `crane push`, skopeo and podman read).
func writeLayout(dir string, idx v1.ImageIndex) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	_, err := layout.Write(dir, idx)
	if err != nil {
		return fmt.Errorf("OCI layout %s: %w", dir, err)
	}
	return nil
}
