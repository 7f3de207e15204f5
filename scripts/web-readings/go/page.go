//go:build js

// The page's Go reading: assets/parsers/go.go's read(), the very function the terminal's Go
// adapter runs, compiled with this file for GOOS=js GOARCH=wasm (scripts/web-readings/go/build
// puts the two files side by side; the adapter's build takes go.go alone, where this file does
// not exist). A page has no standard input for go.go's main() to read lines from, so this file
// hands read() to JavaScript instead and never lets main() run.
package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"syscall/js"
)

func init() {
	// urlscopeGoRead(requestJSON) → the answer as JSON: the request and the answer cross as
	// JSON, decoded and encoded by encoding/json as go.go's main() does, so that an input or
	// a part that is not valid UTF-8 (Hostname() of "http://%ff/") comes out as the
	// terminal's (each bad byte U+FFFD), not as JavaScript's TextDecoder would mend it.
	js.Global().Set("urlscopeGoRead", js.FuncOf(func(this js.Value, args []js.Value) interface{} {
		var r request
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return `{"failure":true,"error":"bad request: expected one JSON string"}`
		}
		if err := json.Unmarshal([]byte(args[0].String()), &r); err != nil {
			return `{"failure":true,"error":` + quote("bad request: "+err.Error()) + `}`
		}
		answer, err := json.Marshal(read(r))
		if err != nil {
			return `{"failure":true,"error":` + quote(err.Error()) + `}`
		}
		return string(answer)
	}))
	// The version as go.go's hello gives it ("1.19.8").
	js.Global().Set("urlscopeGoVersion", strings.TrimPrefix(runtime.Version(), "go"))
	// Blocks the main goroutine here, in package main's initialisation, so go.go's main()
	// never starts: the runtime then waits for urlscopeGoRead's calls.
	select {}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
