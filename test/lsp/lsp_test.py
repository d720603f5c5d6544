#!/usr/bin/env python3
"""lsp_test.py - drives exgc-lsp as an editor would, over stdio.

  lsp_test.py EXGC_LSP

A scripted client that takes related information (the
publishDiagnostics.relatedInformation capability): initialize; open a
document that imports a module beside it (a bounds error is published for
version 1, with its note as related information); change it to correct text
(version 2: the error goes away); hover a buffer, an iterator, an instr, a
primitive and a memory; go to the definitions of a local proc, an imported
proc, an argument, an iterator and the imported module; list the
document's symbols; complete after `@`, in a proc body, in a schedule body,
after `for j in`, at column 0, after `from`, in a string; a request it does
not know; shutdown and exit. Then a client without the capability: the note
is a diagnostic of its own. Every answer is checked; exit 0 when all hold.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Checks, Client, position_of, uri_of  # noqa: E402

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

check = Checks()


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="exgc_lsp_") as tmp:
        with open(os.path.join(tmp, "helper.exg"), "w") as f:
            f.write(HELPER)
        main_path = os.path.join(tmp, "main.exg")
        with open(main_path, "w") as f:
            f.write(BROKEN)
        uri = uri_of(main_path)
        helper_uri = uri_of(os.path.join(tmp, "helper.exg"))
        c = Client(exe)

        init = c.initialize(tmp, related_information=True)
        caps = init["result"]["capabilities"]
        check(caps["hoverProvider"] and caps["definitionProvider"] and caps["documentSymbolProvider"],
              "initialize announces hover, definition and document symbols")
        check(caps["textDocumentSync"]["change"] == 1 and "completionProvider" in caps,
              "initialize announces full-text sync and completion")

        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "exg", "version": 1, "text": BROKEN}})
        published = c.diagnostics(uri)
        check(published.get("version") == 1, "the diagnostics are of version 1: %s" % published.get("version"))
        diags = published["diagnostics"]
        related_start = None
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
            if related:
                related_start = related[0]["location"]["range"]["start"]

        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": GOOD}]})
        published = c.diagnostics(uri)
        check(published == {"uri": uri, "version": 2, "diagnostics": []},
              "after didChange to correct text (version 2) no diagnostic remains: %s" % published)

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

        def completion(needle, nth=0, offset=0):
            r = c.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                      "position": position_of(GOOD, needle, nth, offset)})
            return {i["label"] for i in r["result"]["items"]}

        labels = completion("DRAM")
        check({"DRAM", "CudaSmemLinear", "CudaRmem"} <= labels and "divide_loop" not in labels
              and "x" not in labels, "after '@': memories only (%d items)" % len(labels))
        labels = completion("buf[0]\n")
        check({"x", "y", "n", "j", "buf", "scale2", "zero", "fill4", "and", "not"} <= labels
              and not labels & {"divide_loop", "DRAM", "for", "i", "k"},
              "in a proc body: its locals in scope, procs and instrs, expression keywords: %s"
              % sorted(labels))
        labels = completion("    buf: f32[4]", 0, 4)
        check({"for", "if", "assert", "with", "x", "n"} <= labels and "j" not in labels
              and "divide_loop" not in labels and "and" not in labels,
              "at a statement's start: statement keywords, locals declared so far: %s" % sorted(labels))
        labels = completion("divide_loop")
        check({"divide_loop", "reorder_loops", "set_memory", "p", "run", "range", "cuda_threads",
               "DRAM"} <= labels and not labels & {"buf", "j", "fill4x"},
              "in a schedule body: primitives, script names, procs, loop modes, memories (%d items)"
              % len(labels))
        labels = completion("seq(0, n):\n        y[j]")
        check(labels == {"seq", "cuda_tasks", "cuda_threads"}, "after 'for j in': the loop modes: %s"
              % sorted(labels))
        labels = completion("schedule run2")
        check({"proc", "instr", "schedule", "def", "import"} <= labels and "divide_loop" not in labels
              and "x" not in labels, "at column 0: declaration keywords: %s" % sorted(labels))
        labels = completion("run:\n    p =")
        check({"run", "scale2"} <= labels and "divide_loop" not in labels and "for" not in labels,
              "after 'schedule run2 from': procs: %s" % sorted(labels))
        labels = completion('"j"', 0, 1)
        check(labels == set(), "in a string: nothing: %s" % sorted(labels))

        r = c.request("textDocument/formatting", {"textDocument": {"uri": uri}})
        check(r.get("error", {}).get("code") == -32601, "an unknown request gets MethodNotFound")

        r = c.request("shutdown", None)
        check("result" in r and r["result"] is None, "shutdown answers null")
        c.notify("exit", None)
        rc = c.proc.wait(timeout=30)
        check(rc == 0, "exit after shutdown ends the server with 0 (got %d)" % rc)

        # A client without the relatedInformation capability.
        c = Client(exe)
        c.initialize(tmp, related_information=False)
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "exg", "version": 7, "text": BROKEN}})
        published = c.diagnostics(uri)
        diags = published["diagnostics"]
        check(published.get("version") == 7 and len(diags) == 2,
              "without the capability: two diagnostics of version 7: %s" % [d["message"] for d in diags])
        if len(diags) == 2:
            check(diags[0]["code"] == "OutOfBounds" and "relatedInformation" not in diags[0],
                  "the error, without related information")
            check(diags[1]["severity"] == 3 and diags[1]["message"].startswith("note: for example")
                  and diags[1]["range"]["start"] == related_start,
                  "then its note, as an Information diagnostic at the note's place: %s" % diags[1])
        check(c.finish() == 0, "the second server ends with 0")

    return check.result()


if __name__ == "__main__":
    sys.exit(main())
