package archive

import (
	"errors"
	"testing"
)

// check fails the fuzz run for an error that is not a *ParseError: damage
// must be reported as a typed error with a file and an offset.
func check(t *testing.T, err error) {
	var pe *ParseError
	if err != nil && !errors.As(err, &pe) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
}

// FuzzMeta opens arbitrary bytes as the .meta of an archive with real
// volumes, seeded with pmlogger's .meta files of both versions.
func FuzzMeta(f *testing.F) {
	m2, m3 := load(f, "m2"), load(f, "m3")
	f.Add(m2.meta)
	f.Add(m3.meta)
	f.Fuzz(func(t *testing.T, meta []byte) {
		a, err := files{meta: meta, index: m3.index, vols: m3.vols}.open(Options{MaxRecordLen: 1 << 20})
		check(t, err)
		if err == nil {
			_, err = scanAll(a)
			check(t, err)
			_, err = a.Index()
			check(t, err)
			_, err = a.End()
			check(t, err)
		}
	})
}

// FuzzVolume reads arbitrary bytes as data volume 0 of a real archive,
// seeded with pmlogger's volumes.
func FuzzVolume(f *testing.F) {
	m2, m3 := load(f, "m2"), load(f, "m3")
	for _, v := range append(m2.vols, m3.vols...) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, vol []byte) {
		for _, base := range []files{m2, m3} {
			a, err := files{meta: base.meta, index: base.index, vols: [][]byte{vol}}.open(Options{MaxRecordLen: 1 << 20})
			check(t, err)
			if err != nil {
				continue
			}
			s := a.NewScanner()
			for s.Next() {
				vs := s.Record().Result.Scan()
				for vs.Next() {
					v := vs.ValueSet()
					for j := range v.Len() {
						if x := v.Value(j); x.Block() {
							_, _ = x.Events()
						}
					}
				}
			}
			check(t, s.Err())
			_, err = a.End()
			check(t, err)
		}
	})
}

// FuzzIndex reads arbitrary bytes as the temporal index.
func FuzzIndex(f *testing.F) {
	m2, m3 := load(f, "m2"), load(f, "m3")
	f.Add(m2.index)
	f.Add(m3.index)
	f.Fuzz(func(t *testing.T, index []byte) {
		for _, base := range []files{m2, m3} {
			a, err := files{meta: base.meta, index: index, vols: base.vols}.open(Options{})
			check(t, err)
			if err == nil {
				_, err = a.Index()
				check(t, err)
			}
		}
	})
}
