//go:build linux

package integration

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/kubernetes-csi/csi-test/v5/pkg/sanity"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.yaml.in/yaml/v3"
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
	// An auth: krb5 class on the suite's Samba AD domain controller, whose
	// shares refuse NTLM: every call that reaches the share logs in with
	// Kerberos from the Secret's keytab.
	smbKrb5Sanity = sanity.NewTestConfig()
)

const smbKrb5Class = "SMB 3 Kerberos StorageClass"

var _ = Describe("NFSv3 StorageClass", func() { sanity.GinkgoTest(&nfs3Sanity) })
var _ = Describe("NFSv4.1 StorageClass", func() { sanity.GinkgoTest(&nfs41Sanity) })
var _ = Describe("SMB 3 StorageClass", func() { sanity.GinkgoTest(&smbSanity) })
var _ = Describe("NFSv4.1-only server", func() { sanity.GinkgoTest(&nfs41OnlySanity) })
var _ = Describe(smbKrb5Class, func() { sanity.GinkgoTest(&smbKrb5Sanity) })

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
	`Node Service NodeExpandVolume should work if node-expand is called after node-publish`,
}

// sanitySecrets is a csi-sanity secrets file that gives secrets to every
// call that takes them.
func sanitySecrets(secrets map[string]string) string {
	all := map[string]map[string]string{}
	for _, k := range []string{"CreateVolumeSecret", "DeleteVolumeSecret", "ControllerValidateVolumeCapabilitiesSecret", "NodeStageVolumeSecret", "ControllerExpandVolumeSecret",
		"CreateSnapshotSecret", "DeleteSnapshotSecret", "ListSnapshotsSecret", "GetSnapshotSecret"} {
		all[k] = secrets
	}
	b, err := yaml.Marshal(all)
	if err != nil {
		panic(err)
	}
	return string(b)
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
	sanityConfig(&smbSanity, "smb", map[string]string{"source": smbSource("sanity"), "mountOptions": "vers=3.0"}, sanitySecrets(smbSecrets()))

	RegisterFailHandler(Fail)
	suiteConfig, reporterConfig := GinkgoConfiguration()
	skip, err := sanityKrb5()
	if err != nil {
		// A DC that fails to start is a failure, not a reason to skip.
		t.Fatal(err)
	}
	if skip != "" {
		// The whole class: without a domain controller it has no server.
		suiteConfig.SkipStrings = append(suiteConfig.SkipStrings, regexp.QuoteMeta(smbKrb5Class))
		t.Logf("%s skipped: %s", smbKrb5Class, skip)
	} else {
		// Node mounts with sec=krb5 need the node's own Kerberos tickets:
		// the suite's driver runs without --krb5-host-tickets, so it
		// refuses a Kerberos NodeStageVolume with FailedPrecondition by
		// design (docs/kerberos.md#linux-nodes), and the suite's node has
		// no tickets of the realm to give cifs.upcall; nor does this
		// host's kernel have a CIFS client. The controller, identity and
		// the node's argument checks run; the mounts are #29's node tests.
		for _, c := range nodeMountCases {
			suiteConfig.SkipStrings = append(suiteConfig.SkipStrings, regexp.QuoteMeta(smbKrb5Class)+".*"+regexp.QuoteMeta(c))
		}
	}
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

// sanityKrb5 fills in the Kerberos class's config, on the suite's domain
// controller, or says why there is none.
func sanityKrb5() (skip string, err error) {
	dc, keytab, _, skip, err := sharedDC()
	if skip != "" || err != nil {
		return skip, err
	}
	base := filepath.Join(dc.Data, "sanity")
	if err := os.MkdirAll(base, 0o777); err != nil {
		return "", err
	}
	// The AD users map to IDs of the DC's own.
	if err := os.Chmod(base, 0o777); err != nil {
		return "", err
	}
	sanityConfig(&smbKrb5Sanity, "smb-krb5",
		map[string]string{"source": "smb://" + dc.Addr + "/" + dc.Share + "/sanity", "auth": "krb5"},
		sanitySecrets(map[string]string{"principal": "csikrb@" + dc.Realm, "krb5.keytab": base64.StdEncoding.EncodeToString(keytab), "krb5.conf": dc.Krb5Conf}))
	return "", nil
}
