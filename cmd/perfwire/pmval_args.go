package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

const pmValUsage = `usage: perfwire pm [-h HOST] val [-t INTERVAL] [-s SAMPLES] [-T END] [-i INSTANCES]
                       [-r] [-f N] [-w N] [--json] METRIC[INSTANCES]

Samples one metric as pmval does: a header, then a line per sample with a
column per instance. Counters are shown as rates (per second; time counters
as utilization) unless -r is given.

  -t INTERVAL  time between samples: a number of seconds, or with a unit
               (500msec, 2sec, 1min, 1hour; Go durations such as 250ms too)
  -s SAMPLES   number of samples (default: until interrupted)
  -T END       stop after this long (a duration as for -t); sets -s
  -i INSTANCES instances to report, separated by commas or spaces
  -r           raw counter values, no rate conversion
  -f N         fixed point output with N digits after the point
  -w N         column width
  --json       one JSON line per sample (schema.PMValSample)

METRIC may name instances as pmParseMetricSpec reads them:
sample.bin[bin-100,bin-200].`

// pmvalOpts are pm val's settings after flag parsing.
type pmvalOpts struct {
	interval time.Duration
	samples  int // -1: until interrupted
	raw      bool
	fixed    int // -1: pmval's adaptive format
	width    int // 0: from the type
	json     bool
	finish   float64 // -T: no sample after this time (seconds since the epoch); 0: none
	metric   string
	insts    []string // nil: every instance
}

func parsePMValArgs(args []string, asJSON bool) (pmvalOpts, error) {
	// pmval's time window starts when its options are read.
	start := time.Now()
	o := pmvalOpts{samples: -1, fixed: -1, json: asJSON}
	fs := quietFlags("pm val")
	interval := fs.String("t", "1", "")
	samples := fs.Int("s", -1, "")
	end := fs.String("T", "", "")
	var insts []string
	fs.Func("i", "", func(s string) error {
		insts = append(insts, splitInstances(s)...)
		return nil
	})
	fs.BoolVar(&o.raw, "r", false, "")
	fs.IntVar(&o.fixed, "f", -1, "")
	fs.IntVar(&o.width, "w", 0, "")
	fs.BoolVar(&o.json, "json", asJSON, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usagef("pm val: %v\n%s", err, pmValUsage)
	}
	if fs.NArg() != 1 {
		return o, usagef("pm val takes one METRIC\n%s", pmValUsage)
	}
	var err error
	if o.interval, err = parseInterval(*interval); err != nil || o.interval <= 0 {
		return o, usagef("pm val: -t %q: not a positive interval", *interval)
	}
	if *samples < -1 || o.width < 0 || o.fixed < -1 {
		return o, usagef("pm val: -s, -w and -f take numbers that are not negative")
	}
	o.samples = *samples
	if *end != "" {
		d, err := parseInterval(*end)
		if err != nil || d < 0 {
			return o, usagef("pm val: -T %q: not an interval", *end)
		}
		if o.samples < 0 {
			// pmval makes one more fetch than whole intervals fit in the
			// window: the sample at its start.
			o.samples = int(d/o.interval) + 1
		}
		// The window still ends at END: a fetch stamped later stops the run.
		o.finish = float64(start.Add(d).UnixNano()) / 1e9
	}
	spec, specInsts, err := parseMetricSpec(fs.Arg(0))
	if err != nil {
		return o, usagef("pm val: %v", err)
	}
	o.metric = spec
	if insts != nil || specInsts != nil {
		o.insts = append(specInsts, insts...)
	}
	return o, nil
}

// splitInstances splits a -i argument as pmval does: names separated by
// commas or white space, each optionally in single or double quotes.
func splitInstances(s string) []string {
	var out []string
	isSep := func(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' }
	for i := 0; i < len(s); {
		for i < len(s) && isSep(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		if q := s[i]; q == '"' || q == '\'' {
			j := strings.IndexByte(s[i+1:], q)
			if j < 0 {
				out = append(out, s[i+1:])
				break
			}
			out = append(out, s[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := i
		for j < len(s) && !isSep(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// parseMetricSpec reads NAME or NAME[inst,inst,...] as pmParseMetricSpec
// does for a live host: instance names separated by commas, each may be
// double-quoted to hold commas or brackets.
func parseMetricSpec(s string) (string, []string, error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		if s == "" {
			return "", nil, errors.New("empty metric name")
		}
		return s, nil, nil
	}
	name := strings.TrimSpace(s[:open])
	if name == "" || !strings.HasSuffix(s, "]") {
		return "", nil, fmt.Errorf("metric spec %q: want NAME[INST,...]", s)
	}
	var insts []string
	body := s[open+1 : len(s)-1]
	for i := 0; i < len(body); {
		for i < len(body) && (body[i] == ' ' || body[i] == ',') {
			i++
		}
		if i == len(body) {
			break
		}
		if body[i] == '"' {
			j := strings.IndexByte(body[i+1:], '"')
			if j < 0 {
				return "", nil, fmt.Errorf("metric spec %q: unterminated quote", s)
			}
			insts = append(insts, body[i+1:i+1+j])
			i += j + 2
			continue
		}
		j := strings.IndexByte(body[i:], ',')
		if j < 0 {
			j = len(body) - i
		}
		insts = append(insts, strings.TrimSpace(body[i:i+j]))
		i += j
	}
	if len(insts) == 0 {
		return "", nil, fmt.Errorf("metric spec %q: empty instance list", s)
	}
	return name, insts, nil
}

// parseInterval reads PCP's interval syntax (a number of seconds with an
// optional unit) and, as a convenience, Go durations.
func parseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return time.ParseDuration(s)
	}
	var unit time.Duration
	switch strings.ToLower(strings.TrimSpace(s[i:])) {
	case "", "s", "sec", "secs", "second", "seconds":
		unit = time.Second
	case "ms", "msec", "msecs", "millisecond", "milliseconds":
		unit = time.Millisecond
	case "us", "usec", "usecs", "microsecond", "microseconds":
		unit = time.Microsecond
	case "ns", "nsec", "nsecs", "nanosecond", "nanoseconds":
		unit = time.Nanosecond
	case "m", "min", "mins", "minute", "minutes":
		unit = time.Minute
	case "h", "hour", "hours":
		unit = time.Hour
	case "d", "day", "days":
		unit = 24 * time.Hour
	default:
		return time.ParseDuration(s)
	}
	return time.Duration(n * float64(unit)), nil
}
