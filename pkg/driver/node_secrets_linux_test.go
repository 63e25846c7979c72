//go:build linux

package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"k8s.io/klog/v2"
	"k8s.io/klog/v2/textlogger"

	"github.com/fileshare-csi/fileshare-csi/pkg/metrics"
	"github.com/fileshare-csi/fileshare-csi/pkg/mounter"
	"github.com/fileshare-csi/fileshare-csi/pkg/nodestate"
)

// Issue #27: a tenant's secret under a key nobody refuses (pw=, token=, or
// pasted on its own) reaches no log line at --v=5: neither the request
// log nor the node's "mounting" line. Keys are logged, values only for
// keys known to be harmless.
func TestMisspeltSecretOptionReachesNoLogLine(t *testing.T) {
	d, _, calls := newNodeUnderTest(t)
	var err error
	if d.cfg.InlineSources, err = ParseInlineSources("smb://fs/team"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	ctx := klog.NewContext(context.Background(), textlogger.NewLogger(textlogger.NewConfig(textlogger.Verbosity(5), textlogger.Output(&buf))))
	req := inlineRequest(filepath.Join(t.TempDir(), "mount"), "smb://fs/team", "", map[string]string{"username": "u", "password": "Secret-Pw"})
	req.VolumeContext[ContextMountOptions] = "vers=3.0,pw=" + leak + "1,token=" + leak + "2," + leak + "3,nconnect=2"
	req.VolumeCapability = capability(csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER, []string{"actimeo=1,pw=" + leak + "4"}, "")
	handler := func(ctx context.Context, r any) (any, error) {
		return d.NodePublishVolume(ctx, r.(*csi.NodePublishVolumeRequest))
	}
	if _, err := LogInterceptor(ctx, req, &grpc.UnaryServerInfo{FullMethod: "/csi.v1.Node/NodePublishVolume"}, handler); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 {
		t.Fatalf("mount calls %+v", *calls)
	}
	log := buf.String()
	for _, want := range []string{`"mounting"`, "vers=3.0", "pw=***", "token=***", "nconnect=2", "actimeo=1"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	for _, s := range []string{leak, "Secret-Pw"} {
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, s) {
				t.Errorf("a log line has %q: %s", s, line)
			}
		}
	}
}

// Issue #27: an SMB volume's password is on no file of the node while it
// is staged, stays usable across a plugin restart (a repair remounts with
// it), and is gone with the volume at unstage.
func TestSMBCredentialsAreInNoFileAndGoAtUnstage(t *testing.T) {
	d, fake, calls := newNodeUnderTest(t)
	ctx := context.Background()
	staging := filepath.Join(t.TempDir(), "staging")
	const pw = "Stag3dPassw0rd"
	if _, err := d.NodeStageVolume(ctx, &csi.NodeStageVolumeRequest{
		VolumeId: "v1#smb://fs/share/base#claim#delete", StagingTargetPath: staging,
		VolumeCapability: capability(csi.VolumeCapability_AccessMode_MULTI_NODE_MULTI_WRITER, []string{"vers=3.0"}, ""),
		Secrets:          map[string]string{"username": "alice", "password": pw},
	}); err != nil {
		t.Fatal(err)
	}
	noFileHas := func(what string) {
		t.Helper()
		for _, dir := range []string{d.cfg.StateDir, credDirOf[d]} {
			_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(pw)) {
						t.Errorf("%s: %s holds the password", what, p)
					}
				}
				return nil
			})
		}
	}
	noFileHas("staged")

	// A restarted plugin (same state dir) still remounts a broken mount
	// with the password.
	restarted, err := newTestDriver(t, Config{Name: "test.csi", NodeID: "n1", Node: true, Mounter: d.cfg.Mounter, Metrics: metrics.New("test.csi"), StateDir: d.cfg.StateDir})
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.Unmount(staging); err != nil {
		t.Fatal(err)
	}
	if err := restarted.repairStaging(ctx, staging); err != nil {
		t.Fatalf("repair after a restart: %v", err)
	}
	if n := len(*calls); n != 2 || !strings.Contains((*calls)[1].credentials, "password="+pw) {
		t.Fatalf("the repair mounted without the password: %+v", *calls)
	}

	if _, err := restarted.NodeUnstageVolume(ctx, &csi.NodeUnstageVolumeRequest{VolumeId: "v1#smb://fs/share/base#claim#delete", StagingTargetPath: staging}); err != nil {
		t.Fatal(err)
	}
	noFileHas("unstaged")
	if st, err := restarted.nodeState().Staged(staging); err == nil {
		t.Fatalf("a record outlived the unstage: %+v", st)
	}
	if err := restarted.nodeState().SaveStaged(staging, stagedWithoutCredentials(staging)); err != nil {
		t.Fatal(err)
	}
	defer restarted.nodeState().DropStaged(staging)
	if st, _ := restarted.nodeState().Staged(staging); st.Request.Credentials.Password != "" {
		t.Fatal("the password outlived the unstage: a new record of the same path has it")
	}
}

func stagedWithoutCredentials(path string) nodestate.Staged {
	return nodestate.Staged{Request: mounter.StageRequest{StagingPath: path}}
}
