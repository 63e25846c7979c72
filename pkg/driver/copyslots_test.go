package driver

import "testing"

// Copies take sessions to spare for their extra workers only up to three
// quarters of a share's sessions: however many copies run and however long,
// a quarter stays for CreateVolume and DeleteVolume. The sessions a copy
// cannot do without are bounded by the slots instead and always granted.
func TestCopiesLeaveAQuarterOfTheSessions(t *testing.T) {
	var c copySlots
	if _, err := c.acquire(t.Context(), "s", 16); err != nil {
		t.Fatal(err)
	}
	var gave []func()
	for range 3 {
		done, ok := c.hold("s", 16, false)
		if !ok {
			t.Fatal("a copy was refused a session it cannot do without")
		}
		gave = append(gave, done)
	}
	extras := 0
	for range 20 {
		done, ok := c.hold("s", 16, true)
		if !ok {
			break
		}
		extras++
		gave = append(gave, done)
	}
	if extras != 9 {
		t.Fatalf("copies took %d extra sessions beside their 3, want 9 (12 of 16, 4 left to other calls)", extras)
	}
	if _, ok := c.hold("t", 16, true); !ok {
		t.Fatal("another share's budget was spent by this share's copies")
	}
	gave[0]()
	if _, ok := c.hold("s", 16, true); !ok {
		t.Fatal("a session given back was not counted back")
	}
}
