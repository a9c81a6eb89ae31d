package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const pmdaInstallUsage = `usage: perfwire pmda install [--pmcd-conf FILE] [--pmns-dir DIR] [--exec PATH] [--domain N] [--no-restart] NAME
       perfwire pmda remove  [--pmcd-conf FILE] [--pmns-dir DIR] [--no-restart] NAME

install does what a PCP PMDA's Install script does for a daemon PMDA on a
pipe: writes the PMDA's namespace to DIR/NAME and merges it into DIR/root
with pmnsadd (after pmnsdel of an older NAME subtree), replaces any
pmcd.conf entry with the same name or domain by
  NAME DOMAIN pipe binary PATH pmda NAME -d DOMAIN
(entries sorted by domain, the [access] section kept), and sends pmcd
SIGHUP, waiting until pmcd.sighups shows it was handled. remove undoes
each step. pmcd.conf and the namespace file are written whole (temporary
file, then rename). PATH (default: this executable) must be readable and
executable by the user pmcd runs PMDAs as.`

type pmdaPaths struct {
	conf, pmnsDir string
	noRestart     bool
}

func pmdaFlags(name string) (*flag.FlagSet, *pmdaPaths) {
	fs := quietFlags(name)
	p := &pmdaPaths{}
	fs.StringVar(&p.conf, "pmcd-conf", pcpEnv("PCP_PMCDCONF_PATH", "/etc/pcp/pmcd/pmcd.conf"), "pmcd's configuration file")
	fs.StringVar(&p.pmnsDir, "pmns-dir", filepath.Join(pcpEnv("PCP_VAR_DIR", "/var/lib/pcp"), "pmns"), "the PMNS directory (holds root)")
	fs.BoolVar(&p.noRestart, "no-restart", false, "edit the files only; do not signal pmcd")
	return fs, p
}

// binadm is the path of one of PCP's administrative tools, which live
// outside $PATH in $PCP_BINADM_DIR.
func binadm(tool string) string {
	return filepath.Join(pcpEnv("PCP_BINADM_DIR", "/usr/lib/pcp/bin"), tool)
}

func pcpEnv(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// runPMDAInstall implements "perfwire pmda install".
func runPMDAInstall(args []string, stdout io.Writer) error {
	fs, p := pmdaFlags("install")
	exe := fs.String("exec", "", "the perfwire binary pmcd runs (default: this one)")
	domain := fs.Int("domain", 0, "domain number (default: the PMDA's own)")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, pmdaInstallUsage)
	}
	if fs.NArg() != 1 {
		return usagef("%s", pmdaInstallUsage)
	}
	a := findPMDA(fs.Arg(0))
	if a == nil {
		return usagef("perfwire pmda install: no PMDA %q", fs.Arg(0))
	}
	if *domain == 0 {
		*domain = a.domain
	}
	if *exe == "" {
		e, err := os.Executable()
		if err != nil {
			return err
		}
		*exe = e
	}
	ns, err := a.pmns(*domain)
	if err != nil {
		return err
	}
	if err := pmnsReplace(p.pmnsDir, a.name, ns); err != nil {
		return err
	}
	line := a.name + "\t" + strconv.Itoa(*domain) + "\tpipe\tbinary\t\t" + *exe + " pmda " + a.name + " -d " + strconv.Itoa(*domain)
	if err := editPMCDConf(p.conf, a.name, *domain, line); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s\n", p.conf, line)
	if !p.noRestart {
		return sighupPMCD()
	}
	return nil
}

// runPMDARemove implements "perfwire pmda remove".
func runPMDARemove(args []string, stdout io.Writer) error {
	fs, p := pmdaFlags("remove")
	if err := fs.Parse(args); err != nil {
		return usagef("%v\n%s", err, pmdaInstallUsage)
	}
	if fs.NArg() != 1 {
		return usagef("%s", pmdaInstallUsage)
	}
	name := fs.Arg(0)
	if err := pmnsDelete(p.pmnsDir, name); err != nil {
		return err
	}
	os.Remove(filepath.Join(p.pmnsDir, name))
	if err := editPMCDConf(p.conf, name, -1, ""); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s removed\n", p.conf, name)
	if !p.noRestart {
		return sighupPMCD()
	}
	return nil
}

