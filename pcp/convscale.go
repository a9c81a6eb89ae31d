package pcp

// Canonical units of pmConvScale: scale factors are expressed relative to
// Mbyte and second, as a multiplier and a divisor per scale step.
var (
	spaceToMB = [...]struct{ m, d int64 }{
		SpaceByte:  {1, 1 << 20},
		SpaceKByte: {1, 1 << 10},
		SpaceMByte: {1, 1},
		SpaceGByte: {1 << 10, 1},
		SpaceTByte: {1 << 20, 1},
		SpacePByte: {1 << 30, 1},
		SpaceEByte: {1 << 40, 1},
	}
	timeToSec = [...]struct{ m, d int64 }{
		TimeNSec: {1, 1e9},
		TimeUSec: {1, 1e6},
		TimeMSec: {1, 1e3},
		TimeSec:  {1, 1},
		TimeMin:  {60, 1},
		TimeHour: {3600, 1},
	}
)

// ConvScale rescales a from units in to units out, as libpcp's
// pmConvScale does. The dimensions of in and out must be identical, else
// it fails with [ErrConv]; a space scale above Ebyte or a time scale above
// hour fails with [ErrUnit]; only numeric atoms convert (others fail with
// [ErrConv]).
//
// The factor is a multiplier and a divisor relative to the canonical
// Mbyte and second, raised to each dimension's power in 64-bit two's
// complement arithmetic that wraps on overflow, and reduced only when the
// divisor divides the multiplier. Integers become (v·mult + div/2) / div,
// truncated toward zero, keeping the low 32 bits for 32 and U32 outputs
// (so −0.5 rounds to 0); FLOAT and DOUBLE values are multiplied by
// mult/div computed in their own precision. All of this is what libpcp
// computes, wrap-around included. Where the factors of high powers wrap to
// a zero divisor, for which libpcp divides by zero, ConvScale fails with
// [ErrConv].
func ConvScale(a Atom, in, out Units) (Atom, error) {
	if in.DimSpace() != out.DimSpace() || in.DimTime() != out.DimTime() || in.DimCount() != out.DimCount() {
		return Atom{}, ErrConv
	}
	mult, div, err := scaleFactors(in, out)
	if err != nil {
		return Atom{}, err
	}
	if div == 0 {
		return Atom{}, ErrConv
	}
	if mult%div == 0 {
		mult /= div
		div = 1
	}
	switch a.Type() {
	case Type32:
		return AtomInt32(int32((int64(a.Int32())*mult + div/2) / div)), nil
	case TypeU32:
		return AtomUint32(uint32((int64(a.Uint32())*mult + div/2) / div)), nil
	case Type64:
		return AtomInt64((a.Int64()*mult + div/2) / div), nil
	case TypeU64:
		return AtomUint64((a.Uint64()*uint64(mult) + uint64(div/2)) / uint64(div)), nil
	case TypeFloat:
		return AtomFloat32(a.Float32() * (float32(mult) / float32(div))), nil
	case TypeDouble:
		return AtomFloat64(a.Float64() * (float64(mult) / float64(div))), nil
	}
	return Atom{}, ErrConv
}

// scaleFactors returns the multiplier and divisor taking a value in in's
// scales to out's, each dimension's factor raised to its power.
func scaleFactors(in, out Units) (mult, div int64, err error) {
	mult, div = 1, 1
	// raise folds one dimension's per-unit factors m/d into mult/div.
	raise := func(dim int, m, d int64) {
		for k := 0; k < dim; k++ {
			div *= d
			mult *= m
		}
		for k := dim; k < 0; k++ {
			mult *= d
			div *= m
		}
	}
	if dim := in.DimSpace(); dim != 0 {
		si, so := in.ScaleSpace(), out.ScaleSpace()
		if si >= uint(len(spaceToMB)) || so >= uint(len(spaceToMB)) {
			return 0, 0, ErrUnit
		}
		f, g := spaceToMB[si], spaceToMB[so]
		raise(dim, f.m*g.d, f.d*g.m)
	}
	if dim := in.DimTime(); dim != 0 {
		si, so := in.ScaleTime(), out.ScaleTime()
		if si >= uint(len(timeToSec)) || so >= uint(len(timeToSec)) {
			return 0, 0, ErrUnit
		}
		f, g := timeToSec[si], timeToSec[so]
		raise(dim, f.m*g.d, f.d*g.m)
	}
	dim := in.DimCount()
	if dim == 0 && (in.DimSpace() != 0 || in.DimTime() != 0) {
		return mult, div, nil
	}
	// Count scales are powers of ten; dimensionless units still honour
	// them, with the factor applied once.
	m, d := int64(1), int64(1)
	for k := in.ScaleCount(); k < 0; k++ {
		d *= 10
	}
	for k := 0; k < in.ScaleCount(); k++ {
		m *= 10
	}
	for k := out.ScaleCount(); k < 0; k++ {
		m *= 10
	}
	for k := 0; k < out.ScaleCount(); k++ {
		d *= 10
	}
	if dim == 0 {
		return m, d, nil
	}
	raise(dim, m, d)
	return mult, div, nil
}
