package main

import (
	"bufio"
	"flag"
	"io"
	"os"

	"github.com/perfwire/perfwire/eventrec"
	"github.com/perfwire/perfwire/render"
	"github.com/perfwire/perfwire/schema"
)

const eventsUsage = `usage: perfwire events FILE...

Decodes files each holding one PCP event record array (the value block of
a PM_TYPE_EVENT or PM_TYPE_HIGHRES_EVENT value, from its type/length word)
and prints one JSON object per file: highres and records (sec, nsec,
flags, then missed or params: pmid, type, value), as events_decode returns
them.`

// runEvents implements "perfwire events".
func runEvents(args []string, stdout io.Writer) error {
	fs := quietFlags("events")
	fs.Bool("json", true, "JSON output (the only one)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			_, err := io.WriteString(stdout, eventsUsage+"\n")
			return err
		}
		return usagef("%v\n%s", err, eventsUsage)
	}
	if fs.NArg() == 0 {
		return usagef("no input file\n%s", eventsUsage)
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	out := jsonLines{w: w}
	for _, file := range fs.Args() {
		b, err := os.ReadFile(file)
		if err != nil {
			return &inputError{file: file, err: err}
		}
		if plugin == nil {
			if _, err := eventrec.Parse(b, eventrec.Options{}); err != nil {
				return &inputError{file: file, err: err}
			}
			// What events_decode returns, printed as it is.
			if err := out.raw(render.AppendEvents(nil, b)); err != nil {
				return err
			}
			continue
		}
		var res schema.EventArray
		if err := plugin.callIn(opEventsDecode, b, 0, &res); err != nil {
			return err
		}
		if res.Error != nil {
			return &inputError{file: file, err: errOf(res.Error)}
		}
		if err := out.write(&res); err != nil {
			return err
		}
	}
	return nil
}
