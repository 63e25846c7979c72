package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// debianSources are where the node image's packages come from: Debian
// bookworm with its updates and security fixes, checked against the archive
// keyring the host already trusts.
var debianSources = []string{
	"http://deb.debian.org/debian bookworm main",
	"http://deb.debian.org/debian bookworm-updates main",
	"http://deb.debian.org/debian-security bookworm-security main",
}

// apt runs apt-get and apt-cache with a private state of their own for one
// architecture: its own sources, package lists, download cache and an empty
// dpkg status (so every dependency counts, and nothing of the host's is read
// or changed). Foreign architectures need nothing more: packages are only
// downloaded and unpacked, never configured.
type apt struct {
	dir     string // cache directory for this architecture
	arch    string // Debian's name: amd64, arm64, armhf
	updated bool   // the package lists were fetched by this apt
}

func newApt(cache, arch string) (*apt, error) {
	a := &apt{dir: filepath.Join(cache, "apt-"+arch), arch: arch}
	for _, d := range []string{"etc", "lists/partial", "archives/partial", "debs"} {
		if err := os.MkdirAll(filepath.Join(a.dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	var src strings.Builder
	for _, s := range debianSources {
		fmt.Fprintf(&src, "deb [arch=%s signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s\n", arch, s)
	}
	if err := os.WriteFile(filepath.Join(a.dir, "etc/sources.list"), []byte(src.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(a.dir, "status"), nil, 0o644); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *apt) options() []string {
	d := a.dir
	return []string{
		"-o", "Dir::Etc::SourceList=" + d + "/etc/sources.list",
		"-o", "Dir::Etc::SourceParts=" + d + "/etc/none",
		"-o", "Dir::Etc::Preferences=" + d + "/etc/none",
		"-o", "Dir::Etc::PreferencesParts=" + d + "/etc/none",
		"-o", "Dir::State=" + d,
		"-o", "Dir::State::Lists=" + d + "/lists",
		"-o", "Dir::State::status=" + d + "/status",
		"-o", "Dir::Cache=" + d,
		"-o", "Dir::Cache::Archives=" + d + "/archives",
		"-o", "APT::Architecture=" + a.arch,
		"-o", "APT::Architectures=" + a.arch,
		"-o", "APT::Install-Recommends=false",
		"-o", "Debug::NoLocking=1",
		// Index files by their hash: a mirror in the middle of a sync
		// then serves matching files, not "unexpected size" errors.
		"-o", "Acquire::By-Hash=force",
		"-o", "Acquire::Retries=3",
		// Downloads land in a root-owned cache; apt's sandbox user could
		// not write there.
		"-o", "APT::Sandbox::User=root",
	}
}

func (a *apt) run(ctx context.Context, dir, tool string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, tool, append(a.options(), args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s (%s): %w: %s", tool, strings.Join(args, " "), a.arch, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// update fetches the package lists; apt-get update fails as a whole when
// one index is caught mid-sync, so it is tried again.
func (a *apt) update(ctx context.Context) error {
	var err error
	for i := range 4 {
		if _, err = a.run(ctx, a.dir, "apt-get", "-qq", "update"); err == nil {
			a.updated = true
			return nil
		}
		if i == 3 && strings.Contains(err.Error(), "Some index files failed to download") && a.haveMainIndex() {
			// A mirror stuck mid-sync on one index (seen here: bookworm-security
			// for armhf): go on with what was read, and say plainly that those
			// pins may lack the latest fixes.
			log.Printf("WARNING: %s: %v\nGoing on with the indexes that were read; pins made now may lack that index's updates: run `make images-lock` again later.", a.arch, err)
			a.updated = true
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(i+1) * 3 * time.Second):
		}
	}
	return err
}

var instLine = regexp.MustCompile(`^Inst (\S+) \((\S+) `)

func (a *apt) haveMainIndex() bool {
	m, _ := filepath.Glob(filepath.Join(a.dir, "lists", "*_debian_dists_bookworm_main_binary-"+a.arch+"_Packages*"))
	return len(m) > 0
}

// resolve answers the packages (name and version) that installing want on
// an empty system takes: the dependency closure, without recommends.
func (a *apt) resolve(ctx context.Context, want []string) ([][2]string, error) {
	out, err := a.run(ctx, a.dir, "apt-get", append([]string{"-s", "install"}, want...)...)
	if err != nil {
		return nil, err
	}
	var pkgs [][2]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if m := instLine.FindStringSubmatch(sc.Text()); m != nil {
			pkgs = append(pkgs, [2]string{m[1], m[2]})
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("apt-get resolved nothing for %v (%s)", want, a.arch)
	}
	return pkgs, nil
}

// sha256s answers the archive's SHA-256 of each package version (name and
// version pairs), in one apt-cache call: one per package took most of a
// minute for the node image's 84.
func (a *apt) sha256s(ctx context.Context, pkgs [][2]string) ([]string, error) {
	args := []string{"show"}
	for _, p := range pkgs {
		args = append(args, p[0]+":"+a.arch+"="+p[1])
	}
	out, err := a.run(ctx, a.dir, "apt-cache", args...)
	if err != nil {
		return nil, err
	}
	sums := map[[2]string]string{}
	var name, version string
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "Package: "):
			name, version = strings.TrimSpace(strings.TrimPrefix(l, "Package: ")), ""
		case strings.HasPrefix(l, "Version: "):
			version = strings.TrimSpace(strings.TrimPrefix(l, "Version: "))
		case strings.HasPrefix(l, "SHA256: "):
			sums[[2]string{name, version}] = strings.TrimSpace(strings.TrimPrefix(l, "SHA256: "))
		}
	}
	var res []string
	for _, p := range pkgs {
		sum, ok := sums[p]
		if !ok {
			return nil, fmt.Errorf("no SHA256 for %s %s (%s)", p[0], p[1], a.arch)
		}
		res = append(res, sum)
	}
	return res, nil
}

// fetch is download, with the package lists fetched once (per apt) when a
// pin is not found: they may be missing or old.
func (a *apt) fetch(ctx context.Context, p lockedPackage) (string, error) {
	deb, err := a.download(ctx, p)
	if err != nil && !a.updated {
		if uerr := a.update(ctx); uerr != nil {
			return "", uerr
		}
		deb, err = a.download(ctx, p)
	}
	return deb, err
}

// errNotServed is download's error for a pin apt cannot fetch.
var errNotServed = errors.New("a pinned package is not served")

// download fetches one pinned package into the cache (once) and returns
// its path.
func (a *apt) download(ctx context.Context, p lockedPackage) (string, error) {
	dir := filepath.Join(a.dir, "debs")
	want := filepath.Join(dir, p.fileName())
	if ok, err := fileHasSHA256(want, p.SHA256); err == nil && ok {
		return want, nil
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.partial"))
	for _, m := range matches {
		os.Remove(m)
	}
	if _, err := a.run(ctx, dir, "apt-get", "-qq", "download", p.Name+":"+a.arch+"="+p.Version); err != nil {
		return "", fmt.Errorf("%w: %w\n(the Debian archive no longer has %s %s for %s: after a security update, run `make images-lock` to pin the new versions)", errNotServed, err, p.Name, p.Version, a.arch)
	}
	// apt names the file with the version's epoch escaped.
	got, _ := filepath.Glob(filepath.Join(dir, p.Name+"_*.deb"))
	for _, g := range got {
		if ok, _ := fileHasSHA256(g, p.SHA256); ok {
			if g != want {
				if err := os.Rename(g, want); err != nil {
					return "", err
				}
			}
			return want, nil
		}
	}
	return "", fmt.Errorf("downloaded %s %s (%s), but no file has the pinned SHA-256 %s", p.Name, p.Version, a.arch, p.SHA256)
}
