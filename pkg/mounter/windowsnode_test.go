package mounter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	fsv1 "github.com/kubernetes-csi/csi-proxy/client/api/filesystem/v1"
	smbv1 "github.com/kubernetes-csi/csi-proxy/client/api/smb/v1"
	"google.golang.org/protobuf/proto"

	"github.com/fileshare-csi/fileshare-csi/pkg/os/csiproxy/csiproxytest"
	"github.com/fileshare-csi/fileshare-csi/pkg/os/winhost"
	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// These tests drive the Windows mounter through csi-proxy's generated gRPC
// clients against csiproxytest, a fake csi-proxy that keeps the node's
// mappings, directories and links in memory.

const (
	driverDir = `c:\var\lib\kubelet\plugins\kubernetes.io\csi\fileshare.csi.dev`
	podsDir   = `c:\var\lib\kubelet\pods`
)

// stagingPath is where the kubelet stages a volume: one directory per volume
// under the driver's directory.
func stagingPath(volume string) string {
	return driverDir + `\` + volume + `\globalmount`
}

func targetPath(pod string) string {
	return podsDir + `\` + pod + `\volumes\kubernetes.io~csi\pv\mount`
}

// kubeletPrepares creates the directories the kubelet creates before it
// calls NodeStageVolume and NodePublishVolume.
func kubeletPrepares(fake *csiproxytest.Server, paths ...string) {
	for _, p := range paths {
		fake.Mkdir(p)
	}
}

func smbRequest(t *testing.T, src, subDir, staging string) StageRequest {
	t.Helper()
	s, err := source.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return StageRequest{
		Source:      s,
		SubDir:      subDir,
		StagingPath: staging,
		Credentials: source.Credentials{Username: "alice", Password: "s3cret", Domain: "CORP"},
	}
}

func newWindowsUnderTest(t *testing.T) (*Windows, *csiproxytest.Server) {
	t.Helper()
	fake := csiproxytest.Start(t, driverDir, podsDir)
	return NewWindows(fake.NewClient(t)), fake
}

// wantCalls compares the csi-proxy calls since the last check with want,
// request by request, and forgets them.
func wantCalls(t *testing.T, fake *csiproxytest.Server, step string, want ...csiproxytest.Call) {
	t.Helper()
	got := fake.Calls()
	fake.ResetCalls()
	if len(got) != len(want) {
		t.Fatalf("%s: %d csi-proxy calls, want %d:\n got  %s\n want %s", step, len(got), len(want), callList(got), callList(want))
	}
	for i := range want {
		if got[i].Method != want[i].Method || !proto.Equal(got[i].Request, want[i].Request) {
			t.Fatalf("%s: call %d is %s, want %s", step, i, callList(got[i:i+1]), callList(want[i:i+1]))
		}
	}
}

func callList(calls []csiproxytest.Call) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, fmt.Sprintf("%s{%v}", c.Method, c.Request))
	}
	return strings.Join(parts, ", ")
}

func call(method string, req proto.Message) csiproxytest.Call {
	return csiproxytest.Call{Method: method, Request: req}
}

func TestWindowsStagePublishUnpublishUnstageMakeTheseCalls(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging, target := stagingPath("a1"), targetPath("pod1")
	kubeletPrepares(fake, staging, target)

	if err := w.Stage(ctx, smbRequest(t, "smb://fs.example.com/share/base", "ns/claim", staging)); err != nil {
		t.Fatal(err)
	}
	// No volume links into the share yet: a mapping of it would be one no
	// record vouches for, and goes before the new one (dropUnvouchedMapping).
	wantCalls(t, fake, "stage",
		call("Rmdir", &fsv1.RmdirRequest{Path: staging}),
		call("RemoveSmbGlobalMapping", &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: `\\fs.example.com\share`}),
		call("NewSmbGlobalMapping", &smbv1.NewSmbGlobalMappingRequest{
			RemotePath: `\\fs.example.com\share\base\ns\claim`,
			LocalPath:  staging,
			Username:   `CORP\alice`,
			Password:   "s3cret",
		}),
		call("IsSymlink", &fsv1.IsSymlinkRequest{Path: staging}),
	)
	if m := fake.Mappings(); len(m) != 1 || m[0].RemotePath != `\\fs.example.com\share` || m[0].Username != `CORP\alice` {
		t.Fatalf("mappings after stage: %+v, want one of \\\\fs.example.com\\share as CORP\\alice", m)
	}

	if err := w.Publish(ctx, staging, target, false); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "publish",
		call("IsSymlink", &fsv1.IsSymlinkRequest{Path: staging}),
		call("Rmdir", &fsv1.RmdirRequest{Path: target}),
		call("CreateSymlink", &fsv1.CreateSymlinkRequest{SourcePath: staging, TargetPath: target}),
	)
	if got, ok := fake.Link(target); !ok || got != staging {
		t.Fatalf("target links to %q (%v), want %q", got, ok, staging)
	}

	if err := w.Unpublish(ctx, target); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "unpublish", call("Rmdir", &fsv1.RmdirRequest{Path: target}))

	if err := w.Unstage(ctx, staging); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "unstage",
		call("Rmdir", &fsv1.RmdirRequest{Path: staging}),
		call("RemoveSmbGlobalMapping", &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: `\\fs.example.com\share`}),
	)
	if m := fake.Mappings(); len(m) != 0 {
		t.Fatalf("mappings after unstage: %+v, want none", m)
	}
	if fake.Exists(staging) || fake.Exists(target) {
		t.Fatal("staging or target path still there after unstage")
	}
}

func TestWindowsTwoVolumesOnOneShareShareOneMapping(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	a, b, other := stagingPath("a"), stagingPath("b"), stagingPath("c")
	for _, v := range []struct{ src, sub, staging string }{
		{"smb://fs/share/base", "vol-a", a},
		{"//FS/Share/base", "vol-b", b}, // same share, spelled differently
		{"smb://fs/other", "vol-c", other},
	} {
		if err := w.Stage(ctx, smbRequest(t, v.src, v.sub, v.staging)); err != nil {
			t.Fatal(err)
		}
	}
	if n := fake.MappingsCreated(); n != 2 {
		t.Fatalf("%d mappings made for two shares, want 2", n)
	}

	fake.ResetCalls()
	if err := w.Unstage(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "unstage of the first volume", call("Rmdir", &fsv1.RmdirRequest{Path: a}))
	if err := w.Check(ctx, b); err != nil {
		t.Fatalf("second volume broke when the first was unstaged: %v", err)
	}
	fake.ResetCalls()

	if err := w.Unstage(ctx, b); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "unstage of the second volume",
		call("Rmdir", &fsv1.RmdirRequest{Path: b}),
		// The share as the second volume's link spells it: mappings ignore case.
		call("RemoveSmbGlobalMapping", &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: `\\fs\Share`}),
	)
	if m := fake.Mappings(); len(m) != 1 || m[0].RemotePath != `\\fs\other` {
		t.Fatalf("mappings: %+v, want only \\\\fs\\other", m)
	}
}

// The reference count of a share comes from the staged links, so a plugin
// that restarted between stage and unstage removes mappings correctly.
func TestWindowsUnstageAfterPluginRestart(t *testing.T) {
	before, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	a, b := stagingPath("a"), stagingPath("b")
	kubeletPrepares(fake, a, b)
	for _, v := range []struct{ sub, staging string }{{"vol-a", a}, {"vol-b", b}} {
		if err := before.Stage(ctx, smbRequest(t, "smb://fs/share", v.sub, v.staging)); err != nil {
			t.Fatal(err)
		}
	}

	after := NewWindows(fake.NewClient(t))
	fake.ResetCalls()
	if err := after.Unstage(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "first unstage after restart", call("Rmdir", &fsv1.RmdirRequest{Path: a}))
	if len(fake.Mappings()) != 1 {
		t.Fatal("mapping removed while another volume still uses the share")
	}

	afterAgain := NewWindows(fake.NewClient(t))
	if err := afterAgain.Unstage(ctx, b); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "last unstage after another restart",
		call("Rmdir", &fsv1.RmdirRequest{Path: b}),
		call("RemoveSmbGlobalMapping", &smbv1.RemoveSmbGlobalMappingRequest{RemotePath: `\\fs\share`}),
	)
	if m := fake.Mappings(); len(m) != 0 {
		t.Fatalf("mappings: %+v, want none", m)
	}
}

func TestWindowsStageIsIdempotent(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	req := smbRequest(t, "smb://fs/share", "vol", staging)
	if err := w.Stage(ctx, req); err != nil {
		t.Fatal(err)
	}
	fake.ResetCalls()

	if err := NewWindows(fake.NewClient(t)).Stage(ctx, req); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "second stage", call("IsSymlink", &fsv1.IsSymlinkRequest{Path: staging}))
	if n := fake.MappingsCreated(); n != 1 {
		t.Fatalf("%d mappings made, want 1", n)
	}
}

// After a reboot the link is still there but the mapping is not; staging
// again replaces the link and maps the share again.
func TestWindowsStageRepairsALinkWhoseMappingIsGone(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	req := smbRequest(t, "smb://fs/share", "vol", staging)
	if err := w.Stage(ctx, req); err != nil {
		t.Fatal(err)
	}
	fake.ForgetMappings()
	if err := w.Check(ctx, staging); !errors.Is(err, ErrBroken) {
		t.Fatalf("Check of a link whose mapping is gone: %v, want a broken-mount error", err)
	}
	fake.ResetCalls()

	if err := w.Stage(ctx, req); err != nil {
		t.Fatal(err)
	}
	wantCalls(t, fake, "stage over a link whose mapping is gone",
		call("IsSymlink", &fsv1.IsSymlinkRequest{Path: staging}),
		call("NewSmbGlobalMapping", &smbv1.NewSmbGlobalMappingRequest{RemotePath: `\\fs\share\vol`, Username: `CORP\alice`, Password: "s3cret"}),
		call("IsSymlink", &fsv1.IsSymlinkRequest{Path: staging}),
	)
	if err := w.Check(ctx, staging); err != nil {
		t.Fatalf("after staging again: %v", err)
	}
	if n := fake.MappingsCreated(); n != 2 {
		t.Fatalf("%d mappings made, want 2", n)
	}
}

// Stats and publish repair a broken volume by staging it again. While the
// server is down that fails, and must not unstage the volume: the link
// stays, and staging once the server is back repairs it.
func TestWindowsFailedRepairKeepsTheVolumeStaged(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging, target := stagingPath("a"), targetPath("pod")
	req := smbRequest(t, "smb://fs/share", "vol", staging)
	if err := w.Stage(ctx, req); err != nil {
		t.Fatal(err)
	}
	if err := w.Publish(ctx, staging, target, false); err != nil {
		t.Fatal(err)
	}
	fake.SetServerDown(`\\fs\share`, true)
	if err := w.Stage(ctx, req); err == nil {
		t.Fatal("staging again while the server is down succeeded")
	}
	if got, ok := fake.Link(staging); !ok || !strings.Contains(got, `fs\share\vol`) {
		t.Fatalf("staging link after a failed repair: %q (%v), want it kept", got, ok)
	}
	fake.SetServerDown(`\\fs\share`, false)
	if err := w.Stage(ctx, req); err != nil {
		t.Fatalf("staging again once the server is back: %v", err)
	}
	if err := w.Check(ctx, target); err != nil {
		t.Fatalf("published path after the repair: %v", err)
	}
}

// A broken link to where the volume used to be (its source changed) is
// replaced by a link to where it is now.
func TestWindowsStageRelinksAVolumeWhoseSourceChanged(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	if err := w.Stage(ctx, smbRequest(t, "smb://old/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.SetServerDown(`\\old\share`, true)
	if err := w.Stage(ctx, smbRequest(t, "smb://new/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	if got, _ := fake.Link(staging); !strings.Contains(got, `new\share\vol`) {
		t.Fatalf("staging links to %q, want the new share", got)
	}
	// A working link elsewhere is not silently replaced.
	if err := w.Stage(ctx, smbRequest(t, "smb://third/share", "vol", staging)); err == nil || !strings.Contains(err.Error(), "unstage it first") {
		t.Fatalf("stage over a working link to another share: %v", err)
	}
}

func TestWindowsUnstageAndUnpublishOfMissingPathsSucceed(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	if err := w.Unstage(ctx, stagingPath("never-staged")); err != nil {
		t.Fatalf("Unstage: %v", err)
	}
	if err := w.Unpublish(ctx, targetPath("never-published")); err != nil {
		t.Fatalf("Unpublish: %v", err)
	}
	wantCalls(t, fake, "unstage and unpublish of paths that do not exist")
}

func TestWindowsRefusesWhatGlobalMappingsCannotDo(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	for _, tc := range []struct {
		src, want string
	}{
		{"nfs://fs/export", "NFS is Linux-only"},
		{"fs:/export/base", "NFS is Linux-only"},
		{"smb://fs:4450/share", "port 4450"},
	} {
		err := w.Stage(ctx, smbRequest(t, tc.src, "vol", stagingPath("x")))
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrUnsupported saying %q", tc.src, err, tc.want)
		}
	}
	if err := w.Stage(ctx, smbRequest(t, "smb://fs:445/share", "vol", stagingPath("y"))); err != nil {
		t.Errorf("explicit port 445: %v", err)
	}
	req := smbRequest(t, "smb://fs/share", "vol", stagingPath("z"))
	req.MountOptions = []string{"vers=3.0", "password=oops"}
	if err := w.Stage(ctx, req); err == nil || !strings.Contains(err.Error(), "node-stage secret") {
		t.Errorf("password in mount options: %v, want a refusal", err)
	}
	req = smbRequest(t, "smb://fs/share", "vol", stagingPath("z"))
	req.Credentials = source.Credentials{}
	if err := w.Stage(ctx, req); err == nil || !strings.Contains(err.Error(), "username and password") {
		t.Errorf("no credentials: %v, want a refusal", err)
	}
	for _, c := range fake.Calls() {
		if c.Method == "NewSmbGlobalMapping" && strings.Contains(c.Request.(*smbv1.NewSmbGlobalMappingRequest).GetRemotePath(), "4450") {
			t.Errorf("mapped a share on another port: %v", c.Request)
		}
	}
}

// The quickstart class's options (dir_mode, file_mode, mfsymlinks) and an
// SMB 3 dialect are accepted as no-ops on either kind of node; the mount
// group has no Windows counterpart and is ignored.
func TestWindowsQuickstartMountOptionsAreAccepted(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	req := smbRequest(t, "smb://fs/share", "vol", stagingPath("a"))
	req.MountOptions = []string{"dir_mode=0777", "file_mode=0777", "mfsymlinks", "vers=3.1.1,uid=1000,gid=1000"}
	req.MountGroup = "2000"
	if err := w.Stage(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if n := fake.MappingsCreated(); n != 1 {
		t.Fatalf("%d mappings, want 1", n)
	}
}

// Options that change behaviour and have no counterpart are refused with
// InvalidArgument (ErrInvalid), naming each and listing what the node
// takes, before anything is done on the node.
func TestWindowsRefusesMountOptionsItCannotHonour(t *testing.T) {
	for _, tc := range []struct {
		opts []string
		want []string
	}{
		{[]string{"nobrl"}, []string{`"nobrl"`, "byte-range locks"}},
		{[]string{"vers=2.1"}, []string{`"vers=2.1"`, "cannot pin"}},
		{[]string{"actimeo=0,dir_mode=0777"}, []string{`"actimeo=0"`, "FileInfoCacheLifetime"}},
		{[]string{"ro"}, []string{`"ro"`, "readOnly: true"}},
		{[]string{"fsc", "nosharesock"}, []string{`"fsc"`, `"nosharesock"`, "mount options"}},
		// csi-proxy cannot carry seal, sign or compress.
		{[]string{"seal"}, []string{`"seal"`, "csi-proxy's v1 API has no field", "HostProcess"}},
		{[]string{"sign"}, []string{`"sign"`, "csi-proxy's v1 API has no field"}},
	} {
		w, fake := newWindowsUnderTest(t)
		req := smbRequest(t, "smb://fs/share", "vol", stagingPath("a"))
		req.MountOptions = tc.opts
		err := w.Stage(context.Background(), req)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: %v, want ErrInvalid", tc.opts, err)
			continue
		}
		for _, want := range append(tc.want, "mfsymlinks", "dir_mode") {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%v: %q does not say %q", tc.opts, err, want)
			}
		}
		if n := len(fake.Calls()); n != 0 {
			t.Errorf("%v: %d csi-proxy calls before the refusal", tc.opts, n)
		}
	}
}

// On a node that can pass them (HostProcess), seal, sign and compress become
// the mapping's -RequirePrivacy, -RequireIntegrity and
// -CompressNetworkTraffic; seal overrides encryption: preferred and
// contradicts encryption: off.
func TestWindowsMountOptionsBecomeMappingSwitches(t *testing.T) {
	for _, tc := range []struct {
		src  string
		opts []string
		want winhost.MapOptions
		bad  string
	}{
		{"smb://fs/share?encryption=preferred", nil, winhost.MapOptions{}, ""},
		{"smb://fs/share?encryption=preferred", []string{"seal"}, winhost.MapOptions{RequirePrivacy: true}, ""},
		{"smb://fs/share", []string{"sign,compress"}, winhost.MapOptions{RequirePrivacy: true, RequireIntegrity: true, CompressNetworkTraffic: true}, ""},
		{"smb://fs/share?encryption=off", []string{"seal"}, winhost.MapOptions{}, "encryption: off"},
	} {
		req := smbRequest(t, tc.src, "v", stagingPath("v"))
		req.MountOptions = tc.opts
		m, _, err := windowsMapping(req, true)
		if tc.bad != "" {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%s %v: %v, want ErrInvalid saying %q", tc.src, tc.opts, err, tc.bad)
			}
			continue
		}
		if err != nil || m.opts != tc.want {
			t.Errorf("%s %v: %+v, %v; want %+v", tc.src, tc.opts, m.opts, err, tc.want)
		}
	}
}

func TestWindowsUsername(t *testing.T) {
	for _, tc := range []struct {
		creds source.Credentials
		want  string
	}{
		{source.Credentials{Username: "alice", Password: "p"}, "alice"},
		{source.Credentials{Username: "alice", Password: "p", Domain: "CORP"}, `CORP\alice`},
		{source.Credentials{Username: `OTHER\alice`, Password: "p", Domain: "CORP"}, `OTHER\alice`},
		{source.Credentials{Username: "alice@corp.example", Password: "p", Domain: "CORP"}, "alice@corp.example"},
	} {
		req := smbRequest(t, "smb://[fd00::5]/share/base", "a/b", `c:\s`)
		req.Credentials = tc.creds
		m, _, err := windowsMapping(req, false)
		if err != nil {
			t.Fatal(err)
		}
		if m.username != tc.want {
			t.Errorf("%+v: user %q, want %q", tc.creds, m.username, tc.want)
		}
		if m.root != `\\fd00--5.ipv6-literal.net\share` || m.remote != `\\fd00--5.ipv6-literal.net\share\base\a\b` {
			t.Errorf("IPv6 share: root %q, remote %q", m.root, m.remote)
		}
	}
}

// A stage that fails for good leaves neither link nor mapping: the kubelet
// will not call NodeUnstageVolume for it.
func TestWindowsFailedStageLeavesNothingBehind(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	fake.SetMissing(`\\fs\share\gone`)
	err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "gone", staging))
	if err == nil || !strings.Contains(err.Error(), "not reachable") {
		t.Fatalf("stage of a directory missing on the share: %v", err)
	}
	if fake.Exists(staging) {
		t.Error("link left at the staging path")
	}
	if m := fake.Mappings(); len(m) != 0 {
		t.Errorf("mappings left: %+v", m)
	}

	// With another volume on the share, its mapping stays.
	other := stagingPath("b")
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "here", other)); err != nil {
		t.Fatal(err)
	}
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "gone", staging)); err == nil {
		t.Fatal("stage of a missing directory succeeded")
	}
	if err := w.Check(ctx, other); err != nil {
		t.Fatalf("failed stage broke another volume on the share: %v", err)
	}
}

func TestWindowsPublishNeverDeletesData(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging, target := stagingPath("a"), targetPath("pod")
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.MakeFile(target + `\precious.txt`)
	if err := w.Publish(ctx, staging, target, false); err == nil {
		t.Fatal("published over a directory that holds a file")
	}
	if !fake.Exists(target + `\precious.txt`) {
		t.Fatal("the file in the target directory is gone")
	}
	for _, c := range fake.Calls() {
		if r, ok := c.Request.(*fsv1.RmdirRequest); ok && r.GetForce() {
			t.Fatalf("Rmdir with Force: %v", r)
		}
	}
}

func TestWindowsPublishIsIdempotentAndChecksFollowLinks(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging, target := stagingPath("a"), targetPath("pod")
	if err := w.Publish(ctx, staging, target, false); err == nil {
		t.Fatal("published a volume that is not staged")
	}
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := w.Publish(ctx, staging, target, true); err != nil {
			t.Fatalf("publish %d: %v", i+1, err)
		}
	}
	if err := w.Check(ctx, target); err != nil {
		t.Fatalf("Check of the published path: %v", err)
	}
	st, err := w.Stats(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if st.TotalBytes != 100<<30 || st.AvailableBytes != 50<<30 || st.UsedBytes != 40<<30 {
		t.Fatalf("stats %+v, want 100 GiB total, 50 GiB available, 40 GiB used", st)
	}

	fake.SetServerDown(`\\fs\share`, true)
	if err := w.Check(ctx, target); !errors.Is(err, ErrBroken) {
		t.Fatalf("Check while the server is down: %v, want a broken-mount error", err)
	}
	if _, err := w.Stats(ctx, target); err == nil {
		t.Fatal("Stats while the server is down succeeded")
	}
	fake.SetServerDown(`\\fs\share`, false)

	if err := w.Check(ctx, podsDir); !errors.Is(err, ErrNotMounted) {
		t.Fatalf("Check of a plain directory: %v, want ErrNotMounted", err)
	}
	if err := w.Check(ctx, targetPath("nothing")); !errors.Is(err, ErrNotMounted) {
		t.Fatalf("Check of a missing path: %v, want ErrNotMounted", err)
	}
	if err := w.Unstage(ctx, staging); err != nil {
		t.Fatal(err)
	}
	if err := w.Check(ctx, target); !errors.Is(err, ErrBroken) {
		t.Fatalf("Check of a publish link whose staging is gone: %v, want a broken-mount error", err)
	}
}

// A stage waits for an unstage of the same share, so the unstage cannot
// remove the mapping under a volume being linked to it.
func TestWindowsStageAndUnstageOfOneShareAreSerialized(t *testing.T) {
	w, _ := newWindowsUnderTest(t)
	ctx := context.Background()
	a, b := stagingPath("a"), stagingPath("b")
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "a", a)); err != nil {
		t.Fatal(err)
	}
	unlock, err := w.shareLocks.Lock(ctx, `\\fs\share`)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	err = w.Stage(short, smbRequest(t, "smb://fs/share", "b", b))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stage while the share is locked: %v, want a deadline error", err)
	}
	unlock()
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "b", b)); err != nil {
		t.Fatal(err)
	}
}

// The class's encryption decides whether the mapping demands encryption
// (default: as before, it does), and its auth who logs on.
func TestWindowsMappingFollowsAuthAndEncryption(t *testing.T) {
	for q, want := range map[string]bool{"": true, "?encryption=required": true, "?encryption=preferred": false, "?encryption=off": false} {
		m, _, err := windowsMapping(smbRequest(t, `\\fs\share`+q, "v", stagingPath("v")), true)
		if err != nil || m.opts.RequirePrivacy != want {
			t.Errorf("%q: RequirePrivacy %v, %v; want %v", q, m.opts.RequirePrivacy, err, want)
		}
	}
	// auth krb5: -BlockNTLM where the node can pass it (HostProcess),
	// as the Secret's principal; refused through csi-proxy, pointing to
	// HostProcess mode on Windows Server 2025 and to auth negotiate.
	req := smbRequest(t, `smb://fs/share?auth=krb5`, "v", stagingPath("v"))
	req.Credentials = source.Credentials{Principal: "alice@CORP.EXAMPLE", Password: "s3cret"}
	if m, _, err := windowsMapping(req, true); err != nil || !m.opts.BlockNTLM || m.username != "alice@CORP.EXAMPLE" {
		t.Errorf("auth krb5 on a HostProcess node: %+v as %q, %v; want BlockNTLM as the principal", m.opts, m.username, err)
	}
	_, _, err := windowsMapping(req, false)
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("auth krb5 through csi-proxy: %v, want ErrUnsupported", err)
	}
	for _, want := range []string{"HostProcess", "Windows Server 2025", "auth negotiate"} {
		if err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("auth krb5 through csi-proxy: %q does not say %q", err, want)
		}
	}
	// Every other auth leaves Windows its choice.
	for _, q := range []string{"", "?auth=ntlm", "?auth=negotiate"} {
		r := smbRequest(t, `smb://fs/share`+q, "v", stagingPath("v"))
		if m, _, err := windowsMapping(r, true); err != nil || m.opts.BlockNTLM {
			t.Errorf("%q: BlockNTLM %v, %v; want false", q, m.opts.BlockNTLM, err)
		}
	}
	req = smbRequest(t, `smb://fs/share?auth=negotiate`, "v", stagingPath("v"))
	req.Credentials = source.Credentials{Principal: "alice@CORP.EXAMPLE", Password: "s3cret"}
	if m, _, err := windowsMapping(req, true); err != nil || m.username != "alice@CORP.EXAMPLE" {
		t.Errorf("negotiate with a principal: user %q, %v", m.username, err)
	}
}

