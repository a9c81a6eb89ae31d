package main

import (
	"bufio"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfwire/perfwire/dlt"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

const dltUsage = `usage: perfwire dlt [--json] [filters] (FILE.dlt... | --follow HOST[:PORT])

Every DLT message, one line each: by default exactly what dlt-convert -a
prints for the same file (its index in the file, the storage time in the
local time zone, the DLT timestamp, counter, ECU, application and context
IDs, type, level, mode, argument count and the payload text); with --json
one object per message (headers, each verbose argument, the payload text).

filters (all must match):
  --ecu ID           ECU ID
  --app ID           application ID
  --ctx ID           context ID
  --level LEVEL      log messages at this level or more severe: fatal,
                     error, warn, info, debug, verbose
  --type TYPE        log, app_trace, nw_trace or control
  --from TIME        storage time at or after TIME (RFC 3339)
  --to TIME          storage time before TIME (RFC 3339)
  --grep REGEXP      the payload text matches REGEXP (Go syntax)

  --follow HOST[:PORT]  read a running dlt-daemon (port 3490 by default), as
                        dlt-receive does, until interrupted; lines are stamped
                        with the time each message arrived`

var dltLevels = []string{"fatal", "error", "warn", "info", "debug", "verbose"}

// dltFilter selects messages as dlt-viewer's filters do.
type dltFilter struct {
	ecu, app, ctx string
	level         int // 0: any; else the least severe level shown (1 fatal … 6 verbose)
	typ           string
	from, to      time.Time
	grep          *regexp.Regexp
}

func (f *dltFilter) match(m dlt.Message) bool {
	id := func(v dlt.ID) string { return strings.TrimRight(string(v[:]), "\x00") }
	switch {
	case f.ecu != "" && id(m.ECU()) != f.ecu,
		f.app != "" && (!m.HasExtendedHeader() || id(m.AppID()) != f.app),
		f.ctx != "" && (!m.HasExtendedHeader() || id(m.ContextID()) != f.ctx),
		f.typ != "" && (!m.HasExtendedHeader() || m.Type().String() != f.typ),
		f.level != 0 && (!m.HasExtendedHeader() || m.Type() != dlt.TypeLog || int(m.Subtype()) == 0 || int(m.Subtype()) > f.level):
		return false
	}
	if !f.from.IsZero() || !f.to.IsZero() {
		sh := m.StorageHeader()
		t := time.Unix(int64(sh.Seconds), int64(sh.Microseconds)*1000)
		if !f.from.IsZero() && t.Before(f.from) || !f.to.IsZero() && !t.Before(f.to) {
			return false
		}
	}
	return f.grep == nil || f.grep.Match(m.AppendPayloadText(nil))
}

// matchDecoded is match for a message the plugin decoded.
func (f *dltFilter) matchDecoded(d *schema.DLTDecoded) bool {
	m := &d.Message
	switch {
	case f.ecu != "" && m.ECU != f.ecu,
		f.app != "" && (!d.Ext || m.AppID != f.app),
		f.ctx != "" && (!d.Ext || m.ContextID != f.ctx),
		f.typ != "" && (!d.Ext || m.Type != f.typ),
		f.level != 0 && (d.Level == 0 || d.Level > f.level):
		return false
	}
	if !f.from.IsZero() || !f.to.IsZero() {
		t := time.Unix(int64(d.Sec), int64(d.Usec)*1000)
		if !f.from.IsZero() && t.Before(f.from) || !f.to.IsZero() && !t.Before(f.to) {
			return false
		}
	}
	return f.grep == nil || f.grep.Match(d.Text[d.PayloadAt:len(d.Text)-1])
}

func runDLT(args []string, stdout io.Writer) error {
	fs := quietFlags("dlt")
	asJSON := fs.Bool("json", false, "one JSON object per message")
	follow := fs.String("follow", "", "dlt-daemon HOST[:PORT]")
	var f dltFilter
	fs.StringVar(&f.ecu, "ecu", "", "")
	fs.StringVar(&f.app, "app", "", "")
	fs.StringVar(&f.ctx, "ctx", "", "")
	level := fs.String("level", "", "")
	fs.StringVar(&f.typ, "type", "", "")
	from := fs.String("from", "", "")
	to := fs.String("to", "", "")
	grep := fs.String("grep", "", "")
	if done, err := parseOrUsage(fs, args, dltUsage, stdout); done || err != nil {
		return err
	}
	if (*follow == "") == (fs.NArg() == 0) {
		return usagef("give FILE.dlt... or --follow HOST[:PORT], not both\n%s", dltUsage)
	}
	if *level != "" {
		if f.level = slices.Index(dltLevels, *level) + 1; f.level == 0 {
			return usagef("--level %q: want one of %s", *level, strings.Join(dltLevels, ", "))
		}
	}
	if f.typ != "" && !slices.Contains([]string{"log", "app_trace", "nw_trace", "control"}, f.typ) {
		return usagef("--type %q: want log, app_trace, nw_trace or control", f.typ)
	}
	for _, t := range []struct {
		arg string
		to  *time.Time
	}{{*from, &f.from}, {*to, &f.to}} {
		if t.arg == "" {
			continue
		}
		v, err := time.Parse(time.RFC3339Nano, t.arg)
		if err != nil {
			return usagef("--from and --to take RFC 3339 times (2026-11-22T02:52:12Z): %v", err)
		}
		*t.to = v
	}
	if *grep != "" {
		re, err := regexp.Compile(*grep)
		if err != nil {
			return usagef("--grep: %v", err)
		}
		f.grep = re
	}
	if *follow != "" && plugin != nil {
		return usagef("--follow reads a daemon natively: run it without --plugin")
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	p := &dltPrinter{w: w, f: &f, json: *asJSON, out: jsonLines{w: w}}
	if *follow != "" {
		return p.follow(*follow)
	}
	for _, name := range fs.Args() {
		file := p.file
		if plugin != nil {
			file = p.fileInPlugin
		}
		if err := file(name); err != nil {
			return err
		}
	}
	return nil
}

// dltPrinter prints the messages that pass its filter.
type dltPrinter struct {
	w    *bufio.Writer
	f    *dltFilter
	json bool
	out  jsonLines
	line []byte
	dw   render.DLTWriter // --json: each message's DLTMessage, written in place into msg
	msg  []byte
}

// print writes the index-th message of its input.
func (p *dltPrinter) print(m dlt.Message, index int) error {
	if !p.f.match(m) {
		return nil
	}
	if p.json {
		p.msg = p.dw.AppendMessage(p.msg[:0], m, index)
		return p.out.raw(p.msg)
	}
	b := strconv.AppendInt(p.line[:0], int64(index), 10)
	b = append(b, ' ')
	at := len(b)
	b, _ = m.AppendText(b)
	// AppendText writes the storage time in UTC; dlt-convert prints it in
	// the local time zone, as the 19 characters "2006/01/02 15:04:05".
	if time.Local != time.UTC {
		local := time.Unix(int64(m.StorageHeader().Seconds), 0).Format("2006/01/02 15:04:05")
		copy(b[at:], local)
	}
	p.line = append(b, '\n')
	_, err := p.w.Write(p.line)
	return err
}

// fileInPlugin is file with the decode inside the wasip1 module
// (dlt_decode, in the dlt module): the messages come with their JSON,
// their dlt-convert line and what the filter reads.
func (p *dltPrinter) fileInPlugin(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return &inputError{file: name, err: err}
	}
	var res schema.DLTDecode
	if err := plugin.callIn(opDLTDecode, data, 0, &res); err != nil {
		return err
	}
	if len(res.Messages) == 0 && res.Error != nil && res.Error.Kind == schema.ErrNotBuilt.Code() {
		return errOf(res.Error)
	}
	for i := range res.Messages {
		if err := p.printDecoded(&res.Messages[i]); err != nil {
			return err
		}
	}
	var first error
	if res.SkipError != nil {
		first = errOf(res.SkipError)
	}
	reportSkipped(name, res.SkippedBytes, res.SkippedPlaces, first)
	err = nil
	if res.Error != nil {
		err = &inputError{file: name, err: errOf(res.Error)}
	}
	if ferr := p.w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// printDecoded is print for a message the plugin decoded.
func (p *dltPrinter) printDecoded(d *schema.DLTDecoded) error {
	if !p.f.matchDecoded(d) {
		return nil
	}
	if p.json {
		return p.out.write(&d.Message)
	}
	b := strconv.AppendInt(p.line[:0], int64(d.Message.Index), 10)
	b = append(b, ' ')
	at := len(b)
	b = append(b, d.Text...)
	if time.Local != time.UTC {
		copy(b[at:], time.Unix(int64(d.Sec), 0).Format("2006/01/02 15:04:05"))
	}
	p.line = append(b, '\n')
	_, err := p.w.Write(p.line)
	return err
}

func (p *dltPrinter) file(name string) error {
	_, _, err := readDLTFile(name, func(i int, m dlt.Message) (bool, error) {
		return true, p.print(m, i)
	})
	if ferr := p.w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// follow prints a running daemon's messages as they arrive, each with a
// storage header stamped on arrival, as dlt-receive writes them.
func (p *dltPrinter) follow(addr string) error {
	var rec []byte
	i := 0
	return followDaemon(addr, func(m dlt.Message) bool {
		rec = storageRecord(rec[:0], m, time.Now())
		sm, _, err := dlt.ConsumeMessage(rec, dlt.Options{})
		if err != nil || p.print(sm, i) != nil || p.w.Flush() != nil {
			return false
		}
		i++
		return true
	})
}
