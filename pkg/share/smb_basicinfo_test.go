package share

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	smb2 "github.com/cloudsoda/go-smb2"
)

// The mirrors in smb_private.go match the go-smb2 that go.mod names: its
// version is the one they were checked against, and its source still
// declares the structs and methods they stand for. When go.mod moves,
// check the structs and update smbPrivateVersion.
func TestSMBPrivateMirrors(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), smbModule+" "+smbPrivateVersion+"\n") {
		t.Fatalf("go.mod does not require %s %s, the version smb_private.go mirrors: check its structs against the new one, then update smbPrivateVersion", smbModule, smbPrivateVersion)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", smbModule).Output()
	if err != nil {
		t.Skipf("go list cannot find the module's source: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	fset := token.NewFileSet()
	structs := map[string][]string{}
	funcs := map[string]string{}
	for _, f := range []string{"internal/smb2/packet.go", "internal/smb2/request.go", "internal/smb2/iface.go", "client.go"} {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						structs[ts.Name.Name] = fieldsOf(t, fset, ts.Type)
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && strings.HasSuffix(f, "client.go") {
					r := d.Recv.List[0]
					funcs[d.Name.Name] = "(" + r.Names[0].Name + " " + goSource(t, fset, r.Type) + ")" + goSource(t, fset, d.Type)
				}
			}
		}
	}
	for theirs, ours := range map[string]any{
		"PacketHeader":   rawHeader{},
		"IoctlRequest":   rawIoctlRequest{},
		"SetInfoRequest": rawSetInfoRequest{},
	} {
		var want []string
		rt := reflect.TypeOf(ours)
		for i := range rt.NumField() {
			f := rt.Field(i)
			typ := map[string]string{"rawHeader": "PacketHeader", "Pointer": "*FileId", "rawEncoder": "Encoder"}[f.Type.Name()]
			if typ == "" {
				typ = f.Type.String()
			}
			if f.Anonymous {
				want = append(want, typ)
			} else {
				want = append(want, f.Name+" "+typ)
			}
		}
		if got := structs[theirs]; !reflect.DeepEqual(got, want) {
			t.Errorf("smb2.%s has fields %q; the mirror has %q", theirs, got, want)
		}
	}
	if got, want := structs["Encoder"], []string{"Size func() int", "Encode func(b []byte)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("smb2.Encoder has methods %q, want %q", got, want)
	}
	for name, want := range map[string]string{
		"ioctl":   "(f *File)func(req *smb2.IoctlRequest) (output []byte, err error)",
		"setInfo": "(f *File)func(req *smb2.SetInfoRequest) (err error)",
	} {
		if funcs[name] != want {
			t.Errorf("(*File).%s is %q, want %q", name, funcs[name], want)
		}
	}
}

// fieldsOf lists a struct's fields (or an interface's methods) as "name
// type", an embedded one as its type.
func fieldsOf(t *testing.T, fset *token.FileSet, e ast.Expr) []string {
	var list *ast.FieldList
	switch e := e.(type) {
	case *ast.StructType:
		list = e.Fields
	case *ast.InterfaceType:
		list = e.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range list.List {
		typ := goSource(t, fset, f.Type)
		if len(f.Names) == 0 {
			out = append(out, typ)
		}
		for _, n := range f.Names {
			out = append(out, n.Name+" "+typ)
		}
	}
	return out
}

func goSource(t *testing.T, fset *token.FileSet, n ast.Node) string {
	var b strings.Builder
	if err := printer.Fprint(&b, fset, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSMBAttr(t *testing.T) {
	when := time.Date(2021, 3, 4, 5, 6, 7, 800, time.UTC)
	for _, tc := range []struct {
		name  string
		st    smb2.FileStat
		typ   EntryType
		attrs uint32
	}{
		{"file", smb2.FileStat{FileAttributes: 0x20 | 0x80}, TypeFile, 0x20},
		{"hidden system read-only file", smb2.FileStat{FileAttributes: 0x1 | 0x2 | 0x4 | 0x200}, TypeFile, 0x1 | 0x2 | 0x4},
		{"directory", smb2.FileStat{FileAttributes: 0x10 | 0x2000}, TypeDir, 0x2000},
		{"symlink", smb2.FileStat{FileAttributes: 0x10 | 0x400, ReparsePointTag: ioReparseTagSymlink}, TypeSymlink, 0},
		{"junction", smb2.FileStat{FileAttributes: 0x10 | 0x400, ReparsePointTag: 0xA0000003}, TypeOther, 0},
	} {
		tc.st.LastWriteTime, tc.st.EndOfFile, tc.st.FileId = when.Local(), 42, 7
		a := smbAttr(&tc.st)
		if a.Type != tc.typ || a.DOSAttributes != tc.attrs || a.Size != 42 || a.ID != 7 || a.ModTime != when || a.HasMode || a.HasOwner {
			t.Errorf("%s: smbAttr = %+v, want a %v with attributes %#x", tc.name, a, tc.typ, tc.attrs)
		}
	}
}

func TestCopychunkLimitsShrink(t *testing.T) {
	l, steps := defaultCopychunkLimits, 0
	for {
		next, ok := l.smaller()
		if !ok {
			break
		}
		if int64(next.chunks)*next.size >= int64(l.chunks)*l.size {
			t.Fatalf("%+v after %+v asks no less", next, l)
		}
		l = next
		steps++
	}
	if l.chunks != 1 || l.size != 64<<10 || steps > 10 {
		t.Fatalf("shrinking ends at %+v after %d steps", l, steps)
	}
}
