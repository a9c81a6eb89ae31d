package render

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/internal/wire"
	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/mmv"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/schema"
)

// asTypeErrorOf is ErrorOf as errors.AsType reads an error, through its
// whole tree of Unwrap and As methods: ErrorOf must agree with it on
// every error the SDK's decoders return.
func asTypeErrorOf(err error) *schema.Error {
	e := &schema.Error{Kind: schema.KindUnknown, Message: err.Error(), Offset: -1}
	if k, ok := errors.AsType[*wire.Kind](err); ok {
		e.Kind = k.Code()
	}
	if we, ok := errors.AsType[*wire.Error](err); ok {
		e.Format, e.Field, e.Offset = we.Format, we.Field, we.Offset
	}
	return e
}

// TestErrorOfDecoderErrors: the errors of every decoder the calls run, on
// damaged copies of the captures (PDU bodies, RESULTs with event arrays,
// DLT records, MMV files, label sets, event-record arrays, value
// extraction), the ABI's own and one of the stream shifted, read by
// ErrorOf as errors.AsType reads them.
func TestErrorOfDecoderErrors(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	// Each byte after the header flipped in turn, up to max copies.
	damaged := func(b []byte, from, n int) [][]byte {
		var out [][]byte
		step := max(1, (len(b)-from)/n)
		for i := from; i < len(b); i += step {
			c := bytes.Clone(b)
			c[i] ^= 0xa5
			out = append(out, c)
		}
		return out
	}
	for _, name := range []string{"conv01.client.bin", "conv01.server.bin", "conv05.client.bin", "conv05.server.bin", "conv08.server.bin"} {
		for p, err := range pduwire.All(read(name), pduwire.Options{}) {
			if err != nil {
				break
			}
			for _, b := range damaged(p.Bytes, pduwire.HeaderLen, 200) {
				if t := p.Header.Type; t == pduwire.TypeResult || t == pduwire.TypeHighResResult {
					_, err := pduwire.ParseResult(b)
					add(err)
					add(pduError(p, err))
					continue
				}
				_, err := appendBody(schema.Map{}, p.Header.Type, b, nil)
				add(err)
			}
		}
	}
	for _, name := range []string{"excerpt-irq-strtok-race.dlt", "kpi-odd.dlt"} {
		for _, b := range damaged(read(name), 0, 300) {
			s := dlt.NewScanner(b, dlt.Options{})
			for s.Next() {
				a := s.Message().ArgScanner()
				for a.Next() {
				}
				add(a.Err())
			}
			if err := s.Err(); err != nil {
				add(err)
				add(shiftError(err, 1000))
			}
		}
	}
	for _, name := range []string{"sample1.mmv", "sample2.mmv", "sample3.mmv"} {
		for _, b := range damaged(read(name), 0, 300) {
			_, err := mmv.Parse(b, mmv.Options{})
			add(err)
		}
	}
	for _, b := range damaged(read("parse-10.json"), 0, 200) {
		var s labels.Set
		add(labels.Parse(&s, b, labels.Options{}))
	}
	for _, name := range []string{"conv05.pdu0.HIGHRES_RESULT.29.0.136.inst0.EVENT.bin", "conv05.pdu0.HIGHRES_RESULT.29.0.139.inst0.HIGHRES_EVENT.bin"} {
		for _, b := range damaged(read(name), 0, 200) {
			_, err := eventrec.Parse(b, eventrec.Options{})
			add(err)
		}
	}
	for _, r := range []pcp.Raw{{Insitu: true, Word: 1}, {Block: []byte{1, 2, 3}}, {Block: make([]byte, 8)}} {
		for in := pcp.Type32; in <= pcp.TypeHighResEvent; in++ {
			for out := pcp.Type32; out <= pcp.TypeHighResEvent; out++ {
				_, err := pcp.Extract(r, in, out)
				add(err)
			}
		}
	}
	add(schema.ABIError(schema.ErrBadMode))
	add(schema.ErrBadInput)
	kinds := map[string]int{}
	for _, err := range errs {
		got, want := schema.ErrorOf(err), asTypeErrorOf(err)
		if got.Kind != want.Kind || got.Message != want.Message || got.Format != want.Format || got.Field != want.Field || got.Offset != want.Offset {
			t.Errorf("%v: ErrorOf gives %+v, errors.AsType %+v", err, *got, *want)
		}
		kinds[got.Kind]++
		kinds[got.Format]++
	}
	for _, k := range []string{"pdu_event", "pcp", "truncated", "bad_mode", "bad_input", "dlt", "mmv", "labels", "eventrec", "pduwire"} {
		if kinds[k] == 0 {
			t.Errorf("no error of kind %s among %d: %v", k, len(errs), kinds)
		}
	}
	t.Logf("%d errors: %v", len(errs), kinds)
}