// A Kerberos Secret without a password (a keytab, for Linux nodes) is
// InvalidArgument on Windows, naming what to put in the Secret, on every
// node: a mapping logs on with a password only.
func TestWindowsKerberosSecretWithoutPassword(t *testing.T) {
	for _, q := range []string{"?auth=krb5", "?auth=negotiate"} {
		req := smbRequest(t, `smb://fs/share`+q, "v", stagingPath("v"))
		req.Credentials = source.Credentials{Principal: "alice@CORP.EXAMPLE", Keytab: "\x05\x02keytab-bytes"}
		_, _, err := windowsMapping(req, true)
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("%s: %v, want ErrInvalid", q, err)
		}
		for _, want := range []string{"password", "krb5.keytab", "principal"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", q, err, want)
			}
		}
		if strings.Contains(err.Error(), "keytab-bytes") {
			t.Errorf("%s: the error shows the keytab: %v", q, err)
		}
	}
	// The user is still known without the password, for the node
	// service's comparison of records that keep none.
	src, _ := source.Parse("smb://fs/share?auth=krb5")
	if u, err := WindowsUser(src, source.Credentials{Principal: "alice@CORP.EXAMPLE", Username: "other"}); err != nil || u != "alice@CORP.EXAMPLE" {
		t.Errorf("krb5 user %q, %v; want the principal", u, err)
	}
}

