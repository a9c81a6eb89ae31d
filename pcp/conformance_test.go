//go:build conformance

package pcp

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests ask the installed PCP 6.0.3 tools directly: pmerr, and
// libpcp itself through python3-pcp (testdata/libpcp_oracle.py), on inputs
// drawn afresh each run (the seed is logged).

func pmerrOutput(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("pmerr", args...).Output()
	if _, exit := err.(*exec.ExitError); err != nil && !exit || len(out) == 0 {
		t.Fatalf("pmerr %v: %v", args[:min(3, len(args))], err)
	}
	return string(out)
}

func TestConformancePmerr(t *testing.T) {
	checkList(t, pmerrList(t, pmerrOutput(t, "-l")))

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var args []string
	add := func(lo, hi int) {
		for c := lo; c <= hi; c++ {
			args = append(args, strconv.Itoa(c))
		}
	}
	add(-300, 0)
	add(-12460, -12340)
	add(-13400, -13390)
	add(-21400, -21340)
	add(-22350, -22340)
	for range 300 {
		args = append(args, strconv.Itoa(-int(rng.Int32())))
	}
	if n := checkSingle(t, pmerrOutput(t, args...)); n != len(args) {
		t.Errorf("pmerr answered %d of %d codes", n, len(args))
	}
}

// libpcp sends the commands to the python oracle and returns its answers.
func libpcp(t *testing.T, cmds []string) []string {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "testdata/libpcp_oracle.py")
	cmd.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("libpcp oracle (needs /usr/bin/python3 with python3-pcp): %v", err)
	}
	ans := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(ans) != len(cmds) {
		t.Fatalf("oracle gave %d answers for %d commands", len(ans), len(cmds))
	}
	return ans
}

func newRand(t *testing.T) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 2))
}

func TestConformanceLibpcpUnits(t *testing.T) {
	rng := newRand(t)
	words := make([]Units, 5000)
	cmds := make([]string, len(words))
	for i := range words {
		words[i] = Units(rng.Uint32())
		cmds[i] = "units " + strconv.FormatUint(uint64(words[i]), 16)
	}
	for i, want := range libpcp(t, cmds) {
		if got := words[i].String(); got != want {
			t.Errorf("Units(%#08x) = %q, libpcp %q", uint32(words[i]), got, want)
		}
	}
	var cmds2 []string
	for n := -300; n <= 300; n++ {
		cmds2 = append(cmds2, "type "+strconv.Itoa(n), "sem "+strconv.Itoa(n), "err "+strconv.Itoa(n*rng.IntN(100000)))
	}
	descs := make(map[int]Desc)
	for range 300 {
		d := Desc{Type: Type(rng.IntN(16) - 2), InDom: InDom(rng.Uint32()), Sem: Sem(rng.IntN(8) - 1), Units: Units(rng.Uint32())}
		descs[len(cmds2)] = d
		cmds2 = append(cmds2, "desc "+strconv.Itoa(int(d.Type))+" "+strconv.FormatUint(uint64(d.InDom), 16)+" "+
			strconv.Itoa(int(d.Sem))+" "+strconv.FormatUint(uint64(d.Units), 16))
	}
	atoms := make(map[int]Atom)
	for range 600 {
		typ := conformanceTypes[rng.IntN(8)]
		v := rng.Uint64() >> rng.IntN(64)
		var a Atom
		var raw []byte
		switch typ.Size() {
		case 4:
			a = testAtom(typ, v&0xffffffff, nil)
			raw = []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
		case 8:
			a = testAtom(typ, v, nil)
			for i := 56; i >= 0; i -= 8 {
				raw = append(raw, byte(v>>i))
			}
		default:
			raw = make([]byte, rng.IntN(50))
			for i := range raw {
				raw[i] = byte(' ' + rng.IntN(95)) // printable: one answer per line
			}
			a = testAtom(typ, 0, raw)
		}
		atoms[len(cmds2)] = a
		cmds2 = append(cmds2, "atom "+strconv.Itoa(int(typ))+" "+hex.EncodeToString(raw))
	}
	for i, want := range libpcp(t, cmds2) {
		f := strings.Fields(cmds2[i])
		n, _ := strconv.Atoi(f[1])
		var got string
		switch f[0] {
		case "atom":
			got = atoms[i].String()
		case "desc":
			got = strings.ReplaceAll(strings.TrimSuffix(descs[i].String(), "\n"), "\n", "|")
		default:
			got = numberText(f[0], n)
		}
		if got != want {
			t.Errorf("%s = %q, libpcp %q", cmds2[i], got, want)
		}
	}
}

