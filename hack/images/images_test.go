package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// dockerStage is what linux/Dockerfile says of one target.
type dockerStage struct {
	entrypoint []string
	binaryDest string // where COPY --from=builder puts /out/fileshare-csi
	lines      []string
}

func readDockerfile(t *testing.T) map[string]*dockerStage {
	t.Helper()
	f, err := os.Open("../../linux/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stages := map[string]*dockerStage{}
	var cur *dockerStage
	from := regexp.MustCompile(`^FROM .* AS (\w+)$`)
	copyBin := regexp.MustCompile(`^COPY --from=builder /out/fileshare-csi (\S+)$`)
	sc := bufio.NewScanner(f)
	var cont string
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			cont += strings.TrimSuffix(line, `\`) + " "
			continue
		}
		line, cont = cont+line, ""
		if m := from.FindStringSubmatch(line); m != nil {
			cur = &dockerStage{}
			stages[m[1]] = cur
			continue
		}
		if cur == nil {
			continue
		}
		cur.lines = append(cur.lines, line)
		if m := copyBin.FindStringSubmatch(line); m != nil {
			cur.binaryDest = m[1]
		}
		if rest, ok := strings.CutPrefix(line, "ENTRYPOINT "); ok {
			if err := json.Unmarshal([]byte(rest), &cur.entrypoint); err != nil {
				t.Fatalf("ENTRYPOINT %s: %v", rest, err)
			}
		}
	}
	return stages
}

// linux/Dockerfile and the Go recipe must make the same images: the
// binary at the same path, the same entrypoints, and the node stage
// installing exactly the lock's packages.
func TestDockerfileAgreesWithTheRecipe(t *testing.T) {
	stages := readDockerfile(t)
	for _, k := range []imageKind{nodeImage, controllerImage} {
		s := stages[k.name]
		if s == nil {
			t.Fatalf("linux/Dockerfile has no %q target", k.name)
		}
		if s.binaryDest != binaryPath {
			t.Errorf("Dockerfile %s: binary copied to %q, the recipe puts it at %q", k.name, s.binaryDest, binaryPath)
		}
		if strings.Join(s.entrypoint, " ") != strings.Join(k.entrypoint, " ") {
			t.Errorf("Dockerfile %s: ENTRYPOINT %q, the recipe's is %q", k.name, s.entrypoint, k.entrypoint)
		}
	}
	node := strings.Join(stages["node"].lines, "\n")
	for _, want := range []string{
		"COPY linux/node-packages.lock ",
		`awk -v a="$arch" '$1 == a { print $2 "=" $3 }'`,
		"apt-get install -y --no-install-recommends --allow-downgrades $pins",
	} {
		if !strings.Contains(node, want) {
			t.Errorf("the Dockerfile's node stage no longer installs the lock's pins: %q is missing", want)
		}
	}
	if regexp.MustCompile(`apt-get install[^\n]*\b(nfs-common|cifs-utils)\b`).MatchString(node) {
		t.Errorf("the Dockerfile's node stage names packages of its own; it must install the lock's pins only")
	}
	ign, err := os.ReadFile("../../linux/Dockerfile.dockerignore")
	if err != nil || !strings.Contains(string(ign), "!linux/node-packages.lock") {
		t.Errorf("linux/Dockerfile.dockerignore must let the lock into the build context (%v)", err)
	}
}

// The lock pins every package of linux/node-packages for every platform,
// and no excluded one.
func TestLockCoversEveryPlatform(t *testing.T) {
	spec, err := readPackageSpec("../../" + specFile)
	if err != nil {
		t.Fatal(err)
	}
	locks, err := readLock("../../" + lockFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range platforms {
		names := map[string]bool{}
		for _, l := range locks[p.debian] {
			names[l.Name] = true
		}
		for _, w := range spec.want {
			if !names[w] {
				t.Errorf("%s pins no %s for %s", lockFile, w, p.debian)
			}
		}
		for _, e := range spec.exclude {
			if names[e] {
				t.Errorf("%s pins %s for %s, which %s excludes", lockFile, e, p.debian, specFile)
			}
		}
	}
}

// The files the Dockerfile's apt-get gives the mount helpers are the files
// the recipe's root has: both come from the same pinned packages, which the
// recipe unpacks. Needs Debian's archive (the packages are cached after the
// first run).
func TestNodeRootHasTheHelpersAndTheirFiles(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb is not installed")
	}
	if testing.Short() {
		t.Skip("downloads Debian packages")
	}
	locks, err := readLock("../../" + lockFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cache := defaultCache()
	ap, err := newApt(cache, "amd64")
	if err != nil {
		t.Fatal(err)
	}
	// The check holds for any version of the packages: when the archive
	// has moved past the pins, it is made with its current ones (what
	// `make images` does for the test suites with -repin-missing).
	pins := locks["amd64"]
	helpers, err := helperFiles(ctx, ap, pins)
	if errors.Is(err, errNotServed) {
		if pins, err = repinned(ctx, "../..", cache, "amd64", err); err != nil {
			t.Fatal(err)
		}
		helpers, err = helperFiles(ctx, ap, pins)
	}
	if err != nil {
		t.Fatal(err)
	}
	layer, err := nodeRoot(ctx, cache, platforms["amd64"], pins)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := layer.Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(rc); err != nil {
		t.Fatal(err)
	}
	inRoot, err := tarNames(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range inRoot {
		have[n] = true
	}
	sort.Strings(helpers)
	for _, h := range append(helpers, mountHelpers...) {
		if !have[h] {
			t.Errorf("the recipe's node root lacks %s, which the Dockerfile's packages install", h)
		}
	}
	if len(helpers) < 4 {
		t.Errorf("found only %v in the helper packages", helpers)
	}
}

// helperFiles lists the programs the packages that ship the mount helpers
// install, from the pinned packages.
func helperFiles(ctx context.Context, ap *apt, pins []lockedPackage) ([]string, error) {
	var helpers []string
	for _, pkg := range pins {
		if pkg.Name != "nfs-common" && pkg.Name != "cifs-utils" && pkg.Name != "mount" {
			continue
		}
		deb, err := ap.fetch(ctx, pkg)
		if err != nil {
			return nil, err
		}
		out, err := exec.Command("dpkg-deb", "--fsys-tarfile", deb).Output()
		if err != nil {
			return nil, err
		}
		names, err := tarNames(out)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if regexp.MustCompile(`^(s?bin|usr/s?bin)/`).MatchString(n) {
				helpers = append(helpers, n)
			}
		}
	}
	return helpers, nil
}

// Two builds from the same inputs give the same bytes.
func TestImagesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fileshare-csi")
	if err := os.WriteFile(bin, []byte("\x7fELF not really"), 0o755); err != nil {
		t.Fatal(err)
	}
	var digests []string
	for range 2 {
		l, err := binaryLayer(bin)
		if err != nil {
			t.Fatal(err)
		}
		base, err := controllerBase()
		if err != nil {
			t.Fatal(err)
		}
		img, err := assemble(controllerImage, platforms["arm/v7"], "v0", base, l)
		if err != nil {
			t.Fatal(err)
		}
		d, err := img.Digest()
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d.String())
	}
	if digests[0] != digests[1] {
		t.Errorf("two builds of the same controller image: %v", digests)
	}
	// A root assembled twice from the same files, in another order.
	roots := [2]rootfs{{}, {}}
	files := []string{"usr/sbin/a", "etc/b", "usr/lib/c/d"}
	for i, r := range roots {
		for j := range files {
			f := files[(j+i)%len(files)]
			r.addFile(f, 0o644, "content of "+f)
		}
		r.baseFiles()
	}
	var a, b bytes.Buffer
	if err := roots[0].writeTar(&a); err != nil {
		t.Fatal(err)
	}
	if err := roots[1].writeTar(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same files in another order give another layer")
	}
}

// A pin the archive no longer serves is errNotServed, which a test build
// (-repin-missing) answers with the archive's current versions. Needs
// Debian's archive.
func TestAPinNoLongerServedIsRepinned(t *testing.T) {
	if testing.Short() {
		t.Skip("reads Debian's archive")
	}
	ctx := context.Background()
	cache := defaultCache()
	ap, err := newApt(cache, "amd64")
	if err != nil {
		t.Fatal(err)
	}
	gone := lockedPackage{Arch: "amd64", Name: "mount", Version: "2.0-gone", SHA256: strings.Repeat("0", 64)}
	_, err = ap.download(ctx, gone)
	if !errors.Is(err, errNotServed) || !strings.Contains(err.Error(), "make images-lock") {
		t.Fatalf("download of a version the archive lacks: %v, want errNotServed naming make images-lock", err)
	}
	pins, err := repinned(ctx, "../..", cache, "amd64", err)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pins {
		if p.Name == "mount" {
			if p.Version == gone.Version || len(p.SHA256) != 64 {
				t.Fatalf("repinned mount as %+v", p)
			}
			return
		}
	}
	t.Fatalf("the current pins have no mount: %v", pins)
}