func TestWindowsKrb5StageOnAHostProcessNode(t *testing.T) {
	for _, old := range []bool{false, true} {
		fake := csiproxytest.Start(t, driverDir, podsDir)
		h := &csiproxytest.OptionsHost{Host: fake.NewClient(t), OldWindows: old}
		w := NewWindows(h)
		staging := stagingPath("k")
		kubeletPrepares(fake, staging)
		req := smbRequest(t, "smb://fs/share?auth=krb5", "vol", staging)
		req.Credentials = source.Credentials{Principal: "alice@CORP.EXAMPLE", Password: "s3cret"}
		err := w.Stage(context.Background(), req)
		if len(h.Asked) != 1 || !h.Asked[0].BlockNTLM || !h.Asked[0].RequirePrivacy {
			t.Fatalf("old Windows %v: mappings asked %+v, want one with BlockNTLM (and the default encryption)", old, h.Asked)
		}
		if !old {
			if err != nil {
				t.Fatal(err)
			}
			if m := fake.Mappings(); len(m) != 1 || m[0].Username != "alice@CORP.EXAMPLE" {
				t.Fatalf("mappings %+v", m)
			}
			continue
		}
		if !errors.Is(err, ErrNoBlockNTLM) || !strings.Contains(err.Error(), "Windows Server 2025") {
			t.Fatalf("old Windows: %v, want ErrNoBlockNTLM naming Windows Server 2025", err)
		}
		if _, ok := fake.Link(staging); ok {
			t.Error("old Windows: a link was left behind")
		}
		if m := fake.Mappings(); len(m) != 0 {
			t.Errorf("old Windows: mappings left %+v", m)
		}
	}
}

