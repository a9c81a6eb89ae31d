package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/perfwire/perfwire/pcp"
	"github.com/perfwire/perfwire/pduwire"
	"github.com/perfwire/perfwire/pmapi"
)

// Limits of one live pmcd stream: what a page may ask for.
const (
	maxLiveMetrics = 1000 // leaves after the names are expanded
	minLiveEvery   = 100 * time.Millisecond
	maxLiveEvery   = time.Hour
)

// pmcdRelay follows a pmcd for pages: each request to /live/pmcd opens its
// own PMAPI context, names the metrics (the request's metric= names, else
// those of the command line; a name that is not a leaf stands for the
// leaves below it), and streams, as PDUs back to back in the format of a
// recorded PDU stream (the .bin captures the viewer opens):
//
//   - PMNS_NAMES with the leaves' names then PMNS_IDS with their pmIDs, as
//     a client asks pmcd to look names up and pmcd answers, so that the
//     page can name what it draws;
//   - what pmcd answers about them: a DESC each, an INSTANCE per instance
//     domain (again whenever a value comes for an instance not yet
//     named), the one-line and the full help TEXT, the LABEL sets of
//     every level (context, domain, instance domain, cluster, item, and
//     the instances of an instance domain);
//   - a RESULT (HIGHRES_RESULT where pmcd has them) every interval, as
//     pmcd sent it.
type pmcdRelay struct {
	addr    string        // pmcd's host:port
	metrics []string      // the command line's names
	every   time.Duration // the default interval
}

// pmcdAddr adds pmcd's port, 44321, to a bare host.
func pmcdAddr(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return net.JoinHostPort(addr, "44321")
	}
	return addr
}

// liveNames splits the request's metric= values at commas and spaces, so
// that metric=a,b and metric=a&metric=b say the same.
func liveNames(vals []string) []string {
	var names []string
	for _, v := range vals {
		names = append(names, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })...)
	}
	return names
}

// liveEvery reads interval=: a Go duration (500ms, 2s) or seconds (0.5).
func liveEvery(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return 0, fmt.Errorf("interval %q: want a duration such as 500ms or 2s, or seconds", s)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < minLiveEvery || d > maxLiveEvery {
		return 0, fmt.Errorf("interval %v: want %v to %v", d, minLiveEvery, maxLiveEvery)
	}
	return d, nil
}

