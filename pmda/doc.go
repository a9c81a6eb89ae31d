// Package pmda writes Performance Metrics Domain Agents (PMDAs) for PCP's
// pmcd in Go, without libpcp_pmda and without cgo.
//
// # A PMDA's life
//
// pmcd starts a daemon PMDA named in pmcd.conf, either as a child whose
// stdin and stdout are a pipe to pmcd ("pipe binary"), or by connecting to
// a unix socket or TCP port the PMDA listens on ("socket unix PATH",
// "socket inet PORT"). The PMDA speaks first: it sends a CREDS PDU (its pid
// as sender, one CVERSION credential, version 2, and the AUTH and CONTAINER
// flags if it wants its clients' attributes). pmcd answers with a CREDS of
// its own within its -q limit (3 s by default). If attributes were asked
// for, pmcd then sends one ATTR PDU per attribute of every client context
// (user name, user id, container, …) now and whenever they change; ATTRs
// are never answered.
//
// Then the request loop runs, strictly one request and one reply at a
// time: PROFILE (which instances a client context wants; no reply), FETCH
// (answered by a RESULT), DESC_REQ, INSTANCE_REQ, TEXT_REQ, LABEL_REQ,
// the dynamic namespace requests PMNS_NAMES, PMNS_IDS, PMNS_CHILD and
// PMNS_TRAVERSE, and a RESULT carrying a pmstore (answered by ERROR with
// the store's status, 0 for success). The sender tag of each request is
// pmcd's number for the client context it serves for; ERROR(PM_ERR_NOTCONN)
// from that context means the client went away. pmcd waits at most its -t
// limit (5 s by default) for each reply; a PMDA that misses it is
// considered dead and is dropped, so every callback here runs under
// [Limits.CallTimeout] (4 s by default) and a callback that overruns it or
// panics is answered with PM_ERR_AGAIN while the agent carries on.
//
// # The API
//
// Metrics and instance domains are data: a [Metric] per metric (name,
// pmID, type, semantics, units, instance domain, one-line and long help,
// labels) and an [InDom] per instance domain with its [Instance] list.
// [New] checks them and builds an [Agent] for [Options.Domain]. Behaviour
// comes from optional callbacks in [Options], each taking a
// [context.Context] that carries the call's deadline and the client's
// attributes ([ClientOf]):
//
//   - Fetch fills one value of one instance of one metric through a
//     [*Value] (SetUint32, SetDouble, SetString, Events, …). Values are
//     appended into a RESULT buffer the agent reuses, so a fetch of
//     numeric metrics allocates nothing.
//   - Refresh runs once per FETCH before any value, the place to sample a
//     source or rebuild an instance domain.
//   - Store receives each value set of a pmstore for a metric declared
//     Writable; other metrics answer PM_ERR_PERMISSION.
//   - Instance runs before an instance-domain request is answered.
//   - Text overrides the declared help texts; [ParseHelp] reads the help
//     source files PCP's PMDAs ship.
//   - Namespace answers the dynamic namespace requests; the static
//     namespace is the pmns file [Agent.AppendPMNS] writes for pmnsadd.
//
// [Options.Limits] bounds the PDU length, the pmIDs per FETCH, the RESULT
// size, the callback time and the client contexts kept; [Options.Capture]
// records what pmcd sends, for debugging and fuzz seeds.
//
// Instance domains change at run time with [Agent.SetInstances]; label and
// name changes are announced to pmcd with [Agent.NotifyLabelsChanged] and
// [Agent.NotifyNamesChanged], which set the change bits libpcp_pmda puts
// in the timestamp of the next RESULT. [Agent.SetReady] sends the
// PM_ERR_PMDANOTREADY / PM_ERR_PMDAREADY notices of a PMDA that is busy.
//
// [Agent.Serve] runs the exchange over any reader and writer;
// [Agent.ServePipe] uses stdin and stdout as pmcd's pipe does and
// [Agent.ServeListener] accepts pmcd's connections on a socket. Each
// returns soon after its context is done, even while it waits for pmcd.
//
// # Errors and limits
//
// Requests are answered with the codes libpcp_pmda answers with: an unknown
// pmID is PM_ERR_PMID (in the value set for a FETCH, as an ERROR for
// DESC_REQ), an unknown instance domain PM_ERR_INDOM, an unknown instance
// PM_ERR_INST, missing help PM_ERR_TEXT, a store on a read-only metric
// PM_ERR_PERMISSION, a dynamic name that does not resolve PM_ERR_NAME.
// A request whose body does not decode is answered with PM_ERR_IPC, a
// FETCH of more than [Limits.MaxPMIDs] pmIDs with PM_ERR_TOOBIG, and a PDU
// type the agent does not know with PM_ERR_IPC. A framing failure (a
// length below 12 or above [Limits.MaxPDULen], a negative type, a stream
// cut inside a PDU) or a failed write ends Serve with an error that says
// what happened; pmcd closing the stream ends it with nil.
//
// docs/pmda.md has what was learned from libpcp_pmda and pmcd; package
// pmda/simple is PCP's simple PMDA written on this package.
package pmda
