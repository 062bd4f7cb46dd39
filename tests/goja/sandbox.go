// Package kernelplugin runs editkit's SiYuan plugin (pkg-plugin/kernel.js)
// the way SiYuan v3.7's kernel runs a kernel plugin (kernel/plugin/ of
// siyuan-note/siyuan: sandbox.go, api_mcp.go, api_client.go, plugin.go),
// without the kernel: goja on a goja_nodejs event loop, with require,
// console, url and buffer, and a frozen `siyuan` global whose
// `client.fetch` reaches a kernel over HTTP (the kernel double, served by
// double-server.mjs) and whose `mcp.registerTool` records the tools.
//
// What a tool call returns is built as SiYuan builds it (invokeMcpTool):
// the handler's value exported and sent as JSON text; a rejected promise
// or a throw is an error result whose text is the rejection as Go prints
// it.
package kernelplugin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/dop251/goja_nodejs/console"
	"github.com/dop251/goja_nodejs/eventloop"
	"github.com/dop251/goja_nodejs/require"
	"github.com/dop251/goja_nodejs/url"
)

// Options says what the sandbox serves the plugin.
type Options struct {
	// KernelJS is the plugin's kernel.js.
	KernelJS string
	// KernelURL is where siyuan.client.fetch sends requests (no trailing /).
	KernelURL string
	// I18n is siyuan.plugin.i18n: the plugin's i18n file for the
	// workspace's language, as SiYuan loads it.
	I18n map[string]any
	// StorageDir holds the files siyuan.storage.get reads.
	StorageDir string
}

// Tool is a tool kernel.js registered, as SiYuan's MCP server lists it.
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  map[string]any
	OutputSchema map[string]any
	ReadOnly     bool
	handler      goja.Callable
}

// Result is a tool call's result as SiYuan's MCP server sends it.
type Result struct {
	Text    string
	IsError bool
}

// Plugin is kernel.js running in its own goja runtime.
type Plugin struct {
	loop    *eventloop.EventLoop
	mu      sync.Mutex
	tools   map[string]*Tool
	order   []string
	logs    []string
	options Options
}

// PluginName is the plugin's folder name: tools are listed as
// plugin__editkit__<name>.
const PluginName = "editkit"

// Start evaluates kernel.js as SiYuan's InitRuntime does and waits until
// the tools it registers while loading are registered.
func Start(options Options) (*Plugin, error) {
	p := &Plugin{tools: map[string]*Tool{}, options: options}
	p.loop = eventloop.NewEventLoop(eventloop.EnableConsole(true))
	var runErr error
	p.loop.Run(func(rt *goja.Runtime) {
		rt.SetFieldNameMapper(goja.TagFieldNameMapper("json", true))
		registry := require.NewRegistry()
		registry.Enable(rt)
		registry.RegisterNativeModule(console.ModuleName, console.RequireWithPrinter(p))
		url.Enable(rt)
		buffer.Enable(rt)
		console.Enable(rt)
		if err := p.injectSiyuan(rt); err != nil {
			runErr = err
			return
		}
		_, runErr = rt.RunScript(PluginName+"/kernel.js", options.KernelJS)
	})
	if runErr != nil {
		return nil, fmt.Errorf("RunScript: %w", runErr)
	}
	p.loop.Start()
	// registerTool settles on the loop; one more turn of it sees them all.
	if _, err := p.onLoop(func(*goja.Runtime) (any, error) { return nil, nil }, time.Minute); err != nil {
		p.Stop()
		return nil, err
	}
	p.invokeHook("onload")
	p.invokeHook("onrunning")
	return p, nil
}

// Stop calls the onunload hook and ends the plugin's event loop.
func (p *Plugin) Stop() {
	p.invokeHook("onunload")
	p.loop.Stop()
}

// Tools lists the registered tools in registration order.
func (p *Plugin) Tools() []Tool {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Tool, 0, len(p.order))
	for _, name := range p.order {
		out = append(out, *p.tools[name])
	}
	return out
}

// Logs is what the plugin printed (console and siyuan.logger), in order.
func (p *Plugin) Logs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}

// ErrNoAnswer is returned when a call's promise has not settled in time.
var ErrNoAnswer = errors.New("the tool's handler did not answer in time")

