//go:build ignore

// gen_oracle asks the installed libpcp (PCP 6.0.3, through python3-pcp and
// testdata/libpcp_oracle.py) for pmUnitsStr, pmTypeStr, pmSemStr,
// pmErrStr, pmExtractValue and pmConvScale answers on a fixed set of
// inputs, and records them as testdata/libpcp-*.txt, which the unit tests
// compare the package against.
//
// Run it from the pcp directory with: go run gen_oracle.go
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
)

var rng = rand.New(rand.NewPCG(20260611, 6003))

// ask sends the commands to the oracle and writes "command\tanswer" lines.
func ask(file string, cmds []string) {
	cmd := exec.Command("/usr/bin/python3", "testdata/libpcp_oracle.py")
	cmd.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%s: %v", file, err)
	}
	var answers []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		answers = append(answers, sc.Text())
	}
	if len(answers) != len(cmds) {
		log.Fatalf("%s: %d answers for %d commands", file, len(answers), len(cmds))
	}
	var b bytes.Buffer
	for i, c := range cmds {
		fmt.Fprintf(&b, "%s\t%s\n", c, answers[i])
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}

func units() []string {
	var cmds []string
	for d := range 1 << 12 {
		w := uint32(d)<<20 | rng.Uint32()&0xfffff
		cmds = append(cmds, fmt.Sprintf("units %08x", w))
	}
	for range 2000 {
		cmds = append(cmds, fmt.Sprintf("units %08x", rng.Uint32()))
	}
	for sc := range 16 {
		cmds = append(cmds, fmt.Sprintf("units %08x", uint32(sc)<<8))
		cmds = append(cmds, fmt.Sprintf("units %08x", uint32(sc)<<8|0x100000))
	}
	return cmds
}

func text() []string {
	var cmds []string
	for t := -3; t <= 12; t++ {
		cmds = append(cmds, fmt.Sprintf("type %d", t))
	}
	cmds = append(cmds, "type 254", "type 255", "type 256", "type 2147483647", "type -2147483648")
	for s := -1; s <= 6; s++ {
		cmds = append(cmds, fmt.Sprintf("sem %d", s))
	}
	for t := -2; t <= 12; t++ {
		for _, sem := range []int{0, 1, 3, 4, 7} {
			cmds = append(cmds, fmt.Sprintf("desc %d ffffffff %d 00100000", t, sem))
		}
	}
	cmds = append(cmds, "desc 255 07400001 3 1f023000", "desc 0 0740000a 1 00000000",
		"desc 5 11833809 4 01001000", "desc 3 fffffffe 3 fff00000", "desc 1 00000000 -1 00000100")
	for _, w := range values64() {
		cmds = append(cmds, fmt.Sprintf("atom 2 %016x", w), fmt.Sprintf("atom 3 %016x", w), fmt.Sprintf("atom 5 %016x", w))
	}
	for _, w := range values32() {
		cmds = append(cmds, fmt.Sprintf("atom 0 %08x", w), fmt.Sprintf("atom 1 %08x", w), fmt.Sprintf("atom 4 %08x", w))
	}
	for _, n := range []int{0, 1, 3, 4, 5, 11, 12, 13, 36, 37, 38, 39, 60} {
		s := strings.Repeat("4a", n)
		cmds = append(cmds, "atom 6 "+s, "atom 7 "+s)
	}
	cmds = append(cmds, "atom 6 410042", "atom 7 00ff7f80", "atom 6 e282ac")
	for _, c := range []int64{1, 5, 12, 12345, 2147483647, 0, -1, -12362, -21344, -21345, -22345, -2147483648} {
		cmds = append(cmds, fmt.Sprintf("err %d", c))
	}
	return cmds
}

// Interesting 64-bit patterns: integer limits and their neighbours, and
// doubles at and around every truncation limit.
func values64() []uint64 {
	v := []uint64{0, 1, math.MaxUint64, math.MaxInt32, math.MaxInt32 + 1, 1 << 31 * 3,
		uint64(1<<64 - 1<<31), uint64(1<<64 - 1<<31 - 1), math.MaxUint32, math.MaxUint32 + 1,
		math.MaxInt64, 1 << 63, 1<<63 + 1,
		0x7ff0000000000001, 0xfff4000000000000} // signalling NaNs
	for _, f := range []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -1.5, 1e300, -1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), 1 << 31, -(1 << 31), 1<<31 - 1, -(1<<31 - 1),
		1<<31 - 0.5, 1<<31 - 2, 1 << 32, 1<<32 - 1, 1<<32 - 0.5, 1 << 63, -(1 << 63), -(1 << 63) - 4096,
		1 << 64, 1<<64 - 4096, 3.4e38, 3.5e38, 1e-45, 123456789.123} {
		v = append(v, math.Float64bits(f))
	}
	for range 12 {
		v = append(v, rng.Uint64(), rng.Uint64()>>rng.IntN(64))
	}
	return v
}

