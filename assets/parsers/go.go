// urlscope parser adapter: how Go's net/url reads a URL: url.Parse(input), then .Hostname().
// With a base: base.Parse(input), which resolves the reference against it.
//
// Speaks urlscope's adapter protocol (JSON Lines, see docs/diff.md): one hello line, then one
// reading per request line, in order. urlscope builds it once into the user's cache directory.
package main

import (
	"bufio"
	"encoding/json"
	"net/url"
	"os"
	"runtime"
	"strings"
)

type request struct {
	ID    json.RawMessage `json:"id"`
	Input string          `json:"input"`
	Base  *string         `json:"base"`
}

type reading struct {
	ID       json.RawMessage `json:"id"`
	Failure  bool            `json:"failure"`
	Error    *string         `json:"error"`
	Scheme   *string         `json:"scheme,omitempty"`
	Username *string         `json:"username,omitempty"`
	Password *string         `json:"password,omitempty"`
	Host     *string         `json:"host,omitempty"`
	Port     *string         `json:"port,omitempty"`
	Path     *string         `json:"path,omitempty"`
	Query    *string         `json:"query,omitempty"`
	Fragment *string         `json:"fragment,omitempty"`
}

func str(s string) *string { return &s }

func read(r request) reading {
	out := reading{ID: r.ID}
	var u *url.URL
	var err error
	if r.Base != nil {
		var base *url.URL
		base, err = url.Parse(*r.Base)
		if err == nil {
			u, err = base.Parse(r.Input)
		}
	} else {
		u, err = url.Parse(r.Input)
	}
	if err != nil {
		out.Failure = true
		out.Error = str(err.Error())
		return out
	}
	out.Scheme = str(u.Scheme)
	if u.User != nil {
		out.Username = str(u.User.Username())
		if p, ok := u.User.Password(); ok {
			out.Password = str(p)
		}
	}
	// Hostname() is "" when there is no host: Go's answer, reported as it is.
	out.Host = str(u.Hostname())
	out.Port = str(u.Port())
	if u.Opaque != "" {
		out.Path = str(u.Opaque)
	} else {
		out.Path = str(u.EscapedPath())
	}
	// Go has no null query or fragment: "" is its answer for both absent and empty.
	out.Query = str(u.RawQuery)
	out.Fragment = str(u.EscapedFragment())
	return out
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]interface{}{
		"urlscope-adapter": 1,
		"available":        true,
		"version":          strings.TrimPrefix(runtime.Version(), "go"),
	})
	out.Flush()
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		var r request
		if jerr := json.Unmarshal([]byte(line), &r); jerr != nil {
			enc.Encode(reading{ID: json.RawMessage("null"), Failure: true, Error: str("bad request: " + jerr.Error())})
		} else {
			enc.Encode(read(r))
		}
		out.Flush()
	}
}
