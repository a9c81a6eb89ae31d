package pmda

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/perfwire/perfwire/labels"
	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
)

// State-change bits a PMDA sets in the tv_sec word of a RESULT; pmcd
// passes them on to its clients (docs/pmda.md).
const (
	changeLabels = 0x8  // PMCD_LABEL_CHANGE
	changeNames  = 0x10 // PMCD_NAMES_CHANGE
)

// Agent is a PMDA built by [New]. Its methods may be called from any
// goroutine while it serves.
type Agent struct {
	opts    Options
	lim     Limits
	domain  uint32
	metrics []Metric
	byPMID  map[pcp.ID]int
	items   []labelSet // per metric
	domainL labelSet
	cluster map[uint32]labelSet

	mu     sync.RWMutex // guards indoms' contents
	indoms map[pcp.InDom]*indomState

	changes atomic.Uint32
	ready   atomic.Bool

	cmu     sync.Mutex
	clients map[int32]*Client

	wmu sync.Mutex
	out io.Writer // the stream to pmcd while serving
}

// labelSet is one label set in LABEL PDU form.
type labelSet struct {
	json    []byte
	entries []pduwire.LabelEntry
}

// instances is one immutable version of an instance domain's members;
// SetInstances replaces it whole, so a reader may keep it without a lock.
type instances struct {
	list   []Instance
	names  [][]byte
	labels []labelSet
}

type indomState struct {
	decl   InDom
	labels labelSet
	cur    *instances
}

// Client is what pmcd told the agent about one client context through ATTR
// PDUs (only with [Options.Attributes]). A Client is never modified: an
// update replaces it.
type Client struct {
	Ctx       int32
	UserName  string
	UserID    string
	GroupID   string
	ProcessID string
	Container string
}

// New checks the declarations in o and returns an agent. It fails for a
// domain outside 1…510, a missing name, duplicate pmIDs or instance
// domains, a metric whose instance domain is not declared, duplicate
// instance numbers, or label text that is not a valid label set.
func New(o Options) (*Agent, error) {
	if o.Domain < 1 || o.Domain > 510 {
		return nil, errors.New("pmda: domain " + strconv.Itoa(o.Domain) + " outside 1…510")
	}
	if o.Name == "" {
		return nil, errors.New("pmda: the agent needs a name")
	}
	a := &Agent{
		opts:    o,
		lim:     o.Limits.withDefaults(),
		domain:  uint32(o.Domain),
		byPMID:  make(map[pcp.ID]int, len(o.Metrics)),
		cluster: map[uint32]labelSet{},
		indoms:  map[pcp.InDom]*indomState{},
		clients: map[int32]*Client{},
	}
	a.ready.Store(true)
	var err error
	if a.domainL, err = parseLabels(o.DomainLabels, labels.Domain); err != nil {
		return nil, fmt.Errorf("pmda: domain labels: %w", err)
	}
	for c, text := range o.ClusterLabels {
		if a.cluster[c], err = parseLabels(text, labels.Cluster); err != nil {
			return nil, fmt.Errorf("pmda: labels of cluster %d: %w", c, err)
		}
	}
	for _, d := range o.InDoms {
		d.InDom = a.inDom(d.InDom)
		if _, dup := a.indoms[d.InDom]; dup {
			return nil, fmt.Errorf("pmda: instance domain %s declared twice", d.InDom.String())
		}
		st := &indomState{decl: d}
		if st.labels, err = parseLabels(d.Labels, labels.InDom); err != nil {
			return nil, fmt.Errorf("pmda: labels of instance domain %s: %w", d.InDom.String(), err)
		}
		if st.cur, err = newInstances(d.Instances); err != nil {
			return nil, fmt.Errorf("pmda: instance domain %s: %w", d.InDom.String(), err)
		}
		a.indoms[d.InDom] = st
	}
	a.metrics = make([]Metric, len(o.Metrics))
	a.items = make([]labelSet, len(o.Metrics))
	for i, m := range o.Metrics {
		m.PMID = pcp.NewID(a.domain, m.PMID.Cluster(), m.PMID.Item())
		if m.InDom != pcp.InDomNull {
			m.InDom = a.inDom(m.InDom)
			if _, ok := a.indoms[m.InDom]; !ok {
				return nil, fmt.Errorf("pmda: metric %s: instance domain %s is not declared", m.Name, m.InDom.String())
			}
		}
		if _, dup := a.byPMID[m.PMID]; dup {
			return nil, fmt.Errorf("pmda: metric %s: pmID %s used twice", m.Name, m.PMID.String())
		}
		if a.items[i], err = parseLabels(m.Labels, labels.Item); err != nil {
			return nil, fmt.Errorf("pmda: labels of metric %s: %w", m.Name, err)
		}
		a.byPMID[m.PMID] = i
		a.metrics[i] = m
	}
	return a, nil
}

