//go:build linux

package localservers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ADDC is a Samba Active Directory domain controller: the realm's KDC and a
// file server whose shares allow Kerberos logons only (ntlm auth =
// disabled, so a session that works proves Kerberos was used).
type ADDC struct {
	*Server
	// Realm is the Kerberos realm, Domain the NetBIOS domain.
	Realm, Domain string
	// Addr is the DC's address, reachable from here; the file server has
	// the service principal cifs/Addr besides cifs/dc1.<realm>, so sources
	// name it by address and need no host name resolution here.
	Addr string
	// Share is a share that does not encrypt; EncryptedShare demands
	// encryption (smb encrypt = required).
	Share, EncryptedShare string
	// Krb5Conf is a client krb5.conf for the realm, with the KDC at Addr.
	Krb5Conf string
	ns       string
	conf     string
}

// StartADDC provisions a domain controller for realm BARS.TEST under dir
// and runs it in the network namespace ns (made here, removed by Stop),
// joined to this one by a veth pair: hostCIDR here, nsCIDR (its address is
// Addr) there. Provisioning takes about five seconds.
//
// The traps, seen here: the DC's winbindd
// listens on /run/samba/winbindd/pipe, and Unix sockets cross network
// namespaces, so a DC with the host's /run/samba makes every other smbd on
// the machine (the suite's) map users through it and refuse every login.
// The DC runs in a mount namespace of its own with a tmpfs on /run/samba.
// The provisioning would read the host's /etc/samba/smb.conf (shares,
// printers, log paths): it is given an empty one.
func StartADDC(ctx context.Context, dir, ns, hostCIDR, nsCIDR string) (*ADDC, error) {
	for _, tool := range []string{"samba", "samba-tool"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%s not installed (apt-get install --no-install-recommends samba-ad-dc): %w", tool, err)
		}
	}
	addr, _, _ := strings.Cut(nsCIDR, "/")
	d := &ADDC{Realm: "BARS.TEST", Domain: "BARS", Addr: addr, Share: "krb", EncryptedShare: "krbenc", ns: ns,
		Server: &Server{Name: "samba-ad-dc", Dir: dir, Data: filepath.Join(dir, "krb"), Port: 445}}
	d.Krb5Conf = fmt.Sprintf("[libdefaults]\n  default_realm = %[1]s\n  dns_lookup_kdc = false\n  dns_lookup_realm = false\n[realms]\n  %[1]s = {\n    kdc = %[2]s\n  }\n", d.Realm, addr)
	removeNS, err := NewNetNS(ns)
	if err != nil {
		return nil, err
	}
	unlink, err := LinkNetNS(ns, hostCIDR, nsCIDR)
	if err != nil {
		removeNS()
		return nil, err
	}
	// The DC first: its processes hold the namespace.
	d.stop = func() { stopCmd(d.cmd); unlink(); removeNS() }
	ok := false
	defer func() {
		if !ok {
			d.Stop()
		}
	}()
	peer := "fsn-" + shortName(ns)
	for _, sub := range []string{"krb", "krbenc"} {
		p := filepath.Join(dir, sub)
		if err := os.MkdirAll(p, 0o777); err != nil {
			return nil, err
		}
		// The AD users map to IDs of the DC's own (3000000 and up).
		if err := os.Chmod(p, 0o777); err != nil {
			return nil, err
		}
	}
	if err := allowSearch(dir); err != nil {
		return nil, err
	}
	empty := filepath.Join(dir, "empty.conf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		return nil, err
	}
	// No --adminpass: samba-tool makes a random one, and no password is
	// put in an argv.
	if out, err := exec.CommandContext(ctx, "ip", "netns", "exec", ns, "samba-tool", "domain", "provision", "-s", empty,
		"--realm="+d.Realm, "--domain="+d.Domain, "--server-role=dc", "--dns-backend=SAMBA_INTERNAL",
		"--targetdir="+dir, "--host-name=dc1", "--host-ip="+addr,
		"--option=interfaces=lo "+peer, "--option=bind interfaces only=yes", "--option=dns forwarder=127.0.0.1",
	).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("samba-tool domain provision: %w: %s", err, out)
	}
	d.conf = filepath.Join(dir, "etc", "smb.conf")
	b, err := os.ReadFile(d.conf)
	if err != nil {
		return nil, err
	}
	global := fmt.Sprintf("[global]\n\tntlm auth = disabled\n\tlog file = %[1]s/log.%%m\n\tlogging = file\n\tpid directory = %[1]s\n\tdisable spoolss = yes\n\tload printers = no\n\tprintcap name = /dev/null\n", dir)
	cfg := strings.Replace(string(b), "[global]\n", global, 1) +
		fmt.Sprintf("\n[%s]\n\tpath = %s\n\tread only = no\n\n[%s]\n\tpath = %s\n\tread only = no\n\tsmb encrypt = required\n",
			d.Share, filepath.Join(dir, "krb"), d.EncryptedShare, filepath.Join(dir, "krbenc"))
	if err := os.WriteFile(d.conf, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	// The file server's own principal for its address (see Addr).
	if err := d.tool(ctx, "spn", "add", "cifs/"+addr, "DC1$", "-H", filepath.Join(dir, "private", "sam.ldb")); err != nil {
		return nil, err
	}
	d.LogPath = filepath.Join(dir, "samba.out")
	logf, err := os.Create(d.LogPath)
	if err != nil {
		return nil, err
	}
	d.up = func(ctx context.Context) error {
		d.cmd = exec.Command("ip", "netns", "exec", ns, "unshare", "--mount", "--propagation", "private", "sh", "-c",
			`mkdir -p /run/samba && mount -t tmpfs -o mode=0755 tmpfs /run/samba && exec samba -F --no-process-group -s "$1"`, "sh", d.conf)
		d.cmd.Stdout, d.cmd.Stderr = logf, logf
		d.cmd.SysProcAttr = ownProcessGroup()
		if err := d.cmd.Start(); err != nil {
			return fmt.Errorf("start samba: %w", err)
		}
		for _, port := range []int{88, 445} {
			if err := waitListeningIn(ctx, ns, port, d.cmd); err != nil {
				stopCmd(d.cmd)
				return fmt.Errorf("the DC did not listen on %d: %w\n%s", port, err, d.Log())
			}
		}
		return nil
	}
	d.down = func() error { stopCmd(d.cmd); return nil }
	if err := d.up(ctx); err != nil {
		return nil, err
	}
	ok = true
	return d, nil
}

