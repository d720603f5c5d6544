#!/usr/bin/env python3
"""lsp_test.py - drives exgc-lsp as an editor would, over stdio.

  lsp_test.py EXGC_LSP

A scripted client: initialize; open a document that imports a module beside
it (a bounds error is published, with its note as related information);
change it to correct text (the error goes away); hover a buffer, an
iterator, an instr, a primitive and a memory; go to the definitions of a
local proc, an imported proc, an argument, an iterator and the imported
module; list the document's symbols; complete; a request it does not know;
shutdown and exit. Every answer is checked; exit 0 when all hold.
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse

HELPER = """\
# helper.exg - imported by main.exg.
instr fill4(a: f32, x: [f32][4]):
    emit: "exg::fill4({a}, {x});"
    for i in seq(0, 4):
        x[i] = a

proc zero(n: size, y: f32[n]):
    for k in seq(0, n):
        y[k] = 0.0
"""

BROKEN = """\
import helper

proc scale2(n: size, x: f32[n]):
    for i in seq(0, n):
        x[i + 1] = 2.0 * x[i]
"""

GOOD = """\
import helper

proc scale2(n: size, x: f32[n] @ DRAM):
    for i in seq(0, n):
        x[i] = 2.0 * x[i]

proc run(n: size, x: f32[n], y: f32[n]):
    scale2(n, x)
    zero(n, y)
    buf: f32[4]
    fill4(1.0, buf[0:4])
    for j in seq(0, n):
        y[j] = x[j] + buf[0]

schedule run2 from run:
    p = divide_loop(p, "j", 4, ["jo", "ji"], tail="guard")
"""

failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what, flush=True)
    if not cond:
        failures.append(what)


class Client:
    def __init__(self, exe):
        self.proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.pending = []  # notifications received while waiting for a response

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("FAIL: exgc-lsp closed its output")
            line = line.strip()
            if not line:
                break
            key, _, value = line.partition(b":")
            if key.lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.receive()
            if msg.get("id") == rid:
                return msg
            self.pending.append(msg)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri):
        """The next publishDiagnostics for uri (one follows every open and change)."""
        while True:
            msg = self.pending.pop(0) if self.pending else self.receive()
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]


def position_of(text, needle, nth=0, offset=0):
    """(line, character) of the nth occurrence of needle, plus offset characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="exgc_lsp_") as tmp:
        with open(os.path.join(tmp, "helper.exg"), "w") as f:
            f.write(HELPER)
        main_path = os.path.join(tmp, "main.exg")
        with open(main_path, "w") as f:
            f.write(BROKEN)
        uri = "file://" + urllib.parse.quote(main_path)
        helper_uri = "file://" + urllib.parse.quote(os.path.join(tmp, "helper.exg"))
        c = Client(exe)

        init = c.request("initialize", {"processId": None, "rootUri": "file://" + tmp, "capabilities": {}})
        caps = init["result"]["capabilities"]
        check(caps["hoverProvider"] and caps["definitionProvider"] and caps["documentSymbolProvider"],
              "initialize announces hover, definition and document symbols")
        check(caps["textDocumentSync"]["change"] == 1 and "completionProvider" in caps,
              "initialize announces full-text sync and completion")
        c.notify("initialized", {})

        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "exg", "version": 1, "text": BROKEN}})
        diags = c.diagnostics(uri)
        check(len(diags) == 1, "didOpen publishes one diagnostic: %s" % [d["message"] for d in diags])
        if diags:
            d = diags[0]
            check(d["severity"] == 1 and d["code"] == "OutOfBounds" and d["source"] == "exgc",
                  "it is the bounds error, kind OutOfBounds: %s %s" % (d["code"], d["message"]))
            check(d["range"]["start"] == position_of(BROKEN, "i + 1"),
                  "it points at 'i + 1' (line 5, column 11): %s" % d["range"]["start"])
            related = d.get("relatedInformation", [])
            check(len(related) == 1 and "for example" in related[0]["message"]
                  and related[0]["location"]["uri"] == uri,
                  "its note ('for example ...') is related information in the document")

        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": GOOD}]})
        diags = c.diagnostics(uri)
        check(diags == [], "after didChange to correct text no diagnostic remains: %s" % diags)

        def hover(needle, nth=0, offset=0):
            r = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": position_of(GOOD, needle, nth, offset)})
            return (r["result"] or {}).get("contents", {}).get("value", "")

        h = hover("x[i]", 0)
        check("x: f32[n] @ DRAM" in h and "host memory" in h,
              "hover on a buffer gives its type and memory: %r" % h)
        h = hover("i]", 0)
        check("for i in seq(0, n)" in h and "iterator" in h, "hover on an iterator: %r" % h)
        h = hover("fill4")
        check("instr fill4(a: f32, x: [f32][4])" in h and 'emit: "exg::fill4' in h,
              "hover on an instr gives its signature and attributes: %r" % h)
        h = hover("divide_loop")
        check(h.startswith("```\ndivide_loop(p: proc, loop:") and "scheduling primitive" in h,
              "hover on a primitive gives its one-line doc: %r" % h)
        h = hover("DRAM")
        check("memory `DRAM`: host memory" in h, "hover on a memory name: %r" % h)

        def definition(needle, nth=0, offset=0):
            r = c.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                      "position": position_of(GOOD, needle, nth, offset)})
            return r["result"]

        d = definition("scale2(n, x)")
        check(d and d["uri"] == uri and d["range"]["start"]["line"] == 2,
              "definition of a local proc is its 'proc' line: %s" % d)
        d = definition("zero(n, y)")
        check(d and d["uri"] == helper_uri and d["range"]["start"]["line"] == 6,
              "definition of an imported proc is in helper.exg, line 7: %s" % d)
        d = definition("y[j]", 0)
        check(d and d["uri"] == uri and d["range"]["start"]["line"] == 6,
              "definition of an argument is its proc's line: %s" % d)
        d = definition("j]", 0)
        check(d and d["range"]["start"]["line"] == 11, "definition of an iterator is its loop: %s" % d)
        d = definition("buf[0]", 0)
        check(d and d["range"]["start"]["line"] == 9, "definition of an allocation: %s" % d)
        d = definition("helper", 0)
        check(d and d["uri"] == helper_uri, "definition of an imported module is its file: %s" % d)

        r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        names = [(s["name"], s["kind"]) for s in r["result"]]
        check(names == [("helper", 2), ("scale2", 12), ("run", 12), ("run2", 24)],
              "document symbols: the import, two procs, the schedule: %s" % names)

        r = c.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                  "position": position_of(GOOD, "DRAM")})
        labels = {i["label"] for i in r["result"]["items"]}
        check({"divide_loop", "reorder_loops", "DRAM", "CudaSmemLinear", "CudaRmem"} <= labels,
              "completion offers primitives and memories (%d items)" % len(labels))

        r = c.request("textDocument/formatting", {"textDocument": {"uri": uri}})
        check(r.get("error", {}).get("code") == -32601, "an unknown request gets MethodNotFound")

        r = c.request("shutdown", None)
        check("result" in r and r["result"] is None, "shutdown answers null")
        c.notify("exit", None)
        rc = c.proc.wait(timeout=30)
        check(rc == 0, "exit after shutdown ends the server with 0 (got %d)" % rc)

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