// Domain returns the agent's domain number.
func (a *Agent) Domain() int { return int(a.domain) }

// Metrics returns the agent's metrics, with their domain filled in.
func (a *Agent) Metrics() []Metric { return a.metrics }

// PMID returns pmID (cluster, item) in the agent's domain.
func (a *Agent) PMID(cluster, item uint32) pcp.ID { return pcp.NewID(a.domain, cluster, item) }

// InDom returns instance domain serial in the agent's domain.
func (a *Agent) InDom(serial uint32) pcp.InDom { return pcp.NewInDom(a.domain, serial) }

func (a *Agent) inDom(d pcp.InDom) pcp.InDom { return pcp.NewInDom(a.domain, d.Serial()) }

// SetInstances replaces the members of an instance domain (its domain
// bits are replaced by the agent's). Requests already being answered see
// the old or the new list whole. It fails for an undeclared instance
// domain, duplicate instance numbers or bad label text.
func (a *Agent) SetInstances(indom pcp.InDom, list []Instance) error {
	indom = a.inDom(indom)
	cur, err := newInstances(list)
	if err != nil {
		return fmt.Errorf("pmda: instance domain %s: %w", indom.String(), err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.indoms[indom]
	if !ok {
		return fmt.Errorf("pmda: instance domain %s is not declared", indom.String())
	}
	st.cur = cur
	return nil
}

// Instances returns the current members of an instance domain (nil if it
// is not declared). The slice must not be modified.
func (a *Agent) Instances(indom pcp.InDom) []Instance {
	if in := a.instances(a.inDom(indom)); in != nil {
		return in.list
	}
	return nil
}

func (a *Agent) instances(indom pcp.InDom) *instances {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if st, ok := a.indoms[indom]; ok {
		return st.cur
	}
	return nil
}

func (a *Agent) indomState(indom pcp.InDom) *indomState {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.indoms[indom]
}

// NotifyLabelsChanged tells pmcd, with the next RESULT, that labels
// changed, so clients fetch them again.
func (a *Agent) NotifyLabelsChanged() { a.changes.Or(changeLabels) }

// NotifyNamesChanged tells pmcd, with the next RESULT, that the dynamic
// namespace changed.
func (a *Agent) NotifyNamesChanged() { a.changes.Or(changeNames) }

// SetReady switches the agent between answering requests and answering
// every request with PM_ERR_PMDANOTREADY, as a PMDA does while it is busy
// (reloading, reconnecting to its source). Becoming ready again sends pmcd
// the unsolicited PM_ERR_PMDAREADY notice; the error is that write's.
func (a *Agent) SetReady(ready bool) error {
	was := a.ready.Swap(ready)
	if !ready || was {
		return nil
	}
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if a.out == nil {
		return nil
	}
	e := pduwire.ErrorPDU{Code: int32(pcp.ErrPMDAReady)}
	_, err := a.out.Write(e.Append(nil, 0))
	return err
}

func newInstances(list []Instance) (*instances, error) {
	in := &instances{
		list:   append([]Instance(nil), list...),
		names:  make([][]byte, len(list)),
		labels: make([]labelSet, len(list)),
	}
	seen := make(map[int32]bool, len(list))
	for i, x := range in.list {
		if x.ID < 0 {
			return nil, fmt.Errorf("instance %q has a negative number %d", x.Name, x.ID)
		}
		if seen[x.ID] {
			return nil, fmt.Errorf("instance number %d used twice", x.ID)
		}
		seen[x.ID] = true
		in.names[i] = []byte(x.Name)
		var err error
		if in.labels[i], err = parseLabels(x.Labels, labels.Instances); err != nil {
			return nil, fmt.Errorf("labels of instance %q: %w", x.Name, err)
		}
	}
	return in, nil
}

// parseLabels turns JSON label text into its canonical LABEL PDU form with
// the level's flag in every entry, as libpcp_pmda's pmdaAddLabelFlags
// marks them.
func parseLabels(text string, level labels.Flags) (labelSet, error) {
	if text == "" {
		return labelSet{}, nil
	}
	var s labels.Set
	if err := labels.Parse(&s, []byte(text), labels.Options{Flags: level}); err != nil {
		return labelSet{}, err
	}
	ls := labelSet{json: append([]byte(nil), s.JSON...)}
	for _, l := range s.Index {
		ls.entries = append(ls.entries, pduwire.LabelEntry{
			Name: l.NameOff, NameLen: l.NameLen, Flags: uint8(l.Flags),
			Value: l.ValueOff, ValueLen: l.ValueLen,
		})
	}
	return ls, nil
}

func (a *Agent) logf(format string, args ...any) {
	if a.opts.Logf != nil {
		a.opts.Logf(format, args...)
		return
	}
	fmt.Fprintf(os.Stderr, a.opts.Name+": "+format+"\n", args...)
}
