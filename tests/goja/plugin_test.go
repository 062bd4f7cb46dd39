package kernelplugin

// The built kernel.js in goja, as SiYuan runs it, over the kernel double
// (double-server.mjs) holding the four fixture documents: the tools it
// registers, an edit, a refusal, the undo, a stalled kernel. Needs the
// built plugin (scripts/build.sh writes pkg-plugin/) and Node.
//   cd tests/goja && go test ./...

import (
	"archive/zip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// callWait bounds a call's wait: far above any call here, so a handler
// that never answers (see settle) fails the test instead of hanging it.
const callWait = 30 * time.Second

// updated is the attribute the kernel stamps on every block it writes.
var updated = regexp.MustCompile(` updated="[0-9]{14}"`)

// Kramdown is a block's Markdown as the double stores it, without the
// `updated` stamp (a write and its undo each set it).
func kramdown(t *testing.T, d *Double, id string) string {
	t.Helper()
	var answer struct{ Kramdown string }
	if err := d.Lever("GET", "/__double/kramdown?id="+id, "", &answer); err != nil {
		t.Fatal(err)
	}
	return updated.ReplaceAllString(answer.Kramdown, "")
}

// startPlugin loads kernel.js over the double with the given i18n and
// settings.json (none when empty).
func startPlugin(t *testing.T, double *Double, lang, settings string) *Plugin {
	t.Helper()
	code, err := KernelJS()
	if err != nil {
		t.Fatal(err)
	}
	storage := t.TempDir()
	if settings != "" {
		if err := os.WriteFile(filepath.Join(storage, "settings.json"), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Start(Options{
		KernelJS:   code,
		KernelURL:  double.URL,
		I18n:       map[string]any{"editkitLang": lang},
		StorageDir: storage,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return p
}

func startDouble(t *testing.T) *Double {
	t.Helper()
	d, err := StartDouble()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Stop)
	return d
}

func call(t *testing.T, p *Plugin, tool string, args map[string]any) Result {
	t.Helper()
	r, err := p.Call("plugin__editkit__"+tool, args, callWait)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

// answer is what SiYuan sends for a call: the handler's object as JSON
// text (kernel.ts says why a refusal is not an error result).
type answer struct {
	Text    *string `json:"text"`
	IsError bool    `json:"isError"`
	Code    string  `json:"code"`
}

func answerOf(t *testing.T, r Result) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal([]byte(r.Text), &a); err != nil || r.IsError || a.Text == nil {
		t.Fatalf("SiYuan would send %+v: not the plugin's {text, …}", r)
	}
	return a
}

// text is a successful call's agent text.
func text(t *testing.T, r Result) string {
	t.Helper()
	a := answerOf(t, r)
	if a.IsError {
		t.Fatalf("expected a success, got the refusal %s", *a.Text)
	}
	return *a.Text
}

// refusal is a refused call's code and agent text.
func refusal(t *testing.T, r Result) (string, string) {
	t.Helper()
	a := answerOf(t, r)
	if !a.IsError || a.Code == "" {
		t.Fatalf("expected a refusal, got %s", *a.Text)
	}
	return a.Code, *a.Text
}

type described struct {
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	ReadOnly    bool           `json:"readOnly"`
}

// packageRegistry is the SiYuan tools as the package describes them.
func packageRegistry(t *testing.T) map[string][]described {
	t.Helper()
	out, err := exec.Command("node", "registry.mjs").Output()
	if err != nil {
		t.Fatalf("registry.mjs: %v", err)
	}
	var r map[string][]described
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegistersTheSiyuanToolsAsThePackageDescribesThem(t *testing.T) {
	double := startDouble(t)
	expected := packageRegistry(t)
	for _, lang := range []string{"en", "zh"} {
		p := startPlugin(t, double, lang, "")
		var got []described
		for _, tool := range p.Tools() {
			got = append(got, described{
				Name:        strings.TrimPrefix(tool.Name, "plugin__editkit__"),
				Title:       tool.Title,
				Description: tool.Description,
				InputSchema: tool.InputSchema,
				ReadOnly:    tool.ReadOnly,
			})
		}
		for _, line := range p.Logs() {
			if strings.HasPrefix(line, "error") || strings.HasPrefix(line, "warn") {
				t.Errorf("%s: the plugin logged %q while loading", lang, line)
			}
		}
		if len(got) == 0 || !reflect.DeepEqual(got, expected[lang]) {
			t.Fatalf("%s: registered\n%v\nthe package describes\n%v", lang, got, expected[lang])
		}
		names := []string{}
		for _, d := range got {
			names = append(names, d.Name)
		}
		for _, want := range []string{"getBlockInfo", "getBlockContent", "appendContent", "createNewDoc", "applyBlockDiff"} {
			if !strings.Contains(","+strings.Join(names, ",")+",", ","+want+",") {
				t.Errorf("%s: %s is not registered (%v)", lang, want, names)
			}
		}
	}
}

const weekly = "20240614083000-a1b2c3d"

func TestReadsABlockThroughTheKernel(t *testing.T) {
	p := startPlugin(t, startDouble(t), "zh", "")
	got := text(t, call(t, p, "getBlockContent", map[string]any{"blockId": weekly, "showId": true, "slice": ""}))
	want := "@@20240614083000-a1b2c3d@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。"
	if got != want {
		t.Fatalf("getBlockContent:\n%s\nwant\n%s", got, want)
	}
}

// undoDiff is the block diff an apply's text gives for its undo.
var undoFence = regexp.MustCompile("(?s)```(?:diff)?\n(@@[^`]*?)\n```")

func TestABlockDiffEditsTheNoteAndItsUndoRestoresIt(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", "")
	before := kramdown(t, double, weekly)
	diff := "@@" + weekly + "@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题 🐛\n>>>>>>> REPLACE"
	done := text(t, call(t, p, "applyBlockDiff", map[string]any{"diff": diff}))
	after := kramdown(t, double, weekly)
	if want := strings.Replace(before, "若干问题", "三个问题 🐛", 1); after != want || after == before {
		t.Fatalf("after the edit the block is\n%s\nwant\n%s\n(the tool said %s)", after, want, done)
	}
	undos := undoFence.FindAllStringSubmatch(done, -1)
	if len(undos) == 0 {
		t.Fatalf("the result has no undo diff:\n%s", done)
	}
	undo := undos[len(undos)-1][1]
	text(t, call(t, p, "applyBlockDiff", map[string]any{"diff": undo}))
	if restored := kramdown(t, double, weekly); restored != before {
		t.Fatalf("the undo left\n%s\nwant\n%s", restored, before)
	}
}

func TestARefusalIsAnErrorResultAndWritesNothing(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", "")
	before := kramdown(t, double, weekly)
	diff := "@@" + weekly + "@@\n<<<<<<< SEARCH\nwords the block does not have\n=======\nx\n>>>>>>> REPLACE"
	code, got := refusal(t, call(t, p, "applyBlockDiff", map[string]any{"diff": diff}))
	if code != "CONTENT_MISMATCH" || !strings.HasPrefix(got, "❌ Nothing was written") || !strings.Contains(got, "→ ") {
		t.Fatalf("expected the agent text of a CONTENT_MISMATCH refusal, got %s: %s", code, got)
	}
	if after := kramdown(t, double, weekly); after != before {
		t.Fatalf("a refused diff changed the block:\n%s", after)
	}
	if code, bad := refusal(t, call(t, p, "applyBlockDiff", map[string]any{})); code != "INVALID_ARGUMENT" || !strings.HasPrefix(bad, "Error [INVALID_ARGUMENT]") {
		t.Fatalf("a call without its diff: %s: %s", code, bad)
	}
}

func TestAStalledKernelTimesOutWithoutAWrite(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", `{"timeoutMs": 300}`)
	before := kramdown(t, double, weekly)
	var held map[string]any
	if err := double.Lever("POST", "/__double/hold", `{"path": "/api/block/getBlockKramdowns", "ms": 3000}`, &held); err != nil {
		t.Fatal(err)
	}
	diff := "@@" + weekly + "@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE"
	if code, got := refusal(t, call(t, p, "applyBlockDiff", map[string]any{"diff": diff})); !strings.Contains(got, "HOST_TIMEOUT") {
		t.Fatalf("expected a HOST_TIMEOUT refusal, got %s: %s", code, got)
	}
	time.Sleep(3 * time.Second) // the held request is answered; nothing follows it
	if after := kramdown(t, double, weekly); after != before {
		t.Fatalf("a timed-out apply wrote:\n%s", after)
	}
}

func TestTheBazaarZipHoldsThePluginAtItsRoot(t *testing.T) {
	archive, err := zip.OpenReader(filepath.Join(repo, "pkg-plugin", "package.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer archive.Close()
	files := map[string][]byte{}
	for _, f := range archive.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], err = io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"plugin.json", "kernel.js", "index.js", "icon.png", "README.md", "README_zh_CN.md", "i18n/en.json", "i18n/zh-CN.json"} {
		if len(files[name]) == 0 {
			t.Errorf("package.zip has no %s", name)
		}
	}
	code, err := KernelJS()
	if err != nil {
		t.Fatal(err)
	}
	if string(files["kernel.js"]) != code {
		t.Error("package.zip's kernel.js is not pkg-plugin/kernel.js")
	}
	var manifest struct {
		Name, Author, URL, Version, MinAppVersion string
		Kernels                                   []string
		DisplayName, Description, Readme          map[string]string
	}
	if err := json.Unmarshal(files["plugin.json"], &manifest); err != nil {
		t.Fatal(err)
	}
	cargo, err := os.ReadFile(filepath.Join(repo, "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if manifest.Name != "editkit" || manifest.Author == "" || manifest.URL == "" || manifest.MinAppVersion != "3.7.0" ||
		!strings.Contains(string(cargo), "\nversion = \""+manifest.Version+"\"\n") {
		t.Errorf("plugin.json: %+v", manifest)
	}
	// Without `kernels` SiYuan installs the plugin and never starts kernel.js.
	if len(manifest.Kernels) == 0 {
		t.Error("plugin.json has no kernels")
	}
	for _, field := range []map[string]string{manifest.DisplayName, manifest.Description, manifest.Readme} {
		if field["default"] == "" || field["zh_CN"] == "" {
			t.Errorf("plugin.json: %v lacks English (default) or Chinese (zh_CN)", field)
		}
	}
}
