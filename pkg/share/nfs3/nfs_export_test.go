package nfs3

import "testing"

func TestExportOfPicksTheLongestExportHoldingThePath(t *testing.T) {
	exports := []string{"/srv", "/srv/share", "/data/", "/srv/shared"}
	for p, want := range map[string]string{
		"/srv/share":     "/srv/share",
		"/srv/share/x/y": "/srv/share",
		"/srv/shared/x":  "/srv/shared",
		"/srv/sharex":    "/srv",
		"/data/x":        "/data",
		"/elsewhere/x":   "/elsewhere/x",
		"/srv":           "/srv",
	} {
		if got := exportOf(p, exports); got != want {
			t.Errorf("exportOf(%q) = %q, want %q", p, got, want)
		}
	}
	if got := exportOf("/a/b", []string{"/"}); got != "/" {
		t.Errorf("a server exporting / roots sessions there, got %q", got)
	}
	if got := exportOf("/a/b", nil); got != "/a/b" {
		t.Errorf("no export list: the source's own path, got %q", got)
	}
}
