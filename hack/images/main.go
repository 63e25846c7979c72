// Command images builds fileshare-csi's Linux images without a container
// engine or a registry: the controller image (the static binary alone) and
// the node image (the binary on a minimal Debian root with mount.nfs and
// mount.cifs), for linux/amd64, linux/arm64 and linux/arm/v7.
//
//	go run ./hack/images build [-arches amd64,arm64,arm/v7] [-tag v0.1.0] [-out bin/images] [-push ghcr.io/owner]
//	go run ./hack/images lock     # re-pin linux/node-packages.lock
//
// Debian packages are pinned by linux/node-packages.lock, downloaded from
// Debian's archive with a private apt state, checked against their SHA-256
// and unpacked without running any maintainer script, so foreign
// architectures need no emulator. Times and ordering are fixed: the same
// inputs give the same digests. `make images` and `make images-lock` run it.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/fileshare-csi/fileshare-csi/hack/gobuild"
)

const (
	specFile = "linux/node-packages"
	lockFile = "linux/node-packages.lock"
)

// mountHelpers must be in the node image: mount-utils runs mount and umount,
// which run the helpers; NFSv3 mounts also read the RPC transports
// (netconfig) and protocol names (protocols).
var mountHelpers = []string{"sbin/mount.nfs", "sbin/mount.cifs", "bin/mount", "bin/umount", "etc/netconfig", "etc/protocols"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("images: ")
	if len(os.Args) < 2 {
		log.Fatal("usage: images build|lock [flags]")
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	arches := fs.String("arches", "amd64,arm64,arm/v7", "platforms to build, comma-separated")
	tag := fs.String("tag", "v0.1.0", "image tag (the manifests' tag by default)")
	out := fs.String("out", "bin/images", "output directory")
	cache := fs.String("cache", defaultCache(), "download and root file system cache")
	push := fs.String("push", "", "registry prefix to push the multi-platform images to, e.g. ghcr.io/fileshare-csi")
	repin := fs.Bool("repin-missing", false, "for tests: when the archive no longer serves a pinned package, build from the archive's current versions (with a warning) instead of failing; releases leave it off")
	_ = fs.Parse(os.Args[2:])
	repo, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	var list []string
	for _, a := range strings.Split(*arches, ",") {
		if _, ok := platforms[a]; !ok {
			log.Fatalf("unknown platform %q (amd64, arm64, arm/v7)", a)
		}
		list = append(list, a)
	}
	switch os.Args[1] {
	case "build":
		err = build(ctx, repo, *cache, *out, *tag, *push, list, *repin)
	case "lock":
		err = lock(ctx, repo, *cache, list)
	default:
		err = fmt.Errorf("unknown command %q (build, lock)", os.Args[1])
	}
	if err != nil {
		log.Fatal(err)
	}
}

func defaultCache() string {
	d := "/var/cache/fileshare-csi-images"
	if err := os.MkdirAll(d, 0o755); err == nil {
		if f, err := os.CreateTemp(d, ".w"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return d
		}
	}
	home, _ := os.UserCacheDir()
	return filepath.Join(home, "fileshare-csi-images")
}

// lock resolves linux/node-packages for each platform and writes the pins.
func lock(ctx context.Context, repo, cache string, arches []string) error {
	spec, err := readPackageSpec(filepath.Join(repo, specFile))
	if err != nil {
		return err
	}
	pins := map[string][]lockedPackage{}
	for _, a := range arches {
		p := platforms[a]
		if pins[p.debian], err = currentPins(ctx, cache, p.debian, spec); err != nil {
			return err
		}
		log.Printf("%s: %d packages", p.debian, len(pins[p.debian]))
	}
	return writeLock(filepath.Join(repo, lockFile), pins)
}

// currentPins resolves spec for one Debian architecture from the
// archive's package lists of today.
func currentPins(ctx context.Context, cache, arch string, spec packageSpec) ([]lockedPackage, error) {
	ap, err := newApt(cache, arch)
	if err != nil {
		return nil, err
	}
	if err := ap.update(ctx); err != nil {
		return nil, err
	}
	pkgs, err := ap.resolve(ctx, spec.want)
	if err != nil {
		return nil, err
	}
	var kept [][2]string
	for _, pkg := range pkgs {
		if !spec.excluded(pkg[0]) {
			kept = append(kept, pkg)
		}
	}
	sums, err := ap.sha256s(ctx, kept)
	if err != nil {
		return nil, err
	}
	var pins []lockedPackage
	for i, pkg := range kept {
		pins = append(pins, lockedPackage{Arch: arch, Name: pkg[0], Version: pkg[1], SHA256: sums[i]})
	}
	return pins, nil
}

// repinned answers what a test build uses when the archive no longer
// serves a pin (Debian's pool keeps one version of a package: a point
// release or a security update removes the one before). The release build
// fails instead, so that new pins are a commit someone reviewed; a test
// run would otherwise fail on a day's archive change, not on our code.
func repinned(ctx context.Context, repo, cache, arch string, missing error) ([]lockedPackage, error) {
	spec, err := readPackageSpec(filepath.Join(repo, specFile))
	if err != nil {
		return nil, err
	}
	log.Printf("WARNING: %v\nWARNING: this test build uses the archive's current %s packages instead; run `make images-lock` and commit the lock", missing, arch)
	return currentPins(ctx, cache, arch, spec)
}

func build(ctx context.Context, repo, cache, out, tag, push string, arches []string, repin bool) error {
	locks, err := readLock(filepath.Join(repo, lockFile))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	nodes, controllers := map[string]v1.Image{}, map[string]v1.Image{}
	for _, a := range arches {
		start := time.Now()
		p := platforms[a]
		root, err := nodeRoot(ctx, cache, p, locks[p.debian])
		if errors.Is(err, errNotServed) && repin {
			var pins []lockedPackage
			if pins, err = repinned(ctx, repo, cache, p.debian, err); err == nil {
				root, err = nodeRoot(ctx, cache, p, pins)
			}
		}
		if err != nil {
			return err
		}
		bin := filepath.Join(out, "bin", p.tagPart, "fileshare-csi")
		// Static, so the same binary runs on the Debian root and on the
		// empty controller image.
		if err := gobuild.Driver(ctx, repo, bin, tag, gobuild.Target{GOOS: "linux", GOARCH: p.goarch, GOARM: p.goarm}); err != nil {
			return err
		}
		binLayer, err := binaryLayer(bin)
		if err != nil {
			return err
		}
		base, err := controllerBase()
		if err != nil {
			return err
		}
		if nodes[a], err = assemble(nodeImage, p, tag, root, binLayer); err != nil {
			return err
		}
		if controllers[a], err = assemble(controllerImage, p, tag, base, binLayer); err != nil {
			return err
		}
		for _, k := range []struct {
			kind imageKind
			img  v1.Image
		}{{nodeImage, nodes[a]}, {controllerImage, controllers[a]}} {
			file := filepath.Join(out, fmt.Sprintf("fileshare-csi-%s-linux-%s.tar", k.kind.name, p.tagPart))
			if err := writeArchive(file, k.kind, tag, k.img); err != nil {
				return err
			}
			d, _ := k.img.Digest()
			fi, _ := os.Stat(file)
			log.Printf("%s %s:%s (%s) %s, %d MB", p.tagPart, k.kind.repo, tag, d.String()[:19], file, fi.Size()>>20)
		}
		log.Printf("%s built in %s", p.tagPart, time.Since(start).Round(time.Second))
	}
	for _, k := range []struct {
		kind imageKind
		imgs map[string]v1.Image
	}{{nodeImage, nodes}, {controllerImage, controllers}} {
		idx := index(k.imgs, arches)
		dir := filepath.Join(out, "oci", "fileshare-csi-"+k.kind.name)
		if err := writeLayout(dir, idx); err != nil {
			return err
		}
		if push != "" {
			ref, err := name.NewTag(strings.TrimSuffix(push, "/") + "/" + filepath.Base(k.kind.repo) + ":" + tag)
			if err != nil {
				return err
			}
			if err := remote.WriteIndex(ref, idx, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
				return fmt.Errorf("push %s: %w", ref, err)
			}
			log.Printf("pushed %s", ref)
		}
	}
	return nil
}

// nodeRoot gives the node image's Debian layer for p: made once from the
// pinned packages and kept in the cache under the pins' hash.
func nodeRoot(ctx context.Context, cache string, p platform, pkgs []lockedPackage) (v1.Layer, error) {
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s pins no packages for %s: run `make images-lock`", lockFile, p.debian)
	}
	h := sha256.New()
	for _, pkg := range pkgs {
		fmt.Fprintln(h, pkg.Name, pkg.Version, pkg.SHA256)
	}
	fmt.Fprintln(h, rootRecipe)
	cached := filepath.Join(cache, "rootfs", p.debian+"-"+hex.EncodeToString(h.Sum(nil))[:16]+".tar")
	if b, err := os.ReadFile(cached); err == nil {
		return layerFromTar(b)
	}
	ap, err := newApt(cache, p.debian)
	if err != nil {
		return nil, err
	}
	root := rootfs{}
	sorted := append([]lockedPackage(nil), pkgs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, pkg := range sorted {
		deb, err := ap.fetch(ctx, pkg)
		if err != nil {
			return nil, err
		}
		if err := root.addDeb(ctx, deb); err != nil {
			return nil, err
		}
	}
	root.baseFiles()
	for _, m := range mountHelpers {
		if !root.has(m) {
			return nil, fmt.Errorf("the %s root has no %s: check %s", p.debian, m, specFile)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(ensureDir(cached)), "rootfs-*.tar")
	if err != nil {
		return nil, err
	}
	if err := root.writeTar(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(f.Name(), cached); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(cached)
	if err != nil {
		return nil, err
	}
	return layerFromTar(b)
}

// rootRecipe changes when nodeRoot assembles roots differently, so cached
// roots from before are not reused.
const rootRecipe = "r1"

func ensureDir(file string) string {
	_ = os.MkdirAll(filepath.Dir(file), 0o755)
	return file
}

// controllerBase is the controller image's only layer beside the binary:
// the users the manifests run it as, and a /tmp.
func controllerBase() (v1.Layer, error) {
	r := rootfs{}
	r.addFile("etc/passwd", 0o644, "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n")
	r.addFile("etc/group", 0o644, "root:x:0:\nnonroot:x:65532:\n")
	r.addDir("tmp", 0o1777)
	var buf bytes.Buffer
	if err := r.writeTar(&buf); err != nil {
		return nil, err
	}
	return layerFromTar(buf.Bytes())
}
