package winpath

import "testing"

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		`c:\var\lib\kubelet\`:            `c:\var\lib\kubelet`,
		`c:/var/lib//kubelet`:            `c:\var\lib\kubelet`,
		`C:\`:                            `C:\`,
		`C:`:                             `C:\`,
		`\\?\UNC\fs\share\vol\`:          `\\fs\share\vol`,
		`\??\UNC\fs\share\vol`:           `\\fs\share\vol`,
		`\\?\unc\fs\share`:               `\\fs\share`,
		`\\?\C:\var\lib`:                 `C:\var\lib`,
		`\??\C:\var\lib\`:                `C:\var\lib`,
		`//fs/share/base/`:               `\\fs\share\base`,
		`\\fs\\share`:                    `\\fs\share`,
		``:                               ``,
		`relative\dir\`:                  `relative\dir`,
		`\\fd00--5.ipv6-literal.net\s\x`: `\\fd00--5.ipv6-literal.net\s\x`,
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDirAndBase(t *testing.T) {
	for _, tc := range []struct{ in, dir, base string }{
		{`c:\var\lib\kubelet\plugins\kubernetes.io\csi\d\h1\globalmount`, `c:\var\lib\kubelet\plugins\kubernetes.io\csi\d\h1`, "globalmount"},
		{`c:\var`, `c:\`, "var"},
		{`c:\`, `c:\`, `c:\`},
		{`\\fs\share\base`, `\\fs\share`, "base"},
		{`\\fs\share`, `\\fs\share`, "share"},
		{`name`, ".", "name"},
	} {
		if got := Dir(tc.in); got != tc.dir {
			t.Errorf("Dir(%q) = %q, want %q", tc.in, got, tc.dir)
		}
		if got := Base(tc.in); got != tc.base {
			t.Errorf("Base(%q) = %q, want %q", tc.in, got, tc.base)
		}
	}
}

func TestShareRoot(t *testing.T) {
	for in, want := range map[string]string{
		`\\fs\share`:                   `\\fs\share`,
		`\\fs\share\base\vol\`:         `\\fs\share`,
		`\\?\UNC\fs.example.com\s\a\b`: `\\fs.example.com\s`,
	} {
		got, err := ShareRoot(in)
		if err != nil || got != want {
			t.Errorf("ShareRoot(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`c:\var`, `\\fs`, `\\fs\`, ``} {
		if got, err := ShareRoot(bad); err == nil {
			t.Errorf("ShareRoot(%q) = %q, want an error", bad, got)
		}
	}
}

func TestEqualAndWithin(t *testing.T) {
	if !Equal(`\\?\UNC\FS\Share\Vol\`, `//fs/share/vol`) {
		t.Error("long UNC form with trailing backslash and a slash form of the same path differ")
	}
	if Equal(`\\fs\share\vol`, `\\fs\share\vol2`) {
		t.Error("different paths are equal")
	}
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{`\\?\UNC\fs\share\base\vol\`, `\\fs\share`, true},
		{`\\fs\SHARE`, `\\fs\share`, true},
		{`\\fs\share2\vol`, `\\fs\share`, false},
		{`\\fs2\share\vol`, `\\fs\share`, false},
		{`c:\var\lib`, `c:\`, true},
	} {
		if got := Within(tc.p, tc.dir); got != tc.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tc.p, tc.dir, got, tc.want)
		}
	}
}

func TestUNC(t *testing.T) {
	for _, tc := range []struct {
		host, share string
		rel         []string
		want        string
	}{
		{"fs.example.com", "share", []string{"base/deeper", "ns/claim"}, `\\fs.example.com\share\base\deeper\ns\claim`},
		{"fs", "share", []string{"", ""}, `\\fs\share`},
		{"10.0.0.5", "s", nil, `\\10.0.0.5\s`},
		{"fd00::5", "s", []string{"v"}, `\\fd00--5.ipv6-literal.net\s\v`},
		{"fe80::1%4", "s", nil, `\\fe80--1s4.ipv6-literal.net\s`},
	} {
		if got := UNC(tc.host, tc.share, tc.rel...); got != tc.want {
			t.Errorf("UNC(%q, %q, %q) = %q, want %q", tc.host, tc.share, tc.rel, got, tc.want)
		}
	}
}
