package mounter

import (
	"context"
	"errors"
	"testing"
)

// A Windows node's staging and target paths are links the driver makes.
// Which links are the driver's is read from the links themselves: a
// staging link leads into a share (\\host\share\...), a publish link to a
// staging path. Anything else at those paths is not the driver's to
// remove or re-point, and a path the kubelet never writes (a UNC path,
// "..", a spelling Win32 takes for another name) is refused before the
// node is touched.

// mutating are the csi-proxy calls that change the node.
var mutating = map[string]bool{
	"Rmdir": true, "Mkdir": true, "CreateSymlink": true,
	"NewSmbGlobalMapping": true, "RemoveSmbGlobalMapping": true,
}

func TestWindowsRefusesPathsTheKubeletNeverWrites(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging, target := stagingPath("a"), targetPath("pod")
	kubeletPrepares(fake, staging, target)
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.ResetCalls()
	for _, bad := range []string{
		`\\fs\share\vol`,                            // a UNC path: the share itself
		`\\?\UNC\fs\share\vol`,                      // the same, long form
		`\\.\C:\var\lib\kubelet\x`,                  // a device path
		`var\lib\kubelet\x`,                         // relative
		`C:var\lib\kubelet\x`,                       // relative to drive C's current directory
		driverDir + `\a\..\..\..\..\..\Windows`,     // ".." out of the kubelet's directory
		driverDir + `\a\.\globalmount`,              // "."
		staging + `.`,                               // Win32 drops trailing periods: staging
		staging + ` `,                               // and trailing spaces
		driverDir + `\a. \globalmount`,              // in any component
		staging + `::$INDEX_ALLOCATION`,             // the directory's own stream: staging
		staging + `:ads`,                            // an alternate data stream
		driverDir + `\a\GLOBAL~1`,                   // an 8.3 short name of globalmount
		`c:/var/lib/kubelet/pods/x/mount`,           // slashes: not the kubelet's spelling
		staging + `\`,                               // a trailing separator
		`\\?\` + staging,                            // the long-path prefix
		`c:\var\lib\kubelet\\plugins\x\globalmount`, // a doubled separator
	} {
		for name, op := range map[string]func() error{
			"stage":        func() error { return w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", bad)) },
			"unstage":      func() error { return w.Unstage(ctx, bad) },
			"publish to":   func() error { return w.Publish(ctx, staging, bad, false) },
			"publish from": func() error { return w.Publish(ctx, bad, target, false) },
			"unpublish":    func() error { return w.Unpublish(ctx, bad) },
		} {
			if err := op(); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s %q: %v, want ErrInvalid", name, bad, err)
			}
			for _, c := range fake.Calls() {
				if mutating[c.Method] {
					t.Errorf("%s %q: csi-proxy %s{%v}", name, bad, c.Method, c.Request)
				}
			}
			fake.ResetCalls()
		}
	}
	// The kubelet's own spelling, rooted without a drive (its default
	// root directory, /var/lib/kubelet, on Windows), is not refused here.
	if err := checkWindowsPath("staging path", `\var\lib\kubelet\plugins\kubernetes.io\csi\d\0a1b\globalmount`); err != nil {
		t.Errorf("a rooted path: %v", err)
	}
	if err := checkWindowsPath("target path", `C:\var\lib\kubelet\pods\u\volumes\kubernetes.io~csi\pvc-1\mount`); err != nil {
		t.Errorf("a target path: %v", err)
	}
}

// A link at the staging path that does not lead into a share is no
// staging link (a stage makes none such): a stage does not replace it
// (that took a pod's target link, when its staging did not answer, and
// pointed it at this volume's share), and an unstage does not remove it.
func TestWindowsStageAndUnstageLeaveLinksTheyDidNotMake(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	fake.Mkdir(driverDir + `\a`)
	// A link to a directory that is not there: it does not "work", which
	// made the stage take it for a staging link whose mapping is gone.
	if err := w.host.CreateSymlink(ctx, staging, `c:\gone`); err != nil {
		t.Fatal(err)
	}
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); !errors.Is(err, ErrInvalid) {
		t.Errorf("stage over a link to c:\\gone: %v, want ErrInvalid", err)
	}
	if got, ok := fake.Link(staging); !ok || got != `c:\gone` {
		t.Errorf("the link now leads to %q (%v)", got, ok)
	}
	if err := w.Unstage(ctx, staging); !errors.Is(err, ErrInvalid) {
		t.Errorf("unstage of a link to c:\\gone: %v, want ErrInvalid", err)
	}
	if got, ok := fake.Link(staging); !ok || got != `c:\gone` {
		t.Errorf("after the unstage the link leads to %q (%v)", got, ok)
	}
	if m := fake.Mappings(); len(m) != 0 {
		t.Errorf("mappings %+v", m)
	}
}

// A publish replaces the kubelet's empty directory, or a link to a staging
// path (the volume's, at a path an older kubelet used), but never a link
// straight into a share: that is a staging link, or an inline volume's,
// and re-pointed it showed its pods this volume's directory.
func TestWindowsPublishNeverReplacesALinkIntoAShare(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	a, b := stagingPath("a"), stagingPath("b")
	kubeletPrepares(fake, a, b)
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "va", a)); err != nil {
		t.Fatal(err)
	}
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vb", b)); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{a, b} {
		if err := w.Publish(ctx, b, target, false); !errors.Is(err, ErrInvalid) {
			t.Errorf("publish of %s at %s: %v, want ErrInvalid", b, target, err)
		}
	}
	for p, want := range map[string]string{a: `\\?\UNC\fs\share\va\`, b: `\\?\UNC\fs\share\vb\`} {
		if got, ok := fake.Link(p); !ok || got != want {
			t.Errorf("%s links to %q (%v), want %q", p, got, ok, want)
		}
	}
}
