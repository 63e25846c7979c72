// Command gobuild is hack/gobuild for scripts and the Makefile: the same
// recipe the images and the Go test harnesses build with, so `make build`,
// `make demo`, `make bench` and `make test-vm` run the driver the images
// ship. Run it from the repository's root:
//
//	go run ./hack/gobuild/cmd -o bin/fileshare-csi [-version V]   # the driver
//	go run ./hack/gobuild/cmd -o OUT ./test/demo                   # another program
//
// With no package it builds the driver, stamped with -version (default: the
// checkout's `git describe`, as `make build` stamps it); -goos, -goarch and
// -goarm pick another target (default: the host, whatever GOOS and GOARCH
// say, as in the package).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/fileshare-csi/fileshare-csi/hack/gobuild"
)

func main() {
	out := flag.String("o", "", "output file (required)")
	version := flag.String("version", "", "the driver's version (default: git describe of the checkout)")
	var t gobuild.Target
	flag.StringVar(&t.GOOS, "goos", "", "target GOOS (default: the host's)")
	flag.StringVar(&t.GOARCH, "goarch", "", "target GOARCH (default: the host's)")
	flag.StringVar(&t.GOARM, "goarm", "", "target GOARM, for -goarch arm")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./hack/gobuild/cmd -o OUT [flags] [PACKAGE]\n"+
			"Builds PACKAGE (default %s, the driver) with the project's one recipe.\n", gobuild.DriverPackage)
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(context.Background(), *out, *version, flag.Arg(0), t); err != nil {
		fmt.Fprintln(os.Stderr, "gobuild:", err)
		os.Exit(1)
	}
}

// run builds pkg (the driver when empty or the driver's package) into out.
// Only the driver takes a version: the other programs print none.
func run(ctx context.Context, out, version, pkg string, t gobuild.Target) error {
	const repo = "."
	if pkg != "" && pkg != gobuild.DriverPackage {
		if version != "" {
			return fmt.Errorf("-version is for the driver, not %s", pkg)
		}
		return gobuild.Program(ctx, repo, pkg, out, t)
	}
	if version == "" {
		version = gobuild.Describe(ctx, repo)
	}
	return gobuild.Driver(ctx, repo, out, version, t)
}
