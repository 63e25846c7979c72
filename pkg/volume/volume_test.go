package volume

import (
	"strings"
	"testing"

	"github.com/fileshare-csi/fileshare-csi/pkg/source"
)

func mustSource(t testing.TB, s string) source.Source {
	t.Helper()
	src, err := source.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestIDRoundTrip(t *testing.T) {
	for _, v := range []Volume{
		{Source: mustSource(t, "nfs://10.0.0.5/export"), SubDir: "pvc-1", OnDelete: Delete},
		{Source: mustSource(t, "smb://fs:4450/share/base"), SubDir: "ns/claim", OnDelete: Archive},
		{Source: mustSource(t, "nfs://[::1]/ex#port/100%"), SubDir: "a#b%c", OnDelete: Retain},
		{Source: mustSource(t, "nfs://10.0.0.5:2049/export?vers=4.1"), SubDir: "pvc-2", OnDelete: Delete, UID: "0123456789abcdef"},
		{Source: mustSource(t, "nfs://10.0.0.5/export?vers=3"), SubDir: "pvc-3", OnDelete: Archive},
	} {
		id := v.ID()
		got, err := ParseID(id)
		if err != nil {
			t.Fatalf("ParseID(%q): %v", id, err)
		}
		if got != v {
			t.Fatalf("ParseID(%q) = %+v, want %+v", id, got, v)
		}
	}
	if id := (Volume{Source: mustSource(t, "nfs://10.0.0.5/export"), SubDir: "pvc-1", OnDelete: Delete}).ID(); id != "v1#nfs://10.0.0.5/export#pvc-1#delete" {
		t.Fatalf("ID format changed: %s", id)
	}
	// The pin travels in the ID, so DeleteVolume speaks the version the
	// volume was made with.
	pinned := Volume{Source: mustSource(t, "nfs://10.0.0.5/export?vers=4.1"), SubDir: "pvc-1", OnDelete: Delete, UID: "0123456789abcdef"}
	if id := pinned.ID(); id != "v2#nfs://10.0.0.5/export?vers=4.1#pvc-1#delete#0123456789abcdef" {
		t.Fatalf("pinned ID: %s", id)
	}
}

func TestParseIDRejectsEscapes(t *testing.T) {
	for _, id := range []string{
		"", "v2#nfs://h/e#x#delete", "v1#nfs://h/e#x", "v1#nfs://h/e#x#delete#extra",
		"v1#nfs://h/e#../x#delete", "v1#nfs://h/e#/abs#delete", "v1#nfs://h/e#a//b#delete",
		"v1#nfs://h/e#a/..#delete", "v1#nfs://h/e#.#delete", "v1#nfs://h/e#a%2Fb#delete",
		"v1#nfs://h/e#x#purge", "v1#nfs://h/e#x#", "v1#nfs://h/../e#x#delete", "v1#nfs://h/e#%#delete",
		"v1#nfs://h/e#a\\b#delete", "v1#nfs://h/e#a\nb#delete", "v1#nfs://h/e#.fileshare-csi#delete",
		"v1#smb://h/s#.FILESHARE-CSI/x#delete", "v1#nfs://h/e#.FileShare-CSI#delete",
		// A Windows server, or a Windows node's link, drops trailing
		// periods and spaces: the records directory again.
		"v1#smb://h/s#.fileshare-csi.#delete", "v1#smb://h/s#.FileShare-CSI. ./x#delete",
	} {
		if v, err := ParseID(id); err == nil {
			t.Errorf("ParseID(%q) = %+v, want an error", id, v)
		}
	}
}

func TestParamsTemplating(t *testing.T) {
	p := map[string]string{
		"source":                           "nfs://h/e",
		"subDir":                           "${pvc.metadata.namespace}/${pvc.metadata.name}",
		"onDelete":                         "archive",
		"mountPermissions":                 "2775",
		"csi.storage.k8s.io/pvc/name":      "data",
		"csi.storage.k8s.io/pvc/namespace": "shop",
		"csi.storage.k8s.io/pv/name":       "pvc-123",
	}
	got, err := ParseParams("pvc-123", p)
	if err != nil {
		t.Fatal(err)
	}
	if got.SubDir != "shop/data" || got.OnDelete != Archive || got.MountPermissions != 0o2775 {
		t.Fatalf("ParseParams = %+v", got)
	}
	def, err := ParseParams("pvc-9", map[string]string{"source": "smb://h/s"})
	if err != nil || def.SubDir != "pvc-9" || def.OnDelete != Delete || def.MountPermissions != 0o777 {
		t.Fatalf("defaults = %+v, %v", def, err)
	}
}

func TestParamsRejects(t *testing.T) {
	cases := []struct {
		p    map[string]string
		want string
	}{
		{map[string]string{}, `"source" is required`},
		{map[string]string{"source": "nfs://h/e", "subdir": "x"}, `unknown parameter "subdir"`},
		{map[string]string{"source": "nfs://h/e", "onDelete": "purge"}, "onDelete"},
		{map[string]string{"source": "nfs://h/e", "mountPermissions": "0999"}, "octal"},
		{map[string]string{"source": "nfs://h/e", "mountPermissions": "77777"}, "octal"},
		{map[string]string{"source": "nfs://h/e", "subDir": "../x"}, `".."`},
		{map[string]string{"source": "nfs://h/e", "subDir": "/abs"}, "absolute"},
		{map[string]string{"source": "nfs://h/e", "subDir": "a//b"}, "empty component"},
		{map[string]string{"source": "nfs://h/e", "subDir": "a\x01b"}, "control"},
		{map[string]string{"source": "nfs://h/e", "subDir": "${pvc.metadata.name}"}, "--extra-create-metadata"},
		{map[string]string{"source": "nfs://h/e", "subDir": "${pvc.name}"}, "unknown variable"},
		{map[string]string{"source": "nfs://h/e", "subDir": "${pvc.metadata.name}", "csi.storage.k8s.io/pvc/name": ".."}, "not a plain name"},
		// Names the node would refuse to mount from an SMB share
		// (source.CheckSMBName), refused when the volume is made.
		{map[string]string{"source": "smb://h/s", "subDir": "a/.../b"}, "dots and spaces"},
		{map[string]string{"source": "smb://h/s", "subDir": "x\uf05c/y"}, "private-use"},
		{map[string]string{"source": "smb://h/s", "subDir": "ns-${pvc.metadata.namespace}/ . ", "csi.storage.k8s.io/pvc/namespace": "a"}, "dots and spaces"},
	}
	for _, c := range cases {
		_, err := ParseParams("n", c.p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseParams(%v) = %v, want error containing %q", c.p, err, c.want)
		}
	}
}

func FuzzParseID(f *testing.F) {
	f.Add("v1#nfs://10.0.0.5/export#pvc-1#delete")
	f.Add("v1#smb://h:1/s/b#ns/x#archive")
	f.Add("v1#nfs://[::1]/e%23x#a%25b#retain")
	f.Fuzz(func(t *testing.T, id string) {
		v, err := ParseID(id)
		if err != nil {
			return
		}
		if err := ValidateSubDir(v.SubDir); err != nil {
			t.Fatalf("ParseID(%q) accepted an unsafe subDir %q: %v", id, v.SubDir, err)
		}
		for _, c := range strings.Split(v.SubDir, "/") {
			if c == ".." || c == "." || c == "" {
				t.Fatalf("ParseID(%q) gave subDir %q", id, v.SubDir)
			}
		}
		again, err := ParseID(v.ID())
		if err != nil || again != v {
			t.Fatalf("round trip of %q: %+v, %v", id, again, err)
		}
	})
}
