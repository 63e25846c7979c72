package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// The node image's packages, in linux/node-packages: the packages the node
// plugin runs (one per line), and "exclude" lines for packages their
// dependencies pull in that the image never runs. linux/node-packages.lock
// pins the whole closure, per architecture, with each file's SHA-256: the
// Go recipe (make images) and linux/Dockerfile both install exactly that.

// packageSpec is linux/node-packages.
type packageSpec struct {
	want, exclude []string
}

func readPackageSpec(path string) (packageSpec, error) {
	f, err := os.Open(path)
	if err != nil {
		return packageSpec{}, err
	}
	defer f.Close()
	var s packageSpec
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "exclude" && len(f) == 2:
			s.exclude = append(s.exclude, f[1])
		case len(f) == 1:
			s.want = append(s.want, f[0])
		default:
			return s, fmt.Errorf("%s: cannot read %q", path, sc.Text())
		}
	}
	return s, sc.Err()
}

func (s packageSpec) excluded(name string) bool {
	for _, e := range s.exclude {
		if e == name {
			return true
		}
	}
	return false
}

// lockedPackage is one line of the lock.
type lockedPackage struct {
	Arch, Name, Version, SHA256 string
}

// fileName is where the package is kept in the download cache.
func (p lockedPackage) fileName() string {
	return fmt.Sprintf("%s_%s_%s_%s.deb", p.Name, strings.ReplaceAll(p.Version, ":", "%3a"), p.Arch, p.SHA256[:12])
}

func readLock(path string) (map[string][]lockedPackage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w (run `make images-lock` to make it)", err)
	}
	defer f.Close()
	out := map[string][]lockedPackage{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 || len(f[3]) != 64 {
			return nil, fmt.Errorf("%s: want `arch package version sha256`, got %q", path, sc.Text())
		}
		out[f[0]] = append(out[f[0]], lockedPackage{Arch: f[0], Name: f[1], Version: f[2], SHA256: f[3]})
	}
	return out, sc.Err()
}

func writeLock(path string, pkgs map[string][]lockedPackage) error {
	var b strings.Builder
	b.WriteString("# The node image's Debian packages, pinned: arch package version sha256.\n")
	b.WriteString("# Made by `make images-lock` from linux/node-packages; read by `make images`\n")
	b.WriteString("# (hack/images) and linux/Dockerfile. Do not edit by hand.\n")
	var arches []string
	for a := range pkgs {
		arches = append(arches, a)
	}
	sort.Strings(arches)
	for _, a := range arches {
		list := append([]lockedPackage(nil), pkgs[a]...)
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		for _, p := range list {
			fmt.Fprintf(&b, "%s %s %s %s\n", p.Arch, p.Name, p.Version, p.SHA256)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func fileHasSHA256(path, want string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == want, nil
}
