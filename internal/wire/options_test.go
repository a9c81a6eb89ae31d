package wire

import "testing"

func TestDefault(t *testing.T) {
	if got := Default(0, 7); got != 7 {
		t.Errorf("Default(0, 7) = %d, want 7", got)
	}
	if got := Default(-1, 7); got != 7 {
		t.Errorf("Default(-1, 7) = %d, want 7", got)
	}
	if got := Default(3, 7); got != 3 {
		t.Errorf("Default(3, 7) = %d, want 3", got)
	}
	if got := Default(uint32(0), 600000); got != 600000 {
		t.Errorf("Default(uint32(0), 600000) = %d", got)
	}
	if got := Default(uint32(1<<31), 5); got != 1<<31 {
		t.Errorf("Default(1<<31, 5) = %d: a large unsigned value is not negative", got)
	}
}
