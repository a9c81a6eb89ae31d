// Package simple is PCP's "simple" PMDA written on package pmda: the same
// metrics (domain 253), instance domains, labels and store behaviour as
// the C PMDA PCP ships as its programming example. Main runs it as pmcd
// starts a PMDA; perfwire pmda simple and pmda/example/simple call it.
//
// Help text is read at start-up from the installed C PMDA's help file,
// since its wording is PCP's; without that file the metrics have no help.
package simple

import (
	"context"
	"flag"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmda"
)

// Domain is the simple PMDA's domain number.
const Domain = 253

// Main runs the PMDA with the command-line arguments pmcd passes to a
// daemon PMDA: -d DOMAIN, -l LOGFILE, and -i PORT or -u PATH to listen on
// a TCP port or a unix socket instead of talking over stdin and stdout.
// -dir names the directory of simple.conf and help (default
// $PCP_PMDAS_DIR/simple), -helpfile another help file, and -capture FILE
// appends every PDU pmcd sends to FILE. Diagnostics go to stderr, which pmcd sends to
// the PMDA's log.
func Main(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("simple", flag.ContinueOnError)
	fs.SetOutput(stderr)
	domain := fs.Int("d", Domain, "domain number")
	logfile := fs.String("l", "", "log file (default stderr)")
	port := fs.Int("i", 0, "listen on this TCP port")
	sock := fs.String("u", "", "listen on this unix socket")
	fs.Bool("p", true, "talk to pmcd over stdin/stdout (the default)")
	fs.String("U", "", "user to run as (ignored: pmcd starts the PMDA as its own user)")
	dir := fs.String("dir", pmdasDir(), "directory of simple.conf and help")
	help := fs.String("helpfile", "", "help text file (default DIR/help)")
	capture := fs.String("capture", "", "append every PDU read from pmcd to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log.SetOutput(stderr)
	if *logfile != "" {
		f, err := os.OpenFile(*logfile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		log.SetOutput(f)
	}
	if *help == "" {
		*help = filepath.Join(*dir, "help")
	}
	var opt func(*pmda.Options)
	if *capture != "" {
		f, err := os.OpenFile(*capture, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		opt = func(o *pmda.Options) { o.Capture = f }
	}
	a, err := newSimple(filepath.Join(*dir, "simple.conf")).agent(*domain, *help, opt)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	switch {
	case *port != 0:
		err = listen(ctx, a, "tcp", ":"+strconv.Itoa(*port))
	case *sock != "":
		os.Remove(*sock)
		err = listen(ctx, a, "unix", *sock)
	default:
		err = a.ServePipe(ctx)
	}
	if err == context.Canceled {
		err = nil
	}
	return err
}

// New returns the agent, its "now" instance domain read from conf and its
// help text from helpFile (a newhelp source file; "" or a missing file is
// no help).
func New(domain int, conf, helpFile string) (*pmda.Agent, error) {
	return newSimple(conf).agent(domain, helpFile, nil)
}

func listen(ctx context.Context, a *pmda.Agent, network, addr string) error {
	ln, err := net.Listen(network, addr)
	if err != nil {
		return err
	}
	return a.ServeListener(ctx, ln)
}

// pmdasDir is $PCP_PMDAS_DIR/simple, where the C PMDA keeps simple.conf.
func pmdasDir() string {
	if d := os.Getenv("PCP_PMDAS_DIR"); d != "" {
		return filepath.Join(d, "simple")
	}
	return "/var/lib/pcp/pmdas/simple"
}

// Clusters and items, as the C PMDA numbers them.
var (
	numfetchID = pcp.NewID(0, 0, 0)
	colorID    = pcp.NewID(0, 0, 1)
	userID     = pcp.NewID(0, 1, 2)
	sysID      = pcp.NewID(0, 1, 3)
	nowID      = pcp.NewID(0, 2, 4)
)

const (
	colorInDom = 0
	nowInDom   = 1
)

// timeslice is one instance the configuration file may name.
type timeslice struct {
	name  string
	field func(time.Time) int
}

var timeslices = []timeslice{
	{"sec", func(t time.Time) int { return t.Second() }},
	{"min", func(t time.Time) int { return t.Minute() }},
	{"hour", func(t time.Time) int { return t.Hour() }},
}

// simple holds the PMDA's state. Callbacks run one at a time, but the
// agent may abandon an overrunning one, so the state is locked.
type simple struct {
	conf string
	a    *pmda.Agent

	mu       sync.Mutex
	numfetch uint32
	rgb      [3]int32
	now      time.Time
	usr, sys float64
	oldfetch uint32
	mtime    time.Time
	ids      map[string]int32 // instance numbers stay with their names, as pmdaCache keeps them
	active   map[int32]*timeslice
}

func newSimple(conf string) *simple {
	return &simple{conf: conf, rgb: [3]int32{0, 100, 200}, ids: map[string]int32{}, active: map[int32]*timeslice{}}
}

func (s *simple) agent(domain int, helpFile string, opt func(*pmda.Options)) (*pmda.Agent, error) {
	none := pcp.Units(0)
	sec := pcp.NewUnits(0, 1, 0, 0, pcp.TimeSec, 0)
	o := pmda.Options{
		Domain:       domain,
		Name:         "simple",
		DomainLabels: `{"role":"testing"}`,
		Metrics: []pmda.Metric{
			{Name: "simple.numfetch", PMID: numfetchID, Type: pcp.TypeU32, Sem: pcp.SemInstant, Units: none, InDom: pcp.InDomNull, Writable: true},
			{Name: "simple.color", PMID: colorID, Type: pcp.Type32, Sem: pcp.SemInstant, Units: none, InDom: pcp.NewInDom(0, colorInDom), Writable: true},
			{Name: "simple.time.user", PMID: userID, Type: pcp.TypeDouble, Sem: pcp.SemCounter, Units: sec, InDom: pcp.InDomNull},
			{Name: "simple.time.sys", PMID: sysID, Type: pcp.TypeDouble, Sem: pcp.SemCounter, Units: sec, InDom: pcp.InDomNull},
			{Name: "simple.now", PMID: nowID, Type: pcp.TypeU32, Sem: pcp.SemInstant, Units: none, InDom: pcp.NewInDom(0, nowInDom)},
		},
		InDoms: []pmda.InDom{
			{InDom: pcp.NewInDom(0, colorInDom), Labels: `{"indom_name":"color","model":"RGB"}`,
				Instances: []pmda.Instance{{ID: 0, Name: "red"}, {ID: 1, Name: "green"}, {ID: 2, Name: "blue"}}},
			{InDom: pcp.NewInDom(0, nowInDom), Labels: `{"indom_name":"time","unitsystem":"SI"}`},
		},
		Refresh:  s.refresh,
		Fetch:    s.fetch,
		Store:    s.store,
		Instance: s.instance,
		Logf:     func(f string, args ...any) { log.Printf(f, args...) },
	}
	if helpFile != "" {
		if src, err := os.ReadFile(helpFile); err == nil {
			applyHelp(&o, pmda.ParseHelp(src))
		} else {
			log.Printf("no help text: %v", err)
		}
	}
	if opt != nil {
		opt(&o)
	}
	a, err := pmda.New(o)
	if err != nil {
		return nil, err
	}
	s.a = a
	s.check()
	return a, nil
}

// applyHelp fills the texts of metrics by name and of instance domains by
// SIMPLE.serial (or DOMAIN.serial).
func applyHelp(o *pmda.Options, h map[string]pmda.HelpText) {
	for i := range o.Metrics {
		if t, ok := h[o.Metrics[i].Name]; ok {
			o.Metrics[i].OneLine, o.Metrics[i].Help = t.OneLine, t.Help
		}
	}
	for i := range o.InDoms {
		serial := strconv.Itoa(int(o.InDoms[i].InDom.Serial()))
		for _, key := range []string{"SIMPLE." + serial, strconv.Itoa(o.Domain) + "." + serial} {
			if t, ok := h[key]; ok {
				o.InDoms[i].OneLine, o.InDoms[i].Help = t.OneLine, t.Help
			}
		}
	}
}

func (s *simple) refresh(ctx context.Context, _ []pcp.ID) error {
	s.mu.Lock()
	s.numfetch++
	s.now = time.Now()
	s.mu.Unlock()
	s.check()
	return nil
}

func (s *simple) instance(ctx context.Context, indom pcp.InDom) error {
	s.check()
	return nil
}

// check re-reads simple.conf when its modification time changed, and
// rebuilds the "now" instance domain from it.
func (s *simple) check() {
	st, err := os.Stat(s.conf)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if len(s.active) > 0 {
			log.Printf("stat %s: %v", s.conf, err)
		}
		s.active = map[int32]*timeslice{}
		s.mtime = time.Time{}
		s.a.SetInstances(pcp.NewInDom(0, nowInDom), nil)
		return
	}
	if st.ModTime().Equal(s.mtime) {
		return
	}
	s.mtime = st.ModTime()
	s.active = map[int32]*timeslice{}
	var list []pmda.Instance
	if b, err := os.ReadFile(s.conf); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		for _, tok := range strings.Split(line, ",") {
			found := false
			for i := range timeslices {
				ts := &timeslices[i]
				if ts.name != tok {
					continue
				}
				found = true
				id, ok := s.ids[tok]
				if !ok {
					id = int32(len(s.ids))
					s.ids[tok] = id
				}
				if s.active[id] == nil {
					s.active[id] = ts
					list = append(list, pmda.Instance{ID: id, Name: tok, Labels: `{"units":"` + tok + `"}`})
				}
			}
			if !found && tok != "" {
				log.Printf("ignoring %q in %s", tok, s.conf)
			}
		}
	}
	if err := s.a.SetInstances(pcp.NewInDom(0, nowInDom), list); err != nil {
		log.Print(err)
	}
}

func (s *simple) fetch(ctx context.Context, m *pmda.Metric, inst int32, v *pmda.Value) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch [2]uint32{m.PMID.Cluster(), m.PMID.Item()} {
	case [2]uint32{0, 0}:
		v.SetUint32(s.numfetch)
	case [2]uint32{0, 1}:
		if inst < 0 || inst > 2 {
			return pcp.ErrInst
		}
		s.rgb[inst] = (s.rgb[inst] + 1) % 256
		v.SetInt32(s.rgb[inst])
	case [2]uint32{1, 2}, [2]uint32{1, 3}:
		if s.oldfetch < s.numfetch {
			s.usr, s.sys = runTimes()
			s.oldfetch = s.numfetch
		}
		if m.PMID.Item() == 2 {
			v.SetFloat64(s.usr)
		} else {
			v.SetFloat64(s.sys)
		}
	case [2]uint32{2, 4}:
		ts := s.active[inst]
		if ts == nil {
			return pcp.ErrInst
		}
		v.SetUint32(uint32(ts.field(s.now)))
	default:
		return pcp.ErrPMID
	}
	return nil
}

// store takes new values for simple.numfetch and the simple.color
// instances; negative values (and colours above 255) are clamped and
// answered PM_ERR_BADSTORE, as the C PMDA does.
func (s *simple) store(ctx context.Context, m *pmda.Metric, vs pduwire.ValueSet) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var sts error
	switch m.PMID.Item() {
	case 0:
		if vs.Len() < 1 {
			return nil
		}
		_, w := vs.Word(0)
		val := int32(w)
		if val < 0 {
			sts, val = pcp.ErrBadStore, 0
		}
		s.numfetch = uint32(val)
	case 1:
		for i := 0; i < vs.Len() && sts == nil; i++ {
			inst, w := vs.Word(i)
			val := int32(w)
			if val < 0 {
				sts, val = pcp.ErrBadStore, 0
			}
			if val > 255 {
				sts, val = pcp.ErrBadStore, 255
			}
			if inst < 0 || inst > 2 {
				sts = pcp.ErrInst
				continue
			}
			s.rgb[inst] = val
		}
	}
	return sts
}

// runTimes returns the process's user and system CPU seconds.
func runTimes() (usr, sys float64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime), tv(ru.Stime)
}