// pmnsReplace writes the PMDA's namespace to dir/name and merges it into
// dir/root, deleting an older subtree of that name first, as pmdaproc.sh
// does.
func pmnsReplace(dir, name string, ns []byte) error {
	if err := pmnsDelete(dir, name); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, name), ns, 0o644); err != nil {
		return err
	}
	cmd := exec.Command(binadm("pmnsadd"), "-n", "root", name)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pmnsadd -n root %s: %v: %s", name, err, bytes.TrimSpace(out))
	}
	return nil
}

// pmnsDelete removes the subtree name from dir/root; a subtree that is not
// there is no error.
func pmnsDelete(dir, name string) error {
	cmd := exec.Command(binadm("pmnsdel"), "-n", "root", name)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("not found")) && !bytes.Contains(out, []byte("not defined")) {
		return fmt.Errorf("pmnsdel -n root %s: %v: %s", name, err, bytes.TrimSpace(out))
	}
	return nil
}

// editPMCDConf rewrites pmcd.conf as pmdaproc.sh's __pmda_add does: blank
// lines dropped, entries with the same name or domain (domain < 0: only
// the name) removed, line added unless empty, the entries sorted by their
// domain field, then a blank line and the [access] section unchanged.
func editPMCDConf(path, name string, domain int, line string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var body, access []string
	inAccess := false
	for l := range strings.Lines(string(old)) {
		l = strings.TrimRight(l, "\n")
		t := strings.TrimSpace(l)
		if !inAccess && strings.HasPrefix(strings.ReplaceAll(t, " ", ""), "[access]") {
			inAccess = true
		}
		if inAccess {
			access = append(access, l)
			continue
		}
		if t == "" {
			continue
		}
		f := strings.Fields(t)
		if len(f) >= 2 && !strings.HasPrefix(f[0], "#") && (f[0] == name || f[1] == strconv.Itoa(domain)) {
			continue
		}
		body = append(body, l)
	}
	if line != "" {
		body = append(body, line)
	}
	slices.SortStableFunc(body, func(a, b string) int { return domainOf(a) - domainOf(b) })
	var out bytes.Buffer
	for _, l := range body {
		out.WriteString(l + "\n")
	}
	if len(access) > 0 {
		out.WriteString("\n")
		for _, l := range access {
			out.WriteString(l + "\n")
		}
	}
	return writeFileAtomic(path, out.Bytes(), 0o644)
}

// domainOf is the numeric second field of a pmcd.conf line (0 for
// comments), the key sort -n -k2 uses.
func domainOf(l string) int {
	f := strings.Fields(l)
	if len(f) < 2 || strings.HasPrefix(f[0], "#") {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// writeFileAtomic writes b to a temporary file beside path and renames it
// over path, so readers see the old file or the new one, whole.
func writeFileAtomic(path string, b []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := f.Chmod(mode); werr == nil {
		werr = err
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// sighupPMCD signals pmcd to re-read pmcd.conf and the PMNS, and waits
// until its pmcd.sighups counter shows the signal was handled, as
// pmdaproc.sh does.
func sighupPMCD() error {
	before, err := pmcdSighups()
	if err != nil {
		return fmt.Errorf("pmcd is not answering (start it first): %w", err)
	}
	if out, err := exec.Command(binadm("pmsignal"), "-a", "-s", "HUP", "pmcd").CombinedOutput(); err != nil {
		return fmt.Errorf("pmsignal -a -s HUP pmcd: %v: %s", err, bytes.TrimSpace(out))
	}
	for _, d := range []time.Duration{10, 50, 100, 150, 250, 500, 1000, 2000, 4000} {
		time.Sleep(d * time.Millisecond)
		if n, err := pmcdSighups(); err == nil && n > before {
			time.Sleep(500 * time.Millisecond) // pmcd restarts agents after counting the signal
			return nil
		}
	}
	return errors.New("pmcd did not handle SIGHUP within 8 s")
}

// pmcdSighups reads pmcd.sighups with pmprobe -v.
func pmcdSighups() (int, error) {
	out, err := exec.Command("pmprobe", "-v", "pmcd.sighups").Output()
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(out))
	if len(f) < 3 {
		return 0, fmt.Errorf("pmprobe -v pmcd.sighups: %q", out)
	}
	return strconv.Atoi(f[2])
}