// Call runs a tool's handler as SiYuan's invokeMcpTool does. The args go
// through JSON first, as they arrive from an MCP client.
func (p *Plugin) Call(fullName string, args map[string]any, wait time.Duration) (Result, error) {
	p.mu.Lock()
	tool := p.tools[fullName]
	p.mu.Unlock()
	if tool == nil {
		return Result{}, fmt.Errorf("no tool %q", fullName)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return Result{}, err
	}
	var fromClient map[string]any
	if err := json.Unmarshal(raw, &fromClient); err != nil {
		return Result{}, err
	}
	done := make(chan Result, 1)
	p.loop.RunOnLoop(func(rt *goja.Runtime) {
		settle(rt, tool.handler, rt.ToValue(fromClient), done)
	})
	select {
	case r := <-done:
		return r, nil
	case <-time.After(wait):
		return Result{}, ErrNoAnswer
	}
}

// settle calls the handler and sends its result once it settles, as
// SiYuan v3.7.3 does (sandbox.go invokeFunction, plugin.go invokeMcpTool),
// down to the callbacks' Go signature: `func(goja.FunctionCall,
// *goja.Runtime)` with no result is wrapped by reflection, so goja first
// converts the settled value to a FunctionCall. A value that cannot be
// converted (a string) throws inside the reaction and the call never
// answers; a rejection's text is the converted value's `arguments[0]`.
func settle(rt *goja.Runtime, handler goja.Callable, args goja.Value, done chan<- Result) {
	value, err := handler(rt.GlobalObject(), args)
	if err != nil {
		done <- errorResult(err)
		return
	}
	promise, ok := value.Export().(*goja.Promise)
	if !ok {
		done <- valueResult(value.Export())
		return
	}
	then, _ := goja.AssertFunction(value.ToObject(rt).Get("then"))
	_, _ = then(value, rt.ToValue(func(call goja.FunctionCall, rt *goja.Runtime) {
		done <- valueResult(promise.Result().Export())
	}), rt.ToValue(func(call goja.FunctionCall, rt *goja.Runtime) {
		done <- errorResult(fmt.Errorf("promise rejected: %v", call.Argument(0).Export()))
	}))
}

func errorResult(err error) Result {
	return Result{IsError: true, Text: fmt.Sprintf("error invoking MCP tool handler: %v", err)}
}

func valueResult(value any) Result {
	if value == nil {
		return Result{Text: "null"}
	}
	text, err := json.Marshal(value)
	if err != nil {
		return Result{IsError: true, Text: fmt.Sprintf("error marshaling MCP tool result: %v", err)}
	}
	return Result{Text: string(text)}
}

// onLoop runs fn on the plugin's loop and waits for it.
func (p *Plugin) onLoop(fn func(*goja.Runtime) (any, error), wait time.Duration) (any, error) {
	type answer struct {
		value any
		err   error
	}
	done := make(chan answer, 1)
	if !p.loop.RunOnLoop(func(rt *goja.Runtime) {
		v, err := fn(rt)
		done <- answer{v, err}
	}) {
		return nil, errors.New("the plugin's event loop has stopped")
	}
	select {
	case a := <-done:
		return a.value, a.err
	case <-time.After(wait):
		return nil, ErrNoAnswer
	}
}

// Log implements console's Printer (SiYuan logs a plugin's console lines).
func (p *Plugin) Log(s string)   { p.log("log", s) }
func (p *Plugin) Warn(s string)  { p.log("warn", s) }
func (p *Plugin) Error(s string) { p.log("error", s) }

func (p *Plugin) log(level, s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logs = append(p.logs, level+": "+s)
}

// injectSiyuan sets the frozen `siyuan` global: plugin, logger, storage
// (get), mcp (registerTool) and client (fetch), as SiYuan's sandbox does.
func (p *Plugin) injectSiyuan(rt *goja.Runtime) error {
	siyuan := rt.NewObject()
	parts := []struct {
		name  string
		value *goja.Object
	}{
		{"plugin", p.pluginObject(rt)},
		{"logger", p.loggerObject(rt)},
		{"storage", p.storageObject(rt)},
		{"mcp", p.mcpObject(rt)},
		{"client", p.clientObject(rt)},
	}
	for _, part := range parts {
		if err := freeze(rt, part.value); err != nil {
			return err
		}
		if err := siyuan.Set(part.name, part.value); err != nil {
			return err
		}
	}
	if err := freeze(rt, siyuan); err != nil {
		return err
	}
	return rt.GlobalObject().Set("siyuan", siyuan)
}

