package kernelplugin

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// repo is the repository's root, from this folder.
var repo = filepath.Join("..", "..")

// Double is the kernel double served over loopback by Node.
type Double struct {
	URL string
	cmd *exec.Cmd
	in  io.WriteCloser
}

// StartDouble starts double-server.mjs and waits for its port.
func StartDouble() (*Double, error) {
	cmd := exec.Command("node", "double-server.mjs")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	var port int
	if _, scanErr := fmt.Sscanf(line, "listening %d", &port); err != nil || scanErr != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("double-server.mjs did not start: %q %v", line, err)
	}
	return &Double{URL: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, in: in}, nil
}

// Stop ends the double (it exits when its stdin closes).
func (d *Double) Stop() {
	_ = d.in.Close()
	_ = d.cmd.Wait()
}

// Lever calls one of the double's /__double/ levers and decodes its JSON.
func (d *Double) Lever(method, path, body string, into any) error {
	req, err := http.NewRequest(method, d.URL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(into)
}

// KernelJS is the built plugin's kernel.js.
func KernelJS() (string, error) {
	code, err := os.ReadFile(filepath.Join(repo, "pkg-plugin", "kernel.js"))
	if err != nil {
		return "", fmt.Errorf("%w (build the plugin first: bash scripts/build.sh)", err)
	}
	return string(code), nil
}
