// The kernel plugin's bench (BENCHMARKS §5, SPEC §13): kernel.js's size,
// its load time in goja (evaluated as SiYuan's kernel evaluates it, up to
// its tools registered), and the time of a 10-hunk block diff through its
// applyBlockDiff tool in goja, beside the same apply through the package's
// WebAssembly build in Node. Both apply over the same kernel double on
// loopback, whose answers come at once (a few ms of HTTP in both figures).
// Prints numbers; asserts nothing.
//
//	cd tests/goja && go run ./bench
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	kernelplugin "editkit/tests/goja"
)

const (
	hunks = 10
	loads = 5
	runs  = 10
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "plugin bench:", err)
		os.Exit(1)
	}
}

func run() error {
	code, err := kernelplugin.KernelJS()
	if err != nil {
		return err
	}
	os.Setenv("EDITKIT_BENCH_BLOCKS", fmt.Sprint(hunks))
	double, err := kernelplugin.StartDouble()
	if err != nil {
		return err
	}
	defer double.Stop()
	options := kernelplugin.Options{KernelJS: code, KernelURL: double.URL, StorageDir: os.TempDir()}

	var loadTimes []time.Duration
	var plugin *kernelplugin.Plugin
	for i := 0; i < loads; i++ {
		start := time.Now()
		p, err := kernelplugin.Start(options)
		if err != nil {
			return err
		}
		loadTimes = append(loadTimes, time.Since(start))
		if plugin != nil {
			plugin.Stop()
		}
		plugin = p
	}
	defer plugin.Stop()

	var applyTimes []time.Duration
	for k := 0; k < runs; k++ {
		start := time.Now()
		r, err := plugin.Call("plugin__editkit__applyBlockDiff", map[string]any{"diff": diff(k)}, time.Minute)
		if err != nil {
			return err
		}
		applyTimes = append(applyTimes, time.Since(start))
		// A refusal is an answer with isError in its JSON (kernel.ts says why).
		var answer struct{ IsError bool }
		if r.IsError || json.Unmarshal([]byte(r.Text), &answer) != nil || answer.IsError {
			return fmt.Errorf("apply %d: %s", k, r.Text)
		}
	}
	wasm, err := wasmApply(double.URL, runs)
	if err != nil {
		return err
	}
	report(len(code), median(loadTimes), median(applyTimes), wasm)
	return nil
}

func diff(k int) string {
	parts := make([]string, hunks)
	for i := range parts {
		parts[i] = fmt.Sprintf("@@20240801000000-p%06d@@\n<<<<<<< SEARCH\n文字 %d\n=======\n文字 %d\n>>>>>>> REPLACE", i, k, k+1)
	}
	return strings.Join(parts, "\n\n")
}

// wasmApply times the same applies through the package in Node, going on
// from the text the goja runs left.
func wasmApply(url string, from int) (time.Duration, error) {
	out, err := exec.Command("node", "wasm-apply.mjs", url, fmt.Sprint(hunks), fmt.Sprint(runs), fmt.Sprint(from)).Output()
	if err != nil {
		return 0, fmt.Errorf("wasm-apply.mjs: %w", err)
	}
	var r struct{ Ms float64 }
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, err
	}
	return time.Duration(r.Ms * float64(time.Millisecond)), nil
}

func median(ts []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ts...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func report(size int, load, goja, wasm time.Duration) {
	zip, _ := os.Stat(filepath.Join("..", "..", "pkg-plugin", "package.zip"))
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	row := func(label, figure, note string) { fmt.Printf("  %-36s %-16s %s\n", label, figure, note) }
	fmt.Println("kernel plugin in goja (the version SiYuan v3.7.3 pins)")
	sized := fmt.Sprintf("%d bytes", size)
	if zip != nil {
		sized += fmt.Sprintf(" (package.zip %d bytes)", zip.Size())
	}
	row("kernel.js", sized, "")
	row(fmt.Sprintf("load in goja, median of %d", loads), ms(load), "target ≤ 1 s: "+verdict(load <= time.Second))
	row(fmt.Sprintf("%d-hunk apply in goja, median of %d", hunks, runs), ms(goja), "target ≤ 0.5 s: "+verdict(goja <= 500*time.Millisecond))
	row(fmt.Sprintf("%d-hunk apply, wasm in Node", hunks), ms(wasm), fmt.Sprintf("goja / wasm: %.1f×", float64(goja)/float64(wasm)))
}
