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
		"sec=none", "sec=ntlm", "sec=ntlmi", "sec=lanman", "sec=krb5:NONE", "sec=sys:none",
		// mixed case and stray spaces, as a YAML list may carry them
		"PASSWORD=" + leak, "UserName=" + leak, " password=" + leak, "Addr=10.1.2.3", "SEC=None", "Guest",
		// value-less and empty-valued forms
		"password", "password=", "user", "credentials", "addr",
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
			key := strings.ToLower(strings.TrimSpace(strings.SplitN(opt, "=", 2)[0]))
			if !strings.Contains(err.Error(), `"`+key) {
				t.Errorf("CheckMountOptions(%q) = %v, want it to name %q", opts, err, key)
			}
			if strings.Contains(err.Error(), leak) || strings.Contains(err.Error(), "10.1.2.3") || strings.Contains(err.Error(), "evil") {
				t.Errorf("CheckMountOptions(%q) = %v: repeats a value", opts, err)
			}
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
		{"clientaddr=10.0.0.1"}, // the node's own callback address
		{"srcaddr=10.0.0.1"},    // the local address the connection leaves from
		{"sec=krb5", "sec=sys", "sec=ntlmssp", "sec=krb5:sys", "sec=ntlmv2i"},
		{"port=4450", "nosharesock", "cache=none", "noperm"},
		{"userxattr", "domainauto"}, // keys that only start like a refused one
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
	got := RedactMountOptions([]string{"ro", "vers=3.0,password=" + leak + ",USER=bob", "addr=10.1.2.3", "passwd=" + leak, "sec=none", "guest"})
	want := []string{"ro", "vers=3.0,password=***,USER=***", "addr=***", "passwd=***", "sec=none", "guest"}
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
