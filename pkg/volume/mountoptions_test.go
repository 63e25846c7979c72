package volume

import (
	"reflect"
	"strings"
	"testing"
)

const leak = "S3cretLeak"

func TestCheckMountOptionsRefusesEachKey(t *testing.T) {
	for _, opt := range []string{
		"password=" + leak, "pass=" + leak, "password2=" + leak, "credentials=/etc/" + leak,
		"cred=/etc/" + leak, "user=" + leak, "username=" + leak, "domain=" + leak, "dom=" + leak,
		"workgroup=" + leak, "addr=10.1.2.3", "ip=10.1.2.3", "unc=//evil/" + leak,
		"mounthost=evil", "mountaddr=10.1.2.3", "guest",
		// issue #27: every key of mount.cifs(8) and nfs(5) that names a
		// host, a port, a share, a path or an identity
		"target=//evil/" + leak, "path=//127.0.0.123/sharexx/sub/../../private", "prefixpath=sub/../../" + leak,
		"source=//evil/" + leak, "port=4450", "mountport=20048", "clientaddr=10.1.2.3", "srcaddr=10.1.2.3",
		"proxy=10.1.2.3", "cruid=0", "upcall_target=app", "netbiosname=evil", "servern=evil", "multiuser", "MultiUser",
		"servernetbiosname=evil", "sep=;vers=3.0;ip=10.1.2.3",
		"sec=none", "sec=ntlm", "sec=ntlmi", "sec=lanman", "sec=krb5:NONE", "sec=sys:none",
		// mixed case and stray spaces, as a YAML list may carry them
		"PASSWORD=" + leak, "UserName=" + leak, " password=" + leak, "Addr=10.1.2.3", "SEC=None", "Guest",
		"PATH=//evil/x", " path=//evil/x", "path =//evil/x", "\tTarget=//evil/x", "PrefixPath=" + leak, "PORT=99",
		// quoted keys and values, and a "no" prefix: no tool takes them,
		// but none may ever slip through
		`"path"=//evil/x`, `'ip'=10.1.2.3`, "sec=\"none\"", "noaddr=10.1.2.3", "noPort=1",
		// misspelt credential keys: mount would refuse them as unknown,
		// but only after they were on its command line
		"passwd=" + leak, "pwd=" + leak, "Passw0rd=" + leak, "secret=" + leak, "creds=" + leak, "smbpass=" + leak,
		// value-less and empty-valued forms
		"password", "password=", "user", "credentials", "addr", "path", "prefixpath=", "port",
	} {
		for _, opts := range [][]string{
			{opt},
			{"vers=3.0", opt},                   // second
			{"ro", "hard", opt},                 // third
			{"vers=3.0,nolock," + opt},          // inside one comma-joined flag
			{"ro", "vers=4.1," + opt + ",hard"}, // in the middle of the second flag
		} {
			err := CheckMountOptions(opts)
			if err == nil {
				t.Errorf("CheckMountOptions(%q) accepted", opts)
				continue
			}
			key := strings.ToLower(strings.Trim(strings.SplitN(opt, "=", 2)[0], " \t\"'"))
			if !strings.Contains(err.Error(), `"`+key) {
				t.Errorf("CheckMountOptions(%q) = %v, want it to name %q", opts, err, key)
			}
			if strings.Contains(err.Error(), leak) || strings.Contains(err.Error(), "10.1.2.3") || strings.Contains(err.Error(), "evil") ||
				strings.Contains(err.Error(), "private") || strings.Contains(err.Error(), "4450") {
				t.Errorf("CheckMountOptions(%q) = %v: repeats a value", opts, err)
			}
		}
	}
}

// mount(8)'s own options: a bind of a node path, X-mount.subdir walking
// the node's tree, a remount of another mount.
func TestCheckMountOptionsRefusesMountToolOptions(t *testing.T) {
	for _, opt := range []string{
		"bind", "rbind", "move", "remount", "shared", "rshared", "slave", "rslave", "private", "rprivate",
		"unbindable", "runbindable", "loop", "offset=0", "sizelimit=1", "helper=evil", "uhelper=evil",
		"X-mount.subdir=../../..", "x-mount.mkdir", "X-mount.owner=0", "x-systemd.automount", "X-Mount.idmap=u:0:0:1", "Bind",
	} {
		err := CheckMountOptions([]string{"vers=3.0," + opt})
		key := strings.ToLower(strings.SplitN(opt, "=", 2)[0])
		if err == nil || !strings.Contains(err.Error(), `"`+key+`"`) || !strings.Contains(err.Error(), "mount(8)") {
			t.Errorf("CheckMountOptions(%q) = %v, want a refusal naming %q and mount(8)", opt, err, key)
		}
	}
}