func (p *pmcdRelay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	names := liveNames(q["metric"])
	if len(names) == 0 {
		names = p.metrics
	}
	if len(names) == 0 {
		http.Error(w, "name the metrics to follow: /live/pmcd?metric=NAME&metric=… (a name that is not a leaf stands for the metrics below it)", http.StatusBadRequest)
		return
	}
	every, err := liveEvery(q.Get("interval"), p.every)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	c, err := pmapi.Dial(ctx, p.addr, pmapi.Options{})
	if err != nil {
		http.Error(w, "pmcd at "+p.addr+" is not reachable: "+err.Error(), http.StatusBadGateway)
		return
	}
	s := &pmcdStream{w: w, every: every}
	if err := s.lookup(ctx, c, names); err != nil {
		c.Close()
		code := http.StatusBadGateway
		var se *pmapi.ServerError
		if errors.As(err, &se) {
			code = http.StatusNotFound // pmcd knows no such name
		}
		http.Error(w, "pmcd at "+p.addr+": "+err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	s.flush = w.(http.Flusher)
	s.flush.Flush()
	for {
		err := s.run(ctx, c)
		c.Close()
		if ctx.Err() != nil || errors.Is(err, errPageGone) {
			return
		}
		log.Printf("perfwire serve: pmcd at %s: %v; dialling again", p.addr, err)
		if c, err = p.redial(ctx, s, names); err != nil {
			log.Printf("perfwire serve: pmcd at %s: %v; giving up", p.addr, err)
			return
		}
	}
}

// names answers /live/pmcd/names?prefix=NAME with the namespace one
// level below NAME ("" for the root), for the page's metric box to offer:
// {"names": [{"name": FULL NAME, "leaf": BOOL}]}.
func (p *pmcdRelay) names(w http.ResponseWriter, r *http.Request) {
	prefix := strings.Trim(r.URL.Query().Get("prefix"), ".")
	c, err := pmapi.Dial(r.Context(), p.addr, pmapi.Options{})
	if err != nil {
		http.Error(w, "pmcd at "+p.addr+" is not reachable: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer c.Close()
	kids, leaf, err := c.Children(r.Context(), prefix)
	if err != nil {
		code := http.StatusBadGateway
		if isServerError(err) {
			code = http.StatusNotFound
		}
		http.Error(w, "pmcd at "+p.addr+": "+prefix+": "+err.Error(), code)
		return
	}
	type name struct {
		Name string `json:"name"`
		Leaf bool   `json:"leaf"`
	}
	out := struct {
		Names []name `json:"names"`
	}{Names: make([]name, len(kids))}
	for i, k := range kids {
		if prefix != "" {
			k = prefix + "." + k
		}
		out.Names[i] = name{k, leaf[i]}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// redial reaches pmcd again, once a second for relayRetry, and looks the
// names up again (a PMDA may have come back with other instances).
func (p *pmcdRelay) redial(ctx context.Context, s *pmcdStream, names []string) (*pmapi.Client, error) {
	deadline := time.Now().Add(relayRetry)
	for {
		c, err := pmapi.Dial(ctx, p.addr, pmapi.Options{})
		if err == nil {
			if err = s.lookup(ctx, c, names); err == nil {
				return c, nil
			}
			c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// errPageGone is a write to the page that failed: nobody reads any more.
var errPageGone = errors.New("the page went away")

// pmcdStream is one page's stream: the metrics it follows and what it
// has been told of their instances.
type pmcdStream struct {
	w     http.ResponseWriter
	flush http.Flusher
	every time.Duration
	names []string
	ids   []pcp.ID
	descs []pduwire.Desc
	named map[pcp.InDom]map[int32]bool // the instances sent in INSTANCE PDUs
	indom map[pcp.ID]pcp.InDom
	buf   []byte
	res   pduwire.ResultPDU
}

// lookup expands the names to leaves and resolves and describes them.
func (s *pmcdStream) lookup(ctx context.Context, c *pmapi.Client, names []string) error {
	var leaves []string
	seen := map[string]bool{}
	for _, n := range names {
		below, err := c.Traverse(ctx, n)
		if err != nil {
			return fmt.Errorf("metric %s: %w", n, err)
		}
		for _, l := range below {
			if !seen[l] {
				seen[l] = true
				leaves = append(leaves, l)
			}
		}
	}
	if len(leaves) == 0 {
		return fmt.Errorf("no metric below %s", strings.Join(names, ", "))
	}
	if len(leaves) > maxLiveMetrics {
		return fmt.Errorf("%s name %d metrics, more than the %d a page follows: name fewer", strings.Join(names, ", "), len(leaves), maxLiveMetrics)
	}
	ids, err := c.LookupName(ctx, leaves...)
	if err != nil {
		return err
	}
	descs, err := c.LookupDescs(ctx, ids...)
	if err != nil {
		return err
	}
	s.names, s.ids, s.descs = s.names[:0], s.ids[:0], s.descs[:0]
	s.indom = map[pcp.ID]pcp.InDom{}
	for i, id := range ids {
		// A name that vanished between the traversal and the lookup, or
		// a metric pmcd cannot describe, is left out.
		if id == pcp.IDNull || descs[i].ID == pcp.IDNull {
			continue
		}
		s.names = append(s.names, leaves[i])
		s.ids = append(s.ids, id)
		s.descs = append(s.descs, descs[i])
		s.indom[id] = descs[i].InDom
	}
	if len(s.ids) == 0 {
		return fmt.Errorf("pmcd describes none of %s", strings.Join(names, ", "))
	}
	return nil
}

// send writes one PDU to the page.
func (s *pmcdStream) send(m pduwire.Message) error {
	s.buf = m.Append(s.buf[:0], 0)
	if _, err := s.w.Write(s.buf); err != nil {
		return errPageGone
	}
	return nil
}

// run sends what pmcd says about the metrics, then a RESULT every
// interval until the page goes away or pmcd fails.
func (s *pmcdStream) run(ctx context.Context, c *pmapi.Client) error {
	names := make([][]byte, len(s.names))
	for i, n := range s.names {
		names[i] = []byte(n)
	}
	if err := s.send(&pduwire.PMNSNamesPDU{Names: names}); err != nil {
		return err
	}
	if err := s.send(&pduwire.PMNSIDsPDU{Status: int32(len(s.ids)), PMIDs: s.ids}); err != nil {
		return err
	}
	s.named = map[pcp.InDom]map[int32]bool{}
	for _, d := range s.descs {
		if err := s.send(&pduwire.DescPDU{Desc: d}); err != nil {
			return err
		}
		if d.InDom != pcp.InDomNull && s.named[d.InDom] == nil {
			if err := s.instances(ctx, c, d.InDom); err != nil {
				return err
			}
		}
	}
	for _, id := range s.ids {
		for _, full := range []bool{false, true} {
			text, err := c.LookupText(ctx, id, full)
			if err != nil && !isServerError(err) {
				return err
			}
			if err == nil && text != "" {
				if err := s.send(&pduwire.TextPDU{Ident: uint32(id), Text: []byte(text)}); err != nil {
					return err
				}
			}
		}
	}
	// The first values before the labels: pmcd 6.0.3's mmv PMDA must
	// have been fetched from before its labels are asked for.
	if err := s.fetch(ctx, c); err != nil {
		return err
	}
	if err := s.labels(ctx, c); err != nil {
		return err
	}
	s.flush.Flush()
	tick := time.NewTicker(s.every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		if err := s.fetch(ctx, c); err != nil {
			return err
		}
	}
}

// labels sends the label sets of every level that applies to the
// metrics, each once: the context's, their domains', instance domains',
// clusters', items' and instances' (the page merges them as pminfo -l
// shows them, a metric's and each instance's).
func (s *pmcdStream) labels(ctx context.Context, c *pmapi.Client) error {
	type level struct {
		kind  int32
		ident uint32
	}
	levels := []level{{pduwire.LabelContext, uint32(pcp.IDNull)}}
	for _, d := range s.descs {
		levels = append(levels, level{pduwire.LabelDomain, d.ID.Domain()})
		if d.InDom != pcp.InDomNull {
			levels = append(levels, level{pduwire.LabelInDom, uint32(d.InDom)})
		}
		// A cluster's labels are asked for by any pmID in it, as
		// pmGetClusterLabels does: the metric's own.
		levels = append(levels, level{pduwire.LabelCluster, uint32(d.ID)}, level{pduwire.LabelItem, uint32(d.ID)})
		if d.InDom != pcp.InDomNull {
			// Each instance's own set, as pmGetInstancesLabels asks for
			// them: after the first fetch (see run).
			levels = append(levels, level{pduwire.LabelInstances, uint32(d.InDom)})
		}
	}
	sent := map[level]bool{}
	for _, l := range levels {
		if sent[l] {
			continue
		}
		sent[l] = true
		sets, err := c.LookupLabelSets(ctx, l.kind, l.ident)
		if err != nil && !isServerError(err) {
			return err
		}
		if err == nil && len(sets) > 0 {
			if err := s.send(&pduwire.LabelPDU{Ident: l.ident, Kind: l.kind, Sets: sets}); err != nil {
				return err
			}
		}
	}
	return nil
}

// isServerError says whether pmcd refused one request (no help text, no
// labels): the connection is still good.
func isServerError(err error) bool {
	var se *pmapi.ServerError
	return errors.As(err, &se)
}

// instances sends an instance domain's names.
func (s *pmcdStream) instances(ctx context.Context, c *pmapi.Client, indom pcp.InDom) error {
	list, err := c.GetInDom(ctx, indom)
	if err != nil {
		if isServerError(err) {
			s.named[indom] = map[int32]bool{} // asked; not asked again until a new instance comes
			return nil
		}
		return err
	}
	m := pduwire.InstancePDU{InDom: indom, Instances: make([]pduwire.InstanceEntry, len(list))}
	known := make(map[int32]bool, len(list))
	for i, in := range list {
		m.Instances[i] = pduwire.InstanceEntry{Inst: in.Inst, Name: []byte(in.Name)}
		known[in.Inst] = true
	}
	s.named[indom] = known
	return s.send(&m)
}

// fetch sends one RESULT, after the names of any instance it brings for
// the first time.
func (s *pmcdStream) fetch(ctx context.Context, c *pmapi.Client) error {
	// Fetch, not FetchBuf: the instance lookups below reuse the
	// client's buffer, which s.res's payloads would alias.
	r, err := c.Fetch(ctx, s.ids...)
	if err != nil {
		return err
	}
	r.AppendTo(&s.res)
	for _, vs := range s.res.Sets {
		indom := s.indom[vs.PMID]
		if indom == pcp.InDomNull {
			continue
		}
		for _, v := range vs.Values {
			if s.named[indom][v.Inst] {
				continue
			}
			if err := s.instances(ctx, c, indom); err != nil {
				return err
			}
			// One lookup per new instance, even when pmcd cannot name it.
			for _, v := range vs.Values {
				s.named[indom][v.Inst] = true
			}
			break
		}
	}
	if err := s.send(&s.res); err != nil {
		return err
	}
	s.flush.Flush()
	return nil
}