// What a stage demands of its share's mapping: the security switches on a
// node that passes them, with the floor other volumes set; nothing
// through csi-proxy, which can ask for none.
func TestWindowsMappingDemands(t *testing.T) {
	fake := csiproxytest.Start(t, driverDir, podsDir)
	hp, proxy := NewWindows(&csiproxytest.OptionsHost{Host: fake.NewClient(t)}), NewWindows(fake.NewClient(t))
	req := smbRequest(t, "smb://fs/share?encryption=preferred", "v", stagingPath("v"))
	req.MountOptions = []string{"sign,compress"}
	req.Credentials = source.Credentials{} // a record after a restart keeps none
	if d, err := hp.MappingDemands(req); err != nil || d != (winhost.MapOptions{RequireIntegrity: true}) {
		t.Errorf("sign, compress, encryption preferred: %+v, %v; want signing only", d, err)
	}
	req.MapFloor = &winhost.MapOptions{RequirePrivacy: true, BlockNTLM: true}
	if d, err := hp.MappingDemands(req); err != nil || d != (winhost.MapOptions{RequirePrivacy: true, RequireIntegrity: true, BlockNTLM: true}) {
		t.Errorf("with a floor: %+v, %v", d, err)
	}
	req.Credentials = source.Credentials{Username: "alice", Password: "s3cret"}
	if m, _, err := windowsMapping(req, true); err != nil || !m.opts.RequirePrivacy || !m.opts.BlockNTLM {
		t.Errorf("the mapping a stage makes again keeps the floor: %+v, %v", m.opts, err)
	}
	req.MountOptions = nil
	if d, err := proxy.MappingDemands(req); err != nil || d != (winhost.MapOptions{}) {
		t.Errorf("through csi-proxy: %+v, %v; want nothing", d, err)
	}
}

