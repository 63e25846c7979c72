//go:build linux

// Command dc runs the Samba AD domain controller of make test-krb5-node on
// the host (test/localservers.StartADDC, in a network namespace of its own)
// while the test VM runs, and does for the test in the guest what only the
// host can: the DC's smbstatus, and ending an SMB session by terminating the
// smbd process that serves it (a forced reconnect).
//
//	dc -dir DIR -out OUT [-ns NAME -host-cidr CIDR -ns-cidr CIDR]
//
// It writes OUT/dc.json (realm, addresses, shares, principal),
// OUT/<user>.keytab and OUT/krb5.conf, then OUT/ready, and serves requests
// the guest leaves in OUT/ctl: a file N.req holding one command line,
// answered in N.out (first line "ok" or "error: ..."):
//
//	smbstatus ARGS...     smbstatus of the DC with ARGS (options only)
//	kill-sessions         terminates the smbd processes serving the sessions
//	rotate-keytab         gives the user a new password and writes its keytab
//	                      to OUT/<user>-<kvno-th rotation>.keytab, answered
//	                      with the file's name
//
// It stops the DC and removes the namespace at SIGTERM or SIGINT, or after
// -timeout at the latest.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fileshare-csi/fileshare-csi/test/localservers"
)

// Info is what OUT/dc.json says, for the test in the guest.
type Info struct {
	Realm, Domain string
	// Addr is the DC's address in its namespace, Host its name
	// (dc1.<realm>, lower case), which has the service principal cifs/Host.
	Addr, Host string
	// Share does not encrypt; EncryptedShare demands encryption.
	Share, EncryptedShare string
	// User is the domain user whose keys are in Keytab (a file name in
	// OUT): the node's identity and the Secret's principal alike.
	User, Keytab string
}

func main() {
	dir := flag.String("dir", "", "the DC's own directory (made)")
	out := flag.String("out", "", "where the guest reads the realm's files and leaves its requests (made)")
	ns := flag.String("ns", "fileshare-krb5node", "the DC's network namespace")
	hostCIDR := flag.String("host-cidr", "10.254.31.1/24", "this side of the veth pair")
	nsCIDR := flag.String("ns-cidr", "10.254.31.2/24", "the DC's side of the veth pair")
	user := flag.String("user", "csikrb", "the domain user to make and export a keytab of")
	timeout := flag.Duration("timeout", time.Hour, "stop the DC after this long whatever happens")
	flag.Parse()
	if *dir == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: dc -dir DIR -out OUT")
		os.Exit(2)
	}
	if err := run(*dir, *out, *ns, *hostCIDR, *nsCIDR, *user, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "dc:", err)
		_ = os.WriteFile(filepath.Join(*out, "failed"), []byte(err.Error()+"\n"), 0o644)
		os.Exit(1)
	}
}

func run(dir, out, ns, hostCIDR, nsCIDR, user string, timeout time.Duration) error {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	defer cancelT()
	ctl := filepath.Join(out, "ctl")
	if err := os.MkdirAll(ctl, 0o755); err != nil {
		return err
	}
	began := time.Now()
	sctx, scancel := context.WithTimeout(ctx, 3*time.Minute)
	defer scancel()
	dc, err := localservers.StartADDC(sctx, dir, ns, hostCIDR, nsCIDR)
	if err != nil {
		return err
	}
	defer dc.Stop()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	if err := dc.AddUser(sctx, user, "Pw-"+hex.EncodeToString(b)+"!"); err != nil {
		return err
	}
	keytab, err := dc.Keytab(sctx, user)
	if err != nil {
		return err
	}
	info := Info{Realm: dc.Realm, Domain: dc.Domain, Addr: dc.Addr, Host: "dc1." + strings.ToLower(dc.Realm),
		Share: dc.Share, EncryptedShare: dc.EncryptedShare, User: user, Keytab: user + ".keytab"}
	j, _ := json.MarshalIndent(info, "", "  ")
	for name, data := range map[string][]byte{"dc.json": j, info.Keytab: keytab, "krb5.conf": []byte(dc.Krb5Conf)} {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o600); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(out, "ready"), nil, 0o644); err != nil {
		return err
	}
	fmt.Printf("dc: %s ready at %s in %v (log %s)\n", dc.Realm, dc.Addr, time.Since(began).Round(time.Millisecond), dc.LogPath)
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Println("dc: stopping:", context.Cause(ctx))
			return nil
		case <-t.C:
		}
		reqs, _ := filepath.Glob(filepath.Join(ctl, "*.req"))
		sort.Strings(reqs)
		for _, r := range reqs {
			line, err := os.ReadFile(r)
			if err != nil {
				continue
			}
			answer := serve(ctx, dc, out, user, strings.Fields(string(line)))
			fmt.Printf("dc: %s: %s -> %s\n", filepath.Base(r), strings.TrimSpace(string(line)), firstLine(answer))
			base := strings.TrimSuffix(r, ".req")
			if err := os.WriteFile(base+".tmp", []byte(answer), 0o644); err == nil {
				_ = os.Rename(base+".tmp", base+".out")
			}
			_ = os.Remove(r)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// serve answers one request: "ok\n" and the output, or "error: ...".
func serve(ctx context.Context, dc *localservers.ADDC, out, user string, args []string) string {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if len(args) == 0 {
		return "error: empty request\n"
	}
	switch args[0] {
	case "smbstatus":
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				return "error: smbstatus takes options only\n"
			}
		}
		s, err := dc.SMBStatus(ctx, args[1:]...)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return "ok\n" + s
	case "rotate-keytab":
		name, err := rotateKeytab(ctx, dc, out, user)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return "ok\n" + name + "\n"
	case "kill-sessions":
		pids, err := killSessions(ctx, dc)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return "ok\n" + strings.Trim(fmt.Sprint(pids), "[]") + "\n"
	}
	return "error: unknown request " + args[0] + "\n"
}

// killSessions terminates the smbd processes that serve the DC's sessions
// (smbstatus -p's PIDs: the guest's alone), SIGTERM first, which closes
// the connection as a server restart does, SIGKILL after 10 s. It returns
// their pids, and an error when there was none. (The host's smbstatus
// names users by uid, as the DC's winbindd is in its own mount namespace.)
func killSessions(ctx context.Context, dc *localservers.ADDC) ([]int, error) {
	s, err := dc.SMBStatus(ctx, "-p")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		if pid, err := strconv.Atoi(f[0]); err == nil && pid > 1 {
			pids = append(pids, pid)
		}
	}
	if len(pids) == 0 {
		return nil, fmt.Errorf("no session:\n%s", s)
	}
	for _, p := range pids {
		_ = syscall.Kill(p, syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, p := range pids {
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if alive(p) {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
	return pids, nil
}

var rotations int

// rotateKeytab sets a new random password for user and exports the keys
// that come with it, as a Secret's keytab would be replaced.
func rotateKeytab(ctx context.Context, dc *localservers.ADDC, out, user string) (string, error) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	if err := dc.SetPassword(ctx, user, "Pw-"+hex.EncodeToString(b)+"!"); err != nil {
		return "", err
	}
	kt, err := dc.Keytab(ctx, user)
	if err != nil {
		return "", err
	}
	rotations++
	name := fmt.Sprintf("%s-%d.keytab", user, rotations)
	return name, os.WriteFile(filepath.Join(out, name), kt, 0o600)
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
