package driver

import "testing"

// newTestDriver is New for tests that run a node: what a test leaves
// staged is forgotten at its end. A staged record keeps its credentials in
// root's user keyring on Linux, which outlives the test process: without
// this every run of the package left a score of keys behind.
func newTestDriver(t *testing.T, cfg Config) (*Driver, error) {
	t.Helper()
	d, err := New(cfg)
	if err == nil && cfg.Node {
		t.Cleanup(func() {
			for _, st := range d.nodeState().AllStaged() {
				d.nodeState().DropStaged(st.Request.StagingPath)
			}
		})
	}
	return d, err
}