// A reboot drops the node's mappings and leaves the staging links. The
// kubelet's NodeUnstage then removes the link and finds no mapping to
// remove: that is what an unstage wants, and it answers OK at once. (It
// answered csi-proxy's "not found" as a failure; the retry, finding no
// link, succeeded.)
func TestWindowsUnstageAfterARebootSucceedsAtOnce(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.ForgetMappings()
	if err := w.Unstage(ctx, staging); err != nil {
		t.Fatalf("unstage after a reboot: %v", err)
	}
	if _, ok := fake.Link(staging); ok {
		t.Fatal("the staging link is still there")
	}
}

// Any other failure to remove the mapping is still one.
func TestWindowsUnstageReportsAMappingItCannotRemove(t *testing.T) {
	w, fake := newWindowsUnderTest(t)
	ctx := context.Background()
	staging := stagingPath("a")
	if err := w.Stage(ctx, smbRequest(t, "smb://fs/share", "vol", staging)); err != nil {
		t.Fatal(err)
	}
	fake.Fail("RemoveSmbGlobalMapping", fmt.Errorf("UnmountSmbShare failed. output: %q, err: exit status 1",
		"Remove-SmbGlobalMapping : Access is denied.\r\n    + CategoryInfo          : PermissionDenied: (MSFT_SmbGlobalMapping:ROOT/Microsoft/...SmbGlobalMapping) [Remove-SmbGlobalMapping], CimException\r\n    + FullyQualifiedErrorId : Windows System Error 5,Remove-SmbGlobalMapping\r\n"))
	if err := w.Unstage(ctx, staging); err == nil || !strings.Contains(err.Error(), "Access is denied") {
		t.Fatalf("unstage whose mapping cannot be removed: %v", err)
	}
}