// tool runs samba-tool on the DC's configuration (its local database).
func (d *ADDC) tool(ctx context.Context, args ...string) error {
	args = append(args, "-s", d.conf)
	if out, err := exec.CommandContext(ctx, "samba-tool", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("samba-tool %s: %w: %s", strings.Join(args[:2], " "), err, out)
	}
	return nil
}

// AddUser makes a domain user. samba-tool takes the password only in its
// argv (or from a terminal): use a throwaway one, as tests do; over
// ldap:// it fails once NTLM is disabled, so it writes the local database.
func (d *ADDC) AddUser(ctx context.Context, name, password string) error {
	return d.tool(ctx, "user", "create", name, password, "-H", filepath.Join(d.Dir, "private", "sam.ldb"))
}

// SetPassword gives a domain user a new password, and with it new keys
// (their version number goes up): a rotation, as an operator's would be.
func (d *ADDC) SetPassword(ctx context.Context, name, password string) error {
	return d.tool(ctx, "user", "setpassword", name, "--newpassword="+password, "-H", filepath.Join(d.Dir, "private", "sam.ldb"))
}

// Keytab exports the keys of name@Realm as a keytab file's bytes.
func (d *ADDC) Keytab(ctx context.Context, name string) ([]byte, error) {
	p := filepath.Join(d.Dir, name+".keytab")
	_ = os.Remove(p)
	if err := d.tool(ctx, "domain", "exportkeytab", p, "--principal="+name+"@"+d.Realm); err != nil {
		return nil, err
	}
	defer os.Remove(p)
	return os.ReadFile(p)
}

// SMBStatus is smbstatus's report of the DC's file server (sessions and
// shares in use, with their encryption), from its own state files.
func (d *ADDC) SMBStatus(ctx context.Context, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "smbstatus", append(args, "-s", d.conf)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("smbstatus: %w: %s", err, out)
	}
	return string(out), nil
}
