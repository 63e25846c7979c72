package volume

import (
	"slices"
	"strings"
	"testing"
)

func TestNFSVersionOptions(t *testing.T) {
	cases := []struct {
		src  string
		opts []string
		want []string
		err  string
	}{
		{"nfs://h/e", []string{"hard"}, []string{"hard"}, ""},
		{"nfs://h/e?vers=4.1", nil, []string{"vers=4.1"}, ""},
		{"nfs://h/e?vers=4.1", []string{"hard,timeo=600"}, []string{"hard,timeo=600", "vers=4.1"}, ""},
		{"nfs://h/e?vers=3", []string{"nolock"}, []string{"nolock", "vers=3"}, ""},
		{"nfs://h/e?vers=4.1", []string{"vers=4.1"}, []string{"vers=4.1"}, ""},
		{"nfs://h/e?vers=4.1", []string{"hard,NFSVERS=4.2"}, []string{"hard,NFSVERS=4.2"}, ""},
		{"nfs://h/e?vers=4.1", []string{"vers=4", "minorversion=1"}, []string{"vers=4", "minorversion=1"}, ""},
		{"nfs://h/e?vers=3", []string{"nfsvers=3"}, []string{"nfsvers=3"}, ""},
		{"nfs://h/e?vers=4.1", []string{"hard,vers=3"}, nil, "vers=3 conflicts with the source's vers=4.1"},
		{"nfs://h/e?vers=3", []string{"nfsvers=4.1"}, nil, "nfsvers=4.1 conflicts with the source's vers=3"},
		{"smb://h/s", []string{"vers=3.0"}, []string{"vers=3.0"}, ""},
		// nfs(5)'s short flags name a version too, and every one is
		// checked: a second option of another version is no less one.
		{"nfs://h/e?vers=4.1", []string{"v4.1"}, []string{"v4.1"}, ""},
		{"nfs://h/e?vers=4.1", []string{"hard,v3"}, nil, "v3 conflicts with the source's vers=4.1"},
		{"nfs://h/e?vers=4.1", []string{"vers=4.1,v3"}, nil, "v3 conflicts with the source's vers=4.1"},
		{"nfs://h/e?vers=3", []string{"nfsvers=3", "vers=4.2"}, nil, "vers=4.2 conflicts with the source's vers=3"},
	}
	for _, c := range cases {
		got, err := NFSVersionOptions(mustSource(t, c.src), c.opts)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %v: got %v, %v; want an error containing %q", c.src, c.opts, got, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s %v: got %v, %v; want %v", c.src, c.opts, got, err, c.want)
		}
	}
	// The caller's slice is not written to.
	opts := make([]string, 1, 4)
	opts[0] = "hard"
	if _, err := NFSVersionOptions(mustSource(t, "nfs://h/e?vers=4.1"), opts); err != nil || len(opts[:cap(opts)][1]) != 0 {
		t.Errorf("the caller's options were changed: %v", opts[:cap(opts)])
	}
}

func TestParamsRefuseAConflictingVersion(t *testing.T) {
	_, err := ParseShareParams(map[string]string{"source": "nfs://h/e?vers=4.1", "mountOptions": "vers=3"})
	if err == nil || !strings.Contains(err.Error(), "conflicts") {
		t.Fatalf("a class pinned to 4.1 with mountOptions vers=3: %v, want a conflict", err)
	}
	if _, err := ParseShareParams(map[string]string{"source": "nfs://h/e?vers=4.1", "mountOptions": "hard"}); err != nil {
		t.Fatal(err)
	}
}