var conformanceTypes = []Type{Type32, TypeU32, Type64, TypeU64, TypeFloat, TypeDouble, TypeString,
	TypeAggregate, TypeAggregateStatic, TypeEvent, TypeHighResEvent, TypeNoSupport, TypeUnknown, 11}

func TestConformanceLibpcpExtract(t *testing.T) {
	rng := newRand(t)
	type input struct {
		r       Raw
		in, out Type
	}
	var inputs []input
	var cmds []string
	for range 5000 {
		in := conformanceTypes[rng.IntN(len(conformanceTypes))]
		out := conformanceTypes[rng.IntN(len(conformanceTypes))]
		if rng.IntN(3) == 0 {
			w := rng.Uint32() >> rng.IntN(32)
			inputs = append(inputs, input{Raw{Insitu: true, Word: w}, in, out})
			cmds = append(cmds, "extract 0 "+strconv.Itoa(int(in))+" "+strconv.Itoa(int(out))+" "+
				strconv.FormatUint(uint64(w)|1<<32, 16)[1:])
			continue
		}
		n := in.Size()
		if n == 0 || rng.IntN(10) == 0 {
			n = rng.IntN(12)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if n == 8 {
			binary.BigEndian.PutUint64(b, rng.Uint64()>>rng.IntN(64))
		}
		inputs = append(inputs, input{Raw{Block: b}, in, out})
		cmds = append(cmds, "extract 1 "+strconv.Itoa(int(in))+" "+strconv.Itoa(int(out))+" "+hex.EncodeToString(b))
	}
	for i, want := range libpcp(t, cmds) {
		x := inputs[i]
		if got := answerOf(Extract(x.r, x.in, x.out)); got != want {
			t.Errorf("%s: we %q, libpcp %q", cmds[i], got, want)
		}
	}
}

func TestConformanceLibpcpConvScale(t *testing.T) {
	rng := newRand(t)
	type input struct {
		a       Atom
		in, out Units
	}
	var inputs []input
	var cmds []string
	for range 300 { // each case forks the oracle: keep the run short
		dims := rng.Uint32() & 0xfff00000
		in := Units(dims | rng.Uint32()&0xfff00)
		out := Units(dims | rng.Uint32()&0xfff00)
		if rng.IntN(10) == 0 {
			out = Units(rng.Uint32())
		}
		v := rng.Uint64() >> rng.IntN(64)
		typ := conformanceTypes[rng.IntN(8)]
		var a Atom
		var b [8]byte
		switch typ.Size() {
		case 4:
			a = testAtom(typ, v&0xffffffff, nil)
			binary.BigEndian.PutUint32(b[:], uint32(v))
		case 8:
			a = testAtom(typ, v, nil)
			binary.BigEndian.PutUint64(b[:], v)
		default:
			a = testAtom(typ, 0, b[:0])
		}
		inputs = append(inputs, input{a, in, out})
		cmds = append(cmds, "conv "+strconv.Itoa(int(typ))+" "+hex.EncodeToString(b[:max(typ.Size(), 1)])+" "+
			strconv.FormatUint(uint64(in), 16)+" "+strconv.FormatUint(uint64(out), 16))
	}
	for i, want := range libpcp(t, cmds) {
		if want == "crash" {
			want = "err " + strconv.Itoa(int(ErrConv))
		}
		x := inputs[i]
		if got := answerOf(ConvScale(x.a, x.in, x.out)); got != want {
			t.Errorf("%s: we %q, libpcp %q", cmds[i], got, want)
		}
	}
}
