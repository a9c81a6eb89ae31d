//go:build unix

package mmvfile

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrNoDir reports that the MMV directory is missing or not writable;
// it is wrapped with the path.
var ErrNoDir = errors.New("mmvfile: MMV directory missing or not writable")

// Dir returns the directory pmdammv scans: $PCP_TMP_DIR/mmv, where
// PCP_TMP_DIR comes from the environment, else from the PCP
// configuration file ($PCP_CONF, default /etc/pcp.conf), else
// /var/lib/pcp/tmp (Debian's default).
func Dir() string {
	tmp := os.Getenv("PCP_TMP_DIR")
	if tmp == "" {
		tmp = confValue("PCP_TMP_DIR")
	}
	if tmp == "" {
		tmp = "/var/lib/pcp/tmp"
	}
	return filepath.Join(tmp, "mmv")
}

// confValue reads KEY=value from the PCP configuration file.
func confValue(key string) string {
	name := os.Getenv("PCP_CONF")
	if name == "" {
		name = "/etc/pcp.conf"
	}
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(s.Text()), "=")
		if ok && k == key {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}
