package share

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

func TestKeptHandlesAreOnlyTheDriversOwnDirectories(t *testing.T) {
	for p, want := range map[string]bool{
		".fileshare-csi":                  true,
		".fileshare-csi/volumes":          true,
		".fileshare-csi/holds/abc":        true,
		".fileshare-csi/deleting":         false, // its entries are volumes on their way out
		".fileshare-csi/deleting/0123":    false,
		".fileshare-csi/holds/abc/def":    false,
		"pvc-1":                           false,
		"ns/.fileshare-csi":               false,
		".fileshare-csi-not-the-metadata": false,
	} {
		if got := keepHandle(p); got != want {
			t.Errorf("keepHandle(%q) = %v, want %v", p, got, want)
		}
	}
}