func values32() []uint32 {
	v := []uint32{0, 1, math.MaxUint32, math.MaxInt32, 1 << 31, 1<<31 + 1, 0xffff,
		0x7f803030, 0xff800001} // signalling NaNs
	for _, f := range []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1.5, -1.5,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1 << 31, -(1 << 31),
		2147483520, -2147483520, 1 << 32, 4294967040, 1 << 63, -(1 << 63), 1 << 64, 9.2233715e18,
		1.8446743e19, 3.4e38, 1e-45, 12345.678} {
		v = append(v, math.Float32bits(f))
	}
	for range 12 {
		v = append(v, rng.Uint32(), rng.Uint32()>>rng.IntN(32))
	}
	return v
}

var outTypes = []int{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 255}

func extract() []string {
	var cmds []string
	for _, in := range []int{0, 1, 4, 255, 2, 3, 5, 6, 7, 9, -1} {
		for _, out := range outTypes {
			for _, w := range values32() {
				cmds = append(cmds, fmt.Sprintf("extract 0 %d %d %08x", in, out, w))
			}
		}
	}
	var b8 [8]byte
	for _, in := range []int{2, 3, 5} {
		for _, out := range outTypes {
			for _, w := range values64() {
				binary.BigEndian.PutUint64(b8[:], w)
				cmds = append(cmds, fmt.Sprintf("extract 1 %d %d %x", in, out, b8[:]))
			}
			cmds = append(cmds, fmt.Sprintf("extract 1 %d %d %x", in, out, b8[:4]),
				fmt.Sprintf("extract 1 %d %d %x", in, out, b8[:7]),
				fmt.Sprintf("extract 1 %d %d %x00", in, out, b8[:]))
		}
	}
	for _, out := range outTypes {
		for _, w := range values32() {
			cmds = append(cmds, fmt.Sprintf("extract 1 4 %d %08x", out, w))
		}
		cmds = append(cmds, fmt.Sprintf("extract 1 4 %d 000000", out),
			fmt.Sprintf("extract 1 4 %d 0000000000000000", out))
	}
	payloads := []string{"", "00", "41", "6869", "686900", "6869004142", "00414243", "ffffffff"}
	for _, in := range []int{6, 7, 8, 9, 10, 0, 1, 255, -1} {
		for _, out := range outTypes {
			for _, p := range payloads {
				cmds = append(cmds, fmt.Sprintf("extract 1 %d %d %s", in, out, p))
			}
		}
	}
	return cmds
}

// randUnits returns a units word with dimensions in −3…3 and mostly valid
// scales; with same set, a second word of the same dimensions.
func randUnits() uint32 {
	dim := func() uint32 { return uint32(rng.IntN(7)-3) & 0xf }
	scale := func(n int) uint32 {
		if rng.IntN(10) == 0 {
			return uint32(rng.IntN(16))
		}
		return uint32(rng.IntN(n))
	}
	return dim()<<28 | dim()<<24 | dim()<<20 | scale(7)<<16 | scale(6)<<12 | (uint32(rng.IntN(13)-6)&0xf)<<8
}

func convscale() []string {
	var cmds []string
	vals := values64()
	for range 3000 {
		in := randUnits()
		out := in&0xfff00000 | randUnits()&0xfff00
		if rng.IntN(20) == 0 {
			out = randUnits()
		}
		t := rng.IntN(8)
		w := vals[rng.IntN(len(vals))]
		switch t {
		case 0, 1, 4:
			w32 := uint32(w)
			if t == 4 {
				w32 = math.Float32bits(float32(math.Float64frombits(w)))
			}
			if rng.IntN(3) == 0 {
				w32 = uint32(rng.IntN(2000) - 1000)
			}
			cmds = append(cmds, fmt.Sprintf("conv %d %08x %08x %08x", t, w32, in, out))
		default:
			if rng.IntN(3) == 0 && t != 5 {
				w = uint64(rng.IntN(2000000) - 1000000)
			}
			cmds = append(cmds, fmt.Sprintf("conv %d %016x %08x %08x", t, w, in, out))
		}
	}
	return cmds
}

func main() {
	ask("testdata/libpcp-units.txt", units())
	ask("testdata/libpcp-text.txt", text())
	ask("testdata/libpcp-extract.txt", extract())
	ask("testdata/libpcp-convscale.txt", convscale())
}