func TestCheckMountOptionsNamesEveryRefusedKey(t *testing.T) {
	err := CheckMountOptions([]string{"vers=3.0", "username=bob,password=" + leak, "addr=10.0.0.9"})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, k := range []string{`"username"`, `"password"`, `"addr"`, "secret", "source"} {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("%v: want it to mention %s", err, k)
		}
	}
	if strings.Contains(err.Error(), leak) || strings.Contains(err.Error(), "bob") {
		t.Errorf("%v repeats a value", err)
	}
}

func TestCheckMountOptionsAccepts(t *testing.T) {
	for _, opts := range [][]string{
		nil,
		{},
		{"vers=4.1", "hard", "nolock", "ro"},
		{"vers=3.0,dir_mode=0775,file_mode=0664,gid=1000,uid=0"},
		{"sec=krb5", "sec=sys", "sec=ntlmssp", "sec=krb5:sys", "sec=ntlmv2i"},
		{"nosharesock", "cache=none", "noperm", "nodfs"},
		{"userxattr", "domainauto", "nouser_xattr", "portable", "paths"}, // keys that only start like a refused one
	} {
		if err := CheckMountOptions(opts); err != nil {
			t.Errorf("CheckMountOptions(%q) = %v", opts, err)
		}
	}
}

func TestParseMountOptionsRefusesCredentialsAnywhere(t *testing.T) {
	for _, s := range []string{
		"vers=3.0,password=" + leak,
		"password=" + leak + ",vers=3.0",
		"vers=3.0,hard,Pass=" + leak,
		"vers=3.0,,password=" + leak, // the credential, not the empty option, is reported
	} {
		_, err := ParseMountOptions(s)
		if err == nil || !strings.Contains(err.Error(), "secret") {
			t.Errorf("ParseMountOptions(%q) = %v, want a refusal that points to the secret", s, err)
		}
		if err != nil && strings.Contains(err.Error(), leak) {
			t.Errorf("ParseMountOptions(%q) = %v: repeats the password", s, err)
		}
	}
}

// Syntax errors quote the options, but never a value that may be secret.
func TestParseMountOptionsErrorsDoNotQuoteSecrets(t *testing.T) {
	for _, s := range []string{
		"vers=3.0,,passwd=" + leak,
		"passwd=" + leak + " x",
		"vers=3.0,secret=" + leak + "\x01",
	} {
		_, err := ParseMountOptions(s)
		if err == nil {
			t.Errorf("ParseMountOptions(%q) accepted", s)
			continue
		}
		if strings.Contains(err.Error(), leak) {
			t.Errorf("ParseMountOptions(%q) = %v: repeats the password", s, err)
		}
	}
}

func TestParseShareParamsRefusesCredentialsInMountOptions(t *testing.T) {
	_, err := ParseShareParams(map[string]string{ParamSource: "smb://h/s", ParamMountOptions: "vers=3.0,password=" + leak})
	if err == nil || !strings.Contains(err.Error(), ParamMountOptions) || !strings.Contains(err.Error(), `"password"`) || strings.Contains(err.Error(), leak) {
		t.Fatalf("ParseShareParams = %v, want a refusal naming the parameter and the key only", err)
	}
}

func TestRedactMountOptions(t *testing.T) {
	got := RedactMountOptions([]string{"ro", "vers=3.0,password=" + leak + ",USER=bob", "addr=10.1.2.3", "passwd=" + leak, "sec=none", "guest",
		// a value shows only for a key known to be harmless; a word without
		// one only when it is a known flag (here the tail of a password with
		// a comma in it, and a password pasted on its own)
		"password=a,,b" + leak, leak, "Secret_Key=" + leak, "dir_mode=0775,hard,nconnect=4"})
	want := []string{"ro", "vers=3.0,password=***,USER=***", "addr=***", "passwd=***", "sec=none", "guest",
		"password=***,,***", "***", "Secret_Key=***", "dir_mode=0775,hard,nconnect=4"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("RedactMountOptions = %q, want %q", got, want)
	}
	if RedactMountOptions(nil) != nil {
		t.Fatal("nil in, non-nil out")
	}
}

func TestParseIDWithUserInfoDoesNotEchoThePassword(t *testing.T) {
	for _, id := range []string{
		"v1#smb://alice:" + leak + "@h/share#x#delete",
		"v1#smb://alice:" + leak + "@h/share%zz#x#delete",
		"v1#smb://alice:" + leak + "@h/share#x#never",
		"v1#smb://alice:" + leak + "@h/share#x",
		"v1#smb://alice:" + leak + "@h/share#../x#delete",
	} {
		_, err := ParseID(id)
		if err == nil || strings.Contains(err.Error(), leak) {
			t.Errorf("ParseID(%q) = %v, want an error without the password", id, err)
		}
	}
}