func freeze(rt *goja.Runtime, o *goja.Object) error {
	f, _ := goja.AssertFunction(rt.GlobalObject().Get("Object").ToObject(rt).Get("freeze"))
	_, err := f(goja.Undefined(), o)
	return err
}

func (p *Plugin) pluginObject(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	i18n := p.options.I18n
	if i18n == nil {
		i18n = map[string]any{}
	}
	_ = o.Set("name", PluginName)
	_ = o.Set("version", "0.0.0")
	_ = o.Set("displayName", PluginName)
	_ = o.Set("platform", "linux")
	_ = o.Set("i18n", i18n)
	lifecycle := rt.NewObject()
	for _, hook := range hooks {
		_ = lifecycle.Set(hook, goja.Null())
	}
	seal, _ := goja.AssertFunction(rt.GlobalObject().Get("Object").ToObject(rt).Get("seal"))
	_, _ = seal(goja.Undefined(), lifecycle)
	_ = o.Set("lifecycle", lifecycle)
	return o
}

// hooks are siyuan.plugin.lifecycle's: SiYuan calls onload and onrunning
// after kernel.js runs, onunload before it stops the plugin.
var hooks = []string{"onload", "onrunning", "onunload"}

// invokeHook calls a lifecycle hook as SiYuan's invokeHook does, logging
// the error line SiYuan logs when it is not a function.
func (p *Plugin) invokeHook(name string) {
	_, err := p.onLoop(func(rt *goja.Runtime) (any, error) {
		lifecycle := rt.Get("siyuan").ToObject(rt).Get("plugin").ToObject(rt).Get("lifecycle").ToObject(rt)
		hook, ok := goja.AssertFunction(lifecycle.Get(name))
		if !ok {
			return nil, fmt.Errorf("globalThis.siyuan.plugin.lifecycle.%s not bound to a function", name)
		}
		_, err := hook(lifecycle)
		return nil, err
	}, time.Minute)
	if err != nil {
		p.log("error", fmt.Sprintf("lifecycle hook [%q] error: %v", name, err))
	}
}

func (p *Plugin) loggerObject(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	for _, level := range []string{"trace", "debug", "info", "warn", "error"} {
		_ = o.Set(level, func(call goja.FunctionCall) goja.Value {
			parts := make([]string, len(call.Arguments))
			for i, a := range call.Arguments {
				parts[i] = a.String()
			}
			p.log(level, strings.Join(parts, " "))
			return goja.Undefined()
		})
	}
	return o
}

// storageObject serves siyuan.storage.get(path): a promise of an object
// with text() and json(), rejected when the file is missing.
func (p *Plugin) storageObject(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	_ = o.Set("get", func(call goja.FunctionCall) goja.Value {
		promise, resolve, reject := rt.NewPromise()
		name := call.Argument(0).String()
		go func() {
			data, err := os.ReadFile(filepath.Join(p.options.StorageDir, filepath.Clean("/"+name)))
			p.loop.RunOnLoop(func(rt *goja.Runtime) {
				if err != nil {
					_ = reject(rt.NewGoError(err))
					return
				}
				_ = resolve(p.dataObject(rt, data))
			})
		}()
		return rt.ToValue(promise)
	})
	return o
}

// dataObject is a body with text() and json(), each a promise settled on
// a later turn of the loop (ObjectSetDataMethods runs them as tasks).
func (p *Plugin) dataObject(rt *goja.Runtime, data []byte) *goja.Object {
	o := rt.NewObject()
	_ = o.Set("text", func(goja.FunctionCall) goja.Value {
		promise, resolve, _ := rt.NewPromise()
		p.loop.RunOnLoop(func(rt *goja.Runtime) { _ = resolve(string(data)) })
		return rt.ToValue(promise)
	})
	_ = o.Set("json", func(goja.FunctionCall) goja.Value {
		promise, resolve, reject := rt.NewPromise()
		p.loop.RunOnLoop(func(rt *goja.Runtime) {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				_ = reject(rt.NewGoError(err))
			} else {
				_ = resolve(rt.ToValue(v))
			}
		})
		return rt.ToValue(promise)
	})
	return o
}

