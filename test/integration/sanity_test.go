//go:build linux

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubernetes-csi/csi-test/v5/pkg/sanity"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// One sanity context per StorageClass; their configs are filled in by
// TestSanity once the servers and the driver are up.
var (
	nfs3Sanity  = sanity.NewTestConfig()
	nfs41Sanity = sanity.NewTestConfig()
	smbSanity   = sanity.NewTestConfig()
	// An NFSv4.1 class on a server that offers nothing else, in a network
	// where nothing listens on 111 (startNFS4OnlyNet).
	nfs41OnlySanity = sanity.NewTestConfig()
)

var _ = Describe("NFSv3 StorageClass", func() { sanity.GinkgoTest(&nfs3Sanity) })
var _ = Describe("NFSv4.1 StorageClass", func() { sanity.GinkgoTest(&nfs41Sanity) })
var _ = Describe("SMB 3 StorageClass", func() { sanity.GinkgoTest(&smbSanity) })
var _ = Describe("NFSv4.1-only server", func() { sanity.GinkgoTest(&nfs41OnlySanity) })

// nodeMountCases are the csi-sanity cases that need a real NFS or CIFS mount.
// They are skipped only where the kernel has no NFS or CIFS client (the host
// this project is developed on); the VM suite (make test-vm) runs them against
// a real kernel. The remaining node cases (argument checks, capabilities,
// NodeGetInfo) run everywhere.
var nodeMountCases = []string{
	`Node Service NodePublishVolume should work`,
	`Node Service NodeUnpublishVolume should remove target path`,
	`Node Service NodeGetVolumeStats should fail when volume is not found`,
	`Node Service NodeGetVolumeStats should fail when volume does not exist on the specified path`,
	`Node Service NodeGetVolumeHealth should return health for a valid volume`,
	`Node Service should work`,
	`Node Service should be idempotent`,
	`Node Service NodePublishVolume with single node multi writer capability`,
}

func sanityConfig(cfg *sanity.TestConfig, name string, params map[string]string, secrets string) {
	dir := filepath.Join(env.dir, "sanity-"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		panic(err)
	}
	cfg.Address = env.endpoint
	cfg.TargetPath = filepath.Join(dir, "target")
	cfg.StagingPath = filepath.Join(dir, "staging")
	cfg.TestVolumeParameters = params
	cfg.TestVolumeSize = 1 << 30
	cfg.IdempotentCount = 2
	if secrets != "" {
		f := filepath.Join(env.dir, name+"-secrets.yaml")
		if err := os.WriteFile(f, []byte(secrets), 0o600); err != nil {
			panic(err)
		}
		cfg.SecretsFile = f
	}
}

func TestSanity(t *testing.T) {
	for _, base := range []string{filepath.Join(env.nfs.Data, "sanity"), filepath.Join(env.samba.Data, "sanity")} {
		if err := os.MkdirAll(base, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	sanityConfig(&nfs3Sanity, "nfs3", map[string]string{"source": nfsSource("sanity"), "mountOptions": "vers=3"}, "")
	// Pinned in the source: the controller provisions with its NFSv4.1
	// client and the node mounts with vers=4.1 from the pin alone.
	sanityConfig(&nfs41Sanity, "nfs41", map[string]string{"source": nfs41Source("sanity")}, "")
	var sec strings.Builder
	for _, k := range []string{"CreateVolumeSecret", "DeleteVolumeSecret", "ControllerValidateVolumeCapabilitiesSecret", "NodeStageVolumeSecret", "ControllerExpandVolumeSecret",
		"CreateSnapshotSecret", "DeleteSnapshotSecret", "ListSnapshotsSecret", "GetSnapshotSecret"} {
		fmt.Fprintf(&sec, "%s:\n  username: %s\n  password: %s\n", k, smbSecrets()["username"], smbSecrets()["password"])
	}
	sanityConfig(&smbSanity, "smb", map[string]string{"source": smbSource("sanity"), "mountOptions": "vers=3.0"}, sec.String())

	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	// An NFSv4-only server (NFS-Ganesha with Protocols = 4 on the host, a
	// second kernel nfsd with versions 2 and 3 off in the test VM) and a
	// driver, alone in a network namespace without rpcbind.
	n, stop, err := startNFS4OnlyNet("sanity", "--mode", "all", "--nodeid", "sanity-v4only")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := filepath.Join(n.server.Data, "sanity")
	if err := os.MkdirAll(base, 0o777); err != nil {
		t.Fatal(err)
	}
	sanityConfig(&nfs41OnlySanity, "nfs41only", map[string]string{"source": "nfs://127.0.0.1" + base + "?vers=4.1"}, "")
	nfs41OnlySanity.Address = n.driver.Endpoint
	if !kernelCanMount() {
		for _, c := range nodeMountCases {
			suiteConfig.SkipStrings = append(suiteConfig.SkipStrings, c)
		}
		t.Log("this kernel has no NFS or CIFS client: csi-sanity cases that mount are skipped here and run in make test-vm")
	}
	RunSpecs(t, "csi-sanity against Samba and "+env.nfs.Name, suiteConfig, reporterConfig)
}
