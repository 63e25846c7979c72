//go:build linux

package mounter

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

// A Kerberos mount with a uid of its own (krb5cache) names that uid as its
// cruid and has every upcall run in the host's namespaces for it; root's
// cruid=0 is then not there.
func TestStageOptionsForATicketCacheOfItsOwn(t *testing.T) {
	src, err := source.Parse("smb://fs.example.test/share?auth=krb5")
	if err != nil {
		t.Fatal(err)
	}
	uid := uint32(20007)
	_, opts, creds, err := stageOptions(StageRequest{Source: src, Credentials: source.Credentials{Principal: "csi@EXAMPLE.TEST", Keytab: "a-SECRET"}, CredUID: &uid})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"sec=krb5", "cruid=20007", "upcall_target=mount"} {
		if !slices.Contains(opts, w) {
			t.Errorf("options %v lack %s", opts, w)
		}
	}
	if slices.Contains(opts, "cruid=0") || strings.Contains(strings.Join(opts, ",")+creds, "SECRET") {
		t.Errorf("options %v, credentials file %q", opts, creds)
	}
	if creds != "username=csi\ndomain=EXAMPLE.TEST\n" {
		t.Errorf("credentials file %q", creds)
	}
}

// krb5AndNTLM are a Kerberos source, an NTLM one, and a principal's
// credentials.
func krb5AndNTLM(t *testing.T) (krb, ntlm source.Source, principal source.Credentials) {
	t.Helper()
	var err error
	if krb, err = source.Parse("smb://fs.example.test/share?auth=krb5"); err != nil {
		t.Fatal(err)
	}
	if ntlm, err = source.Parse("smb://fs.example.test/share"); err != nil {
		t.Fatal(err)
	}
	return krb, ntlm, source.Credentials{Principal: "csi@EXAMPLE.TEST", Keytab: "k"}
}

// Kerberos sessions end with their tickets: retrans= lets the kernel replay
// the request that meets the end (kerberosRetrans), unless the class says
// how to retry, and only where the kernel has the option.
func TestKerberosRetrans(t *testing.T) {
	krb, ntlm, principal := krb5AndNTLM(t)
	uid := uint32(20007)
	has, lacks := func() error { return nil }, func() error { return errors.New("unknown parameter") }
	cases := []struct {
		name  string
		req   StageRequest
		opts  []string
		takes func() error
		want  bool
	}{
		{"a ticket cache of its own: its kernel has it", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, nil, lacks, true},
		{"root's tickets on a kernel with it", StageRequest{Source: krb, Credentials: principal}, nil, has, true},
		{"root's tickets on a kernel without it (6.1)", StageRequest{Source: krb, Credentials: principal}, nil, lacks, false},
		{"the class's own retrans", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, []string{"retrans=3"}, has, false},
		{"the class's hard", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, []string{"hard"}, has, false},
		{"hard among other options", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, []string{"vers=3.1.1,hard"}, has, false},
		{"NTLM sessions do not expire", StageRequest{Source: ntlm, Credentials: source.Credentials{Username: "u", Password: "p"}}, nil, has, false},
	}
	for _, c := range cases {
		got := kerberosRetrans(c.req, c.opts, c.takes)
		if added := slices.Contains(got, "retrans=15"); added != c.want {
			t.Errorf("%s: options %v, want retrans=15 added: %v", c.name, got, c.want)
		}
		if n := len(got) - len(c.opts); n > 1 || (n == 1) != c.want {
			t.Errorf("%s: %v from %v", c.name, got, c.opts)
		}
	}
}

// A Kerberos mount the kernel got no ticket for (mount error 126) says
// what the host needs, in either mode; other failures, and NTLM mounts,
// keep their own error.
func TestNoTicketSaysWhatTheHostNeeds(t *testing.T) {
	krb, ntlm, principal := krb5AndNTLM(t)
	uid := uint32(20007)
	enokey := errors.New("mount error(126): Required key not available")
	for _, c := range []struct {
		name string
		req  StageRequest
		err  error
		want []string // in the message; nil: the error unchanged
	}{
		{"a ticket cache of its own", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, enokey, []string{"uid 20007", "keyutils", "cifs-utils 7.2", "passwd entry"}},
		{"root's tickets", StageRequest{Source: krb, Credentials: principal}, enokey, []string{"cruid=0", "keyutils", "cifs-utils", "root's default ticket cache"}},
		{"another failure", StageRequest{Source: krb, Credentials: principal, CredUID: &uid}, errors.New("mount error(13): Permission denied"), nil},
		{"NTLM", StageRequest{Source: ntlm, Credentials: source.Credentials{Username: "u", Password: "p"}}, enokey, nil},
	} {
		got := noTicketFor(c.req, c.err)
		if !errors.Is(got, c.err) {
			t.Errorf("%s: %v does not wrap the mount's error", c.name, got)
		}
		if c.want == nil {
			if got != c.err {
				t.Errorf("%s: %v, want the mount's error as it is", c.name, got)
			}
			continue
		}
		if !errors.Is(got, ErrUnsupported) {
			t.Errorf("%s: %v is not ErrUnsupported (FailedPrecondition)", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, got, w)
			}
		}
	}
}

