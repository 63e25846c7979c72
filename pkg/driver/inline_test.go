package driver

import (
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

func TestInlineSourcesAllowOnlyWhatTheyName(t *testing.T) {
	allow, err := ParseInlineSources("nfs://nas/exports/scratch, smb://FS.example.com/Team/Shared,smb://fs2:4450/data")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src, sub string
		want     bool
	}{
		{"nfs://nas/exports/scratch", "", true},
		{"nfs://nas/exports/scratch", "job-1/out", true},
		{"nfs://nas/exports/scratch/job-1", "", true},
		{"nfs://nas/exports/scratch2", "", false},        // not a component prefix
		{"nfs://nas/exports", "scratch", true},           // the same directory, reached through subDir
		{"nfs://nas/exports", "other", false},            // beside it
		{"nfs://nas/exports/Scratch", "", false},         // NFS paths keep their case
		{"nfs://NAS/exports/scratch", "", true},          // host names do not
		{"nfs://nas:2050/exports/scratch", "", false},    // another port
		{"nfs://other/exports/scratch", "", false},       // another server
		{"smb://nas/exports/scratch", "", false},         // another protocol
		{"smb://fs.example.com/team/shared/x", "", true}, // SMB compares without case
		{"smb://fs.example.com/team", "shared", true},    // through subDir
		{"smb://fs.example.com/team", "", false},         // the share above the allowed directory
		{"smb://fs.example.com/team/sharedx", "", false}, // not a component prefix
		{"smb://fs.example.com/other/shared", "", false}, // another share
		{"smb://fs2:4450/data", "anything/below", true},  // a whole share
		{"smb://fs2/data", "", false},                    // the default port is another port
	} {
		src, err := source.Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := allow.Allows(src, c.sub); got != c.want {
			t.Errorf("Allows(%s, %q) = %v, want %v", c.src, c.sub, got, c.want)
		}
	}
	var none InlineSources
	if src, _ := source.Parse("nfs://nas/exports/scratch"); none.Allows(src, "") {
		t.Error("an empty allow-list allows a source")
	}
	if _, err := ParseInlineSources("nfs://nas/a,smb://user:pw@h/s"); err == nil {
		t.Error("credentials in an allowed source were accepted")
	}
}

// Root splits an allowed inline volume into the allowed source, which the
// server resolves, and the path below it, which the node opens itself:
// whole components, SMB names without case (the path below keeps the pod's
// spelling), nothing for a volume of the allowed directory itself.
func TestInlineRootSplitsWhatTheServerResolvesFromWhatTheNodeOpens(t *testing.T) {
	l, err := ParseInlineSources("nfs://nas/exports/scratch,smb://fs/Team/Shared")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src, sub  string
		root, rel string
		ok        bool
	}{
		{"nfs://nas/exports/scratch", "job-1", "nfs://nas/exports/scratch", "job-1", true},
		{"nfs://nas/exports/scratch/a", "b/c", "nfs://nas/exports/scratch", "a/b/c", true},
		{"nfs://nas/exports/scratch", "", "nfs://nas/exports/scratch", "", true},
		{"nfs://nas/exports/scratchy", "", "", "", false},
		{"nfs://nas/exports", "scratch/x", "nfs://nas/exports/scratch", "x", true},
		{"smb://fs/team/shared/Reports", "Q1", "smb://fs/team/Shared", "Reports/Q1", true},
		{"smb://fs/TEAM/SHARED", "", "smb://fs/TEAM/Shared", "", true},
		{"smb://fs/team/sharedx", "", "", "", false},
	} {
		src, err := source.Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		root, rel, ok := l.Root(src, tc.sub)
		if ok != tc.ok || ok && (root.String() != tc.root || rel != tc.rel) {
			t.Errorf("Root(%s, %q) = %s, %q, %v; want %s, %q, %v", tc.src, tc.sub, root.String(), rel, ok, tc.root, tc.rel, tc.ok)
		}
	}
}

// The allowed source's settings hold below it: a pod's source takes them,
// may ask for more encryption, and may not weaken them or name another
// auth or version than the entry sets.
func TestInlineRootKeepsTheAllowedSourcesSettings(t *testing.T) {
	l, err := ParseInlineSources("smb://fs/team?encryption=required,smb://fs/open,nfs://nas/v4?vers=4.1,nfs://nas/any,smb://fs/k?auth=negotiate")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src, root string // root "" when refused
	}{
		{"smb://fs/team/x", "smb://fs/team?encryption=required"},
		{"smb://fs/team/x?encryption=required", "smb://fs/team?encryption=required"},
		{"smb://fs/team/x?encryption=off", ""},
		{"smb://fs/team/x?encryption=preferred", ""},
		{"smb://fs/team/x?auth=negotiate", "smb://fs/team?auth=negotiate&encryption=required"},
		{"smb://fs/open/x?encryption=required", "smb://fs/open?encryption=required"},
		{"smb://fs/open/x?auth=ntlm", "smb://fs/open?auth=ntlm"},
		{"smb://fs/open/x?auth=krb5", "smb://fs/open?auth=krb5"}, // refused later, as Kerberos
		{"smb://fs/k/x", "smb://fs/k?auth=negotiate"},
		{"smb://fs/k/x?auth=ntlm", ""},
		{"nfs://nas/v4/x", "nfs://nas/v4?vers=4.1"},
		{"nfs://nas/v4/x?vers=3", ""},
		{"nfs://nas/any/x?vers=4.1", "nfs://nas/any?vers=4.1"},
	} {
		src, err := source.Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		root, _, ok := l.Root(src, "")
		if ok != (tc.root != "") || ok && root.String() != tc.root {
			t.Errorf("Root(%s) = %s, %v; want %q", tc.src, root.String(), ok, tc.root)
		}
	}
}