// mcpObject serves siyuan.mcp.registerTool(name, config, handler) →
// Promise, as api_mcp.go does: config read at the call (`readOnly`, not
// `readOnlyHint`; the schemas decoded into SiYuan's schema types, which
// keep only the keywords they name and refuse a keyword of another type),
// the tool registered and the promise settled on a later turn of the loop.
func (p *Plugin) mcpObject(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	_ = o.Set("registerTool", func(call goja.FunctionCall) goja.Value {
		promise, resolve, reject := rt.NewPromise()
		tool, err := readTool(rt, call)
		p.loop.RunOnLoop(func(rt *goja.Runtime) {
			if err != nil {
				_ = reject(rt.NewGoError(err))
				return
			}
			p.mu.Lock()
			if _, seen := p.tools[tool.Name]; !seen {
				p.order = append(p.order, tool.Name)
			}
			p.tools[tool.Name] = tool
			p.mu.Unlock()
			_ = resolve(map[string]any{"name": tool.Name})
		})
		return rt.ToValue(promise)
	})
	return o
}

var nonAlphanumeric = regexp.MustCompile(`[^0-9a-zA-Z]`)

// ToolName is the name SiYuan lists a plugin's tool under
// (plugin__<plugin>__<tool>, each part with every other character as _).
func ToolName(tool string) string {
	return "plugin__" + nonAlphanumeric.ReplaceAllString(PluginName, "_") + "__" + nonAlphanumeric.ReplaceAllString(tool, "_")
}

func readTool(rt *goja.Runtime, call goja.FunctionCall) (*Tool, error) {
	if len(call.Arguments) < 3 {
		return nil, errors.New("registerTool requires 3 arguments: name, config, handler")
	}
	if !goja.IsString(call.Argument(0)) {
		return nil, errors.New("first argument must be a tool name string")
	}
	if c := call.Argument(1); goja.IsUndefined(c) || goja.IsNull(c) {
		return nil, errors.New("second argument must be a config object")
	}
	config := call.Argument(1).ToObject(rt)
	tool := &Tool{Name: ToolName(call.Argument(0).String())}
	if v := config.Get("title"); v != nil && goja.IsString(v) {
		tool.Title = v.String()
	}
	description := config.Get("description")
	if description == nil || !goja.IsString(description) {
		return nil, errors.New("config.description is required and must be a string")
	}
	tool.Description = description.String()
	var err error
	if tool.InputSchema, err = schema(rt, config.Get("inputSchema")); err != nil {
		return nil, err
	}
	if tool.InputSchema == nil {
		return nil, errors.New("config.inputSchema is required")
	}
	if tool.OutputSchema, err = schema(rt, config.Get("outputSchema")); err != nil {
		return nil, err
	}
	if v := config.Get("readOnly"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		b, ok := v.Export().(bool)
		if !ok {
			return nil, errors.New("config.readOnly must be a boolean")
		}
		tool.ReadOnly = b
	}
	handler, ok := goja.AssertFunction(call.Argument(2))
	if !ok {
		return nil, errors.New("third argument must be a handler function")
	}
	tool.handler = handler
	return tool, nil
}

// SchemaAsListed is a JSON schema as SiYuan lists it: decoded into the
// types of its MCP registry (kernel/mcp/tools/types.go: ToolSchema,
// Property), which keep type, description, enum, items, properties,
// required, oneOf/anyOf/allOf and $ref, and drop every other keyword.
func SchemaAsListed(text []byte) (map[string]any, error) {
	var listed toolSchema
	if err := json.Unmarshal(text, &listed); err != nil {
		return nil, fmt.Errorf("invalid json schema: %w", err)
	}
	projected, err := json.Marshal(listed)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(projected, &out)
}