func TestStageOptionsForAuthAndEncryption(t *testing.T) {
	src := func(q string) source.Source {
		s, err := source.Parse("smb://fs.example.test/share" + q)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	userPass := source.Credentials{Username: "u", Password: "pw-SECRET", Domain: "D"}
	krb := source.Credentials{Principal: "csi@EXAMPLE.TEST", Password: "pw-SECRET"}
	cases := []struct {
		name      string
		src       source.Source
		creds     source.Credentials
		opts      []string
		want      []string // options that must be there
		wantNot   []string // options that must not
		credsFile string
	}{
		{"default is NTLM, nothing added", src(""), userPass, []string{"vers=3.0"}, []string{"vers=3.0"}, []string{"sec=krb5", "cruid=0", "seal"}, "username=u\npassword=pw-SECRET\ndomain=D\n"},
		{"krb5", src("?auth=krb5"), krb, nil, []string{"sec=krb5", "cruid=0"}, []string{"seal"}, "username=csi\ndomain=EXAMPLE.TEST\n"},
		{"krb5i kept", src("?auth=krb5"), krb, []string{"sec=krb5i"}, []string{"sec=krb5i", "cruid=0"}, []string{"sec=krb5"}, "username=csi\ndomain=EXAMPLE.TEST\n"},
		{"krb5 and seal", src("?auth=krb5&encryption=required"), krb, nil, []string{"sec=krb5", "cruid=0", "seal"}, nil, "username=csi\ndomain=EXAMPLE.TEST\n"},
		{"seal for NTLM", src("?encryption=required"), userPass, nil, []string{"seal"}, []string{"sec=krb5"}, "username=u\npassword=pw-SECRET\ndomain=D\n"},
		{"preferred adds nothing", src("?encryption=preferred"), userPass, nil, nil, []string{"seal"}, "username=u\npassword=pw-SECRET\ndomain=D\n"},
		{"negotiate with a user is NTLM", src("?auth=negotiate"), source.Credentials{Username: "u", Password: "p", Principal: "u@R"}, nil, nil, []string{"sec=krb5"}, "username=u\npassword=p\n"},
		{"negotiate with a principal only is Kerberos", src("?auth=negotiate"), krb, nil, []string{"sec=krb5", "cruid=0"}, nil, "username=csi\ndomain=EXAMPLE.TEST\n"},
	}
	for _, c := range cases {
		fstype, opts, creds, err := stageOptions(StageRequest{Source: c.src, Credentials: c.creds, MountOptions: c.opts})
		if err != nil || fstype != "cifs" {
			t.Errorf("%s: %s, %v", c.name, fstype, err)
			continue
		}
		for _, w := range c.want {
			if !slices.Contains(opts, w) {
				t.Errorf("%s: options %v lack %s", c.name, opts, w)
			}
		}
		for _, w := range c.wantNot {
			if slices.Contains(opts, w) {
				t.Errorf("%s: options %v have %s", c.name, opts, w)
			}
		}
		if creds != c.credsFile {
			t.Errorf("%s: credentials file %q, want %q", c.name, creds, c.credsFile)
		}
		if strings.Contains(strings.Join(opts, ","), "SECRET") {
			t.Errorf("%s: a password in the options", c.name)
		}
	}
	refused := []struct {
		name string
		src  source.Source
		opts []string
	}{
		{"sec=ntlmssp with krb5", src("?auth=krb5"), []string{"vers=3.0,sec=ntlmssp"}},
		{"sec=krb5 with NTLM", src("?auth=ntlm"), []string{"sec=krb5"}},
		{"seal with encryption off", src("?encryption=off"), []string{"seal"}},
		{"cruid from the tenant", src("?auth=krb5"), []string{"cruid=1000"}},
	}
	// A class without auth keeps a sec=krb5 of its mount options, as
	// before classes could choose.
	if _, opts, _, err := stageOptions(StageRequest{Source: src(""), Credentials: userPass, MountOptions: []string{"sec=krb5"}}); err != nil || slices.Contains(opts, "cruid=0") {
		t.Errorf("sec=krb5 without auth: %v, %v", opts, err)
	}
	for _, c := range refused {
		if _, _, _, err := stageOptions(StageRequest{Source: c.src, Credentials: krb, MountOptions: c.opts}); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// mount.cifs appends the credentials file's username and domain to the
// kernel's options unescaped: a comma there would add options no check saw
// (a server address, sec=krb5 with root's tickets), and a line break any
// field another line of the file. Refused as InvalidArgument naming the
// field, never the value; a comma in a password is mount.cifs's to escape.
func TestSecretValuesCannotAddMountOptions(t *testing.T) {
	krb, ntlm, _ := krb5AndNTLM(t)
	for _, c := range []struct {
		src   source.Source
		creds source.Credentials
		field string
	}{
		{ntlm, source.Credentials{Username: "u,ip=10.9.9.9", Password: "p"}, "username"},
		{ntlm, source.Credentials{Username: "u,sec=krb5,cruid=0", Password: "p"}, "username"},
		{ntlm, source.Credentials{Username: "u", Password: "p", Domain: "D,unc=\\\\evil\\share"}, "domain"},
		{ntlm, source.Credentials{Username: "u\ndomain=EVIL", Password: "p"}, "username"},
		{ntlm, source.Credentials{Username: "u", Password: "p\nusername=root"}, "password"},
		{ntlm, source.Credentials{Username: "u\x00", Password: "p"}, "username"},
		{krb, source.Credentials{Principal: "csi,cruid=0@EXAMPLE.TEST", Keytab: "k"}, "principal"},
		{krb, source.Credentials{Principal: "csi@EXAMPLE.TEST\r", Keytab: "k"}, "principal"},
	} {
		_, opts, creds, err := stageOptions(StageRequest{Source: c.src, Credentials: c.creds})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "secret's "+c.field) {
			t.Errorf("%+v: %v (options %v, file %q), want ErrInvalid naming %s", c.creds, err, opts, creds, c.field)
			continue
		}
		for _, v := range []string{"10.9.9.9", "cruid=0", "evil", "EVIL", "root"} {
			if strings.Contains(err.Error(), v) {
				t.Errorf("the error repeats a value: %v", err)
			}
		}
	}
	_, _, creds, err := stageOptions(StageRequest{Source: ntlm, Credentials: source.Credentials{Username: "u", Password: "p,a,ss", Domain: "D"}})
	if err != nil || creds != "username=u\npassword=p,a,ss\ndomain=D\n" {
		t.Errorf("a password with commas: %q, %v", creds, err)
	}
}

// sec= is read once (secOption), the same way by the stage's check and by
// the inline refusal: a key in any case counts, the last one wins, and a
// flavour that contradicts the class's auth is refused rather than mounted
// beside the sec=krb5 the stage would add.
func TestSecOptionIsReadOneWay(t *testing.T) {
	krb, ntlm, principal := krb5AndNTLM(t)
	for _, c := range []struct {
		opts []string
		sec  string
	}{
		{nil, ""},
		{[]string{"vers=3.1.1"}, ""},
		{[]string{"sec=krb5i"}, "krb5i"},
		{[]string{"SEC=KRB5"}, "krb5"},
		{[]string{" sec = ntlmssp "}, "ntlmssp"},
		{[]string{"sec=ntlmssp,sec=krb5"}, "krb5"},
		{[]string{"secure=krb5"}, ""},
	} {
		if got := secOption(c.opts); got != c.sec {
			t.Errorf("secOption(%q) = %q, want %q", c.opts, got, c.sec)
		}
		if got, want := OptionsAskForKerberos(c.opts), strings.HasPrefix(c.sec, "krb5"); got != want {
			t.Errorf("OptionsAskForKerberos(%q) = %v, want %v", c.opts, got, want)
		}
	}
	if _, err := smbSecurityOptions(krb, principal, nil, []string{"SEC=ntlmssp"}); err == nil {
		t.Error("SEC=ntlmssp on a Kerberos class was taken")
	}
	if _, err := smbSecurityOptions(ntlm, source.Credentials{Username: "u", Password: "p"}, nil, []string{"Sec=krb5"}); err != nil {
		t.Errorf("a class without auth keeps its sec=krb5 (as before classes could choose): %v", err)
	}
}

// A plugin killed during a mount leaves its CIFS credentials file (a
// password in plain text) in its /tmp, which outlives the container's
// restart: the next start removes such files once they are older than any
// mount takes, and leaves newer ones (another plugin process may be
// mounting with them) and anything not its own.
func TestStaleCredentialsFilesAreRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	old, fresh, other := filepath.Join(dir, "cifs-123"), filepath.Join(dir, "cifs-456"), filepath.Join(dir, "notes")
	for _, f := range []string{old, fresh, other} {
		if err := os.WriteFile(f, []byte("password=SECRET\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	for _, f := range []string{old, other} {
		if err := os.Chtimes(f, long, long); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleCredentials(dir, staleCredentials)
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the leftover credentials file: %v", err)
	}
	for _, f := range []string{fresh, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
