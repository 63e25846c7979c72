package driver

import "testing"

// wantMetric checks the value of the node's series name with labels.
func wantMetric(t *testing.T, d *Driver, name string, labels map[string]string, want float64) {
	t.Helper()
	fams, err := d.cfg.Metrics.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if v, ok := labels[l.GetName()]; ok && v != l.GetValue() {
					continue next
				}
			}
			got := m.GetGauge().GetValue() + m.GetCounter().GetValue()
			if got != want {
				t.Errorf("%s%v = %v, want %v", name, labels, got, want)
			}
			return
		}
	}
	t.Errorf("%s%v: no such series", name, labels)
}