type toolSchema struct {
	Type       string                `json:"type,omitempty"`
	Properties map[string]property   `json:"properties,omitempty"`
	Required   []string              `json:"required,omitempty"`
	OneOf      []toolSchema          `json:"oneOf,omitempty"`
	AnyOf      []toolSchema          `json:"anyOf,omitempty"`
	AllOf      []toolSchema          `json:"allOf,omitempty"`
	Ref        string                `json:"$ref,omitempty"`
	Defs       map[string]toolSchema `json:"$defs,omitempty"`
}

type property struct {
	Type        string              `json:"type,omitempty"`
	Description string              `json:"description,omitempty"`
	Enum        []string            `json:"enum,omitempty"`
	Items       *property           `json:"items,omitempty"`
	Properties  map[string]property `json:"properties,omitempty"`
	Required    []string            `json:"required,omitempty"`
	OneOf       []property          `json:"oneOf,omitempty"`
	AnyOf       []property          `json:"anyOf,omitempty"`
	AllOf       []property          `json:"allOf,omitempty"`
	Ref         string              `json:"$ref,omitempty"`
}

func schema(rt *goja.Runtime, v goja.Value) (map[string]any, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	text, err := v.ToObject(rt).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("failed to serialize inputSchema: %w", err)
	}
	return SchemaAsListed(text)
}

// clientObject serves siyuan.client.fetch(path, {method, headers, body}):
// the request runs off the loop and the promise settles on it with
// {url, ok, status, statusText, headers, text(), json()}.
func (p *Plugin) clientObject(rt *goja.Runtime) *goja.Object {
	o := rt.NewObject()
	_ = o.Set("fetch", func(call goja.FunctionCall) goja.Value {
		promise, resolve, reject := rt.NewPromise()
		if !goja.IsString(call.Argument(0)) {
			_ = reject(rt.NewGoError(errors.New("path required")))
			return rt.ToValue(promise)
		}
		path := call.Argument(0).String()
		method, headers, body := "GET", map[string]string{}, ""
		if init := call.Argument(1); !goja.IsUndefined(init) && !goja.IsNull(init) {
			obj := init.ToObject(rt)
			if m := obj.Get("method"); m != nil && goja.IsString(m) {
				method = m.String()
			}
			if h := obj.Get("headers"); h != nil && !goja.IsUndefined(h) && !goja.IsNull(h) {
				if err := rt.ExportTo(h, &headers); err != nil {
					_ = reject(rt.NewGoError(fmt.Errorf("failed to export headers: %w", err)))
					return rt.ToValue(promise)
				}
			}
			if b := obj.Get("body"); b != nil && goja.IsString(b) {
				body = b.String()
			}
		}
		go func() {
			status, responseHeaders, text, err := p.send(method, path, headers, body)
			p.loop.RunOnLoop(func(rt *goja.Runtime) {
				if err != nil {
					_ = reject(rt.NewGoError(err))
					return
				}
				response := p.dataObject(rt, text)
				_ = response.Set("url", path)
				_ = response.Set("ok", status >= 200 && status < 300)
				_ = response.Set("status", status)
				_ = response.Set("statusText", fmt.Sprintf("%d %s", status, http.StatusText(status)))
				_ = response.Set("headers", responseHeaders)
				_ = resolve(response)
			})
		}()
		return rt.ToValue(promise)
	})
	return o
}

var httpClient = &http.Client{Timeout: time.Minute}

// PluginToken stands for the JWT SiYuan makes for each plugin and sends as
// X-Auth-Token with every request of its client.fetch.
const PluginToken = "editkit-plugin-token"

func (p *Plugin) send(method, path string, headers map[string]string, body string) (int, map[string]string, []byte, error) {
	if !strings.HasPrefix(path, "/") {
		return 0, nil, nil, errors.New("path must start with /")
	}
	req, err := http.NewRequest(method, p.options.KernelURL+path, bytes.NewBufferString(body))
	if err != nil {
		return 0, nil, nil, err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-Auth-Token", PluginToken)
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	responseHeaders := map[string]string{}
	for k, vs := range resp.Header {
		responseHeaders[k] = strings.Join(vs, ", ")
	}
	return resp.StatusCode, responseHeaders, text, err
}
