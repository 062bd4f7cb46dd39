package kernelplugin

// The built kernel.js in goja, as SiYuan runs it, over the kernel double
// (double-server.mjs) holding the four fixture documents: the tools it
// registers, an edit, a refusal, the undo, a stalled kernel. Needs the
// built plugin (scripts/build.sh writes pkg-plugin/) and Node.
//   cd tests/goja && go test ./...

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
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
	r, err := p.Call(ToolName(tool), args, callWait)
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
			// SiYuan sends no structured content: a declared output schema
			// would make MCP clients refuse every successful call.
			if tool.OutputSchema != nil {
				t.Errorf("%s: %s declares an output schema", lang, tool.Name)
			}
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
		want := expected[lang]
		for i := range want {
			raw, _ := json.Marshal(want[i].InputSchema)
			listed, err := SchemaAsListed(raw)
			if err != nil {
				t.Fatalf("%s: SiYuan would refuse %s's schema: %v", lang, want[i].Name, err)
			}
			want[i].InputSchema = listed
		}
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: registered\n%v\nthe package describes (as SiYuan lists it)\n%v", lang, got, want)
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
	names := []string{"plugin.json", "kernel.js", "index.js", "icon.png", "README.md", "README_zh_CN.md", "i18n/en.json", "i18n/zh-CN.json"}
	if len(files) != len(names) {
		t.Errorf("package.zip holds %d files, want %d", len(files), len(names))
	}
	for _, name := range names[2:] {
		source, err := os.ReadFile(filepath.Join(repo, "pkg-template", "plugin", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(files[name], source) {
			t.Errorf("package.zip's %s is not pkg-template/plugin/%s", name, name)
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

const weeklyDoc = "20240614083000-wk24rep"

func TestTheOtherSiyuanToolsAnswerThroughTheKernel(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", "")
	// An array argument arrives from Go as a slice, as SiYuan passes it.
	info := text(t, call(t, p, "getBlockInfo", map[string]any{"ids": []any{weekly, "20240614083112-h2jz8kq"}}))
	for _, want := range []string{"=== Block [" + weekly + "]", "=== Block [20240614083112-h2jz8kq]"} {
		if !strings.Contains(info, want) {
			t.Errorf("getBlockInfo of two ids lacks %q:\n%s", want, info)
		}
	}
	appended := text(t, call(t, p, "appendContent", map[string]any{"markdown": "追加的一段 🆕", "targetType": "document", "target": weeklyDoc}))
	if !strings.HasPrefix(appended, "Appended 1 block") {
		t.Errorf("appendContent: %s", appended)
	}
	if doc := kramdown(t, double, weeklyDoc); !strings.Contains(doc, "追加的一段 🆕") {
		t.Errorf("the document lacks the appended paragraph:\n%s", doc)
	}
	created := text(t, call(t, p, "createNewDoc", map[string]any{"title": "子文档 ✨", "anchorDocumentId": weeklyDoc, "location": "children", "markdown": "第一段。"}))
	if !strings.Contains(created, "子文档 ✨") {
		t.Errorf("createNewDoc: %s", created)
	}
}

func TestTwoCallsInFlightBothAnswer(t *testing.T) {
	p := startPlugin(t, startDouble(t), "en", "")
	ids := []string{weekly, "20240614083310-p06wert"}
	answers := make([]string, len(ids))
	done := make(chan int, len(ids))
	for i, id := range ids {
		go func() {
			r, err := p.Call(ToolName("getBlockContent"), map[string]any{"blockId": id, "showId": true, "slice": ""}, callWait)
			if err == nil && !r.IsError {
				answers[i] = r.Text
			}
			done <- i
		}()
	}
	for range ids {
		<-done
	}
	for i, id := range ids {
		if !strings.Contains(answers[i], "@@"+id+"@@") {
			t.Errorf("call %d: %q", i, answers[i])
		}
	}
}

func TestALongBlockLandsWholeAndReadsBack(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", "")
	// 24,000 characters of CJK and emoji (84 KB of UTF-8): every copy the
	// core makes of it goes through its memory, past what it starts with.
	// (Longer blocks work too, at ~90 µs a character in goja:
	// docs/siyuan-plugin.md; tests/node/plugin-core.test.mjs grows the
	// memory on purpose.)
	long := strings.Repeat("长文字🐛", 6_000)
	diff := "@@" + weekly + "@@\n<<<<<<< SEARCH\n若干问题\n=======\n" + long + "\n>>>>>>> REPLACE"
	text(t, call(t, p, "applyBlockDiff", map[string]any{"diff": diff}))
	if got := kramdown(t, double, weekly); !strings.Contains(got, "并修复了"+long+"。") {
		t.Fatalf("the long paragraph did not land whole (%d bytes)", len(got))
	}
	read := text(t, call(t, p, "getBlockContent", map[string]any{"blockId": weekly, "showId": false, "slice": ""}))
	if !strings.Contains(read, "并修复了"+long+"。") {
		t.Fatalf("getBlockContent read back %d bytes without the paragraph", len(read))
	}
}

func TestSettingsThatAreNotJSONLeaveTheDefaultsAndSaySo(t *testing.T) {
	for _, settings := range []string{"{ not json", `{"timeoutMs": -5}`, `{"timeoutMs": "soon"}`} {
		p := startPlugin(t, startDouble(t), "en", settings)
		text(t, call(t, p, "getBlockContent", map[string]any{"blockId": weekly, "showId": false, "slice": ""}))
		warned := false
		for _, line := range p.Logs() {
			warned = warned || strings.Contains(line, "settings.json")
		}
		if warned != (settings == "{ not json") {
			t.Errorf("settings %q: warned %v, logs %v", settings, warned, p.Logs())
		}
	}
}

func TestAStalledWriteTimesOutAndTheBlockIsWholeEitherWay(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", `{"timeoutMs": 300}`)
	before := kramdown(t, double, weekly)
	var held map[string]any
	if err := double.Lever("POST", "/__double/hold", `{"path": "/api/block/batchUpdateBlock", "ms": 2000}`, &held); err != nil {
		t.Fatal(err)
	}
	diff := "@@" + weekly + "@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE"
	code, got := refusal(t, call(t, p, "applyBlockDiff", map[string]any{"diff": diff}))
	if !strings.Contains(got, "HOST_TIMEOUT") {
		t.Fatalf("expected a HOST_TIMEOUT refusal, got %s: %s", code, got)
	}
	time.Sleep(2500 * time.Millisecond)
	after := kramdown(t, double, weekly)
	if after != before && after != strings.Replace(before, "若干问题", "三个问题", 1) {
		t.Fatalf("the block is neither as it was nor as edited:\n%s", after)
	}
}

func TestAKernelThatRefusesOrAnswersNotJSONIsNamedInTheRefusal(t *testing.T) {
	double := startDouble(t)
	p := startPlugin(t, double, "en", "")
	for _, c := range []struct {
		status     int
		body, want string
	}{
		{403, "Forbidden", "(this kernel) answered HTTP 403: the API token is wrong or missing"},
		{502, "<html>bad gateway</html>", "(this kernel) answered HTTP 502, not with a kernel answer"},
	} {
		var failing map[string]any
		lever := fmt.Sprintf(`{"path": "/api/query/sql", "status": %d, "body": %q}`, c.status, c.body)
		if err := double.Lever("POST", "/__double/fail", lever, &failing); err != nil {
			t.Fatal(err)
		}
		code, got := refusal(t, call(t, p, "getBlockInfo", map[string]any{"ids": weekly}))
		if code != "HOST_ERROR" || !strings.Contains(got, c.want) {
			t.Errorf("HTTP %d: %s: %s", c.status, code, got)
		}
	}
}
