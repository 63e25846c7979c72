package source

import (
	"errors"
	"strings"
	"testing"
)

// The password below stands for any secret a user may paste into a source.
const leak = "S3cretLeak"

func TestParseRefusesUserInfoWithoutEchoingIt(t *testing.T) {
	for _, in := range []string{
		"smb://alice:" + leak + "@host/share",
		"SMB://alice:" + leak + "@host:4450/share/base",
		"cifs://alice:" + leak + "@host/share",
		"nfs://u:" + leak + "@h/x",
		"//alice:" + leak + "@host/share",
		`\\alice:` + leak + `@host\share`,
		"u:" + leak + "@h:/export",
		"smb://" + leak + "@host/share", // a token without a user name
		"smb://DOM;alice:" + leak + "@host/share",
		"smb://alice:" + leak + "@@host/share",
		"smb://alice:" + leak + "@host", // no path: still about the credentials
	} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded", in)
			continue
		}
		if !errors.Is(err, ErrCredentials) || !strings.Contains(err.Error(), "credentials do not belong in the source; put them in the secret") {
			t.Errorf("Parse(%q) = %v, want ErrCredentials", in, err)
		}
		if strings.Contains(err.Error(), leak) || strings.Contains(err.Error(), "alice:") {
			t.Errorf("Parse(%q) error repeats the user info: %v", in, err)
		}
	}
}

// Other errors quote the source too; none may quote a password, even one with
// a character that ends the host part early.
func TestParseErrorsNeverEchoAPassword(t *testing.T) {
	for _, in := range []string{
		"smb://alice:" + leak + "/x@host/share",  // unescaped / in the password
		"smb://alice:pw/" + leak + "@host/share", // the secret after the /
		"ftp://alice:" + leak + "@host/share",
		"smb://alice:" + leak + " @host/share", // space
		"nfs://alice:" + leak + "@host/e\x00",
		"smb://a:" + leak + "/@[fd00::1/share",
		"smb://[fd00::1]" + leak + "/x@h/share",
		"nfs://" + leak + ":1/a/../b@h",
		"smb://h/" + leak + "*/x@y",
	} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded", in)
			continue
		}
		if strings.Contains(err.Error(), leak) {
			t.Errorf("Parse(%q) error repeats the password: %v", in, err)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"smb://alice:pw@host/share": "smb://***@host/share",
		"//alice:pw@host/share":     "//***@host/share",
		`\\alice:pw@host\share`:     `\\***@host\share`,
		"u:pw@h:/export":            "***@h:/export",
		"nfs://h/export":            "nfs://h/export",
		"smb://a:p/w@h/s":           "smb://***@h/s",
		"":                          "",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// An @ in a path below the host is not user info: such sources still parse.
func TestParseAcceptsAtSignInPath(t *testing.T) {
	s, err := Parse("smb://host/share/team@example")
	if err != nil || s.Base != "team@example" {
		t.Fatalf("Parse = %+v, %v", s, err)
	}
}
