#!/usr/bin/env python3
"""lsp_robustness_test.py - bad input on exgc-lsp's standard input.

  lsp_robustness_test.py EXGC_LSP

Each case starts a server, writes bytes that are no proper message (huge,
missing, garbage or negative Content-Length, a body over the 64 MiB limit,
bodies cut short by the end of the input, an endless header line, invalid
JSON, JSON nested 100000 deep, JSON that is not an object, invalid UTF-8,
wrong field types, unknown methods, requests before initialize, positions
past the document, random bytes) and checks that the server answers what
deserves an answer (the JSON-RPC error, by code), neither crashes nor
hangs (every wait has a timeout), and, where the stream can go on, still
answers a proper initialize and ends with 0 after shutdown and exit; where
the input ends instead, that it ends with 1, not a signal. The message layer
itself is fuzzed by test/fuzz/lsp_fuzz.cpp.
"""
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Checks, Client, uri_of  # noqa: E402

check = Checks()


def frame(body):
    if isinstance(body, str):
        body = body.encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(rid, method, params=None):
    return frame(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}))


INIT = request(1000, "initialize", {"processId": None, "capabilities": {}})


def errors_before(c, rid, timeout=30):
    """Error codes of the id-null replies that come before the response to rid; the response."""
    codes = []
    while True:
        item = c.receive(timeout)
        if item is None:
            raise SystemExit("FAIL: exgc-lsp closed its output")
        msg = item[1]
        if msg.get("id") == rid:
            return codes, msg
        if "error" in msg:
            codes.append(msg["error"]["code"])


def recovers(name, data, expected_codes):
    """After `data`, the server answers initialize, and `expected_codes` came first."""
    c = Client(EXE, stderr=open(os.devnull, "w"))
    try:
        c.write(data + INIT)
        codes, init = errors_before(c, 1000)
        check(codes == expected_codes and "result" in init,
              "%s: answered %s, then initialize" % (name, codes))
        rc = c.finish(timeout=30)
        check(rc == 0, "%s: then ends with 0 (got %s)" % (name, rc))
    except (TimeoutError, OSError) as e:
        check(False, "%s: %s" % (name, e))
    finally:
        c.proc.kill()
        c.proc.wait()


def ends(name, data, expected_codes):
    """`data` then the end of the input: the replies, and exit code 1."""
    c = Client(EXE, stderr=open(os.devnull, "w"))
    try:
        c.write(data)
        c.close_input()
        rc = c.proc.wait(timeout=30)
        codes = []
        while True:
            item = c.receive(5)
            if item is None:
                break
            codes.append(item[1].get("error", {}).get("code"))
        check(rc == 1 and codes == expected_codes,
              "%s: answered %s, ends with 1 at the end of the input (got %s)" % (name, codes, rc))
    except (TimeoutError, OSError) as e:
        check(False, "%s: %s" % (name, e))
    finally:
        c.proc.kill()
        c.proc.wait()


def session(tmp):
    """One initialized server: bad requests and notifications on the way."""
    path = os.path.join(tmp, "doc.exg")
    text = "proc f(n: size, x: f32[n]):\n    for i in seq(0, n):\n        x[i] = 1.0\n"
    uri = uri_of(path)
    c = Client(EXE, stderr=open(os.devnull, "w"))
    try:
        r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
        check(r.get("error", {}).get("code") == -32002, "a request before initialize: ServerNotInitialized")
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "version": 1, "text": text}})
        c.initialize(tmp)
        r = c.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                  "position": {"line": 1, "character": 4}})
        check(r.get("result") == [], "a notification before initialize was dropped: %s" % r)
        r = c.request("initialize", {"capabilities": {}})
        check(r.get("error", {}).get("code") == -32600, "a second initialize: InvalidRequest")

        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "version": 1, "text": text}})
        check(c.diagnostics(uri)["diagnostics"] == [], "the document checks clean")
        bad_params = [
            {"textDocument": {"uri": uri}, "position": {"line": "0", "character": 0}},
            {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
            {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2 ** 40}},
            {"textDocument": {"uri": 5}, "position": {"line": 0, "character": 0}},
            {"textDocument": "x", "position": [0, 0]},
            {},
        ]
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
            codes = [c.request(method, p).get("error", {}).get("code") for p in bad_params]
            check(codes == [-32602] * len(bad_params), "%s with wrong field types: InvalidParams %s" % (method, codes))
        r = c.request("textDocument/hover", ["not", "an", "object"])
        check(r.get("error", {}).get("code") == -32602, "params that are an array: InvalidParams")
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
            r = c.request(method, {"textDocument": {"uri": uri}, "position": {"line": 10 ** 9, "character": 10 ** 9}})
            check("result" in r and r["result"] in (None, {"isIncomplete": False, "items": []}),
                  "%s past the end of the document: an empty answer" % method)
        r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.exg"},
                                             "position": {"line": 0, "character": 0}})
        check(r.get("result", 1) is None, "hover in a document that is not open: null")
        r = c.request("workspace/symbol", {"query": "f"})
        check(r.get("error", {}).get("code") == -32601, "an unknown request: MethodNotFound")
        # Notifications with wrong field types or unknown methods are dropped.
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": "two"},
                                            "contentChanges": [{"text": 5}, 7, None]})
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri}, "contentChanges": "all"})
        c.notify("textDocument/didOpen", {"textDocument": {"uri": 17, "text": ["x"]}})
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:1", "text": "proc"}})
        c.notify("$/cancelRequest", {"id": 3})
        c.notify("no/such/notification", 5)
        c.send({"jsonrpc": "2.0", "id": 99, "result": None})  # a response: nothing to answer
        r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 8}})
        check("x: f32[n]" in (r.get("result") or {}).get("contents", {}).get("value", ""),
              "after all that, hover still answers: %s" % r)
        check(c.finish() == 0, "and the server ends with 0")
    except (TimeoutError, OSError) as e:
        check(False, "session: %s" % e)
    finally:
        c.proc.kill()
        c.proc.wait()


def main():
    global EXE
    EXE = sys.argv[1]
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}).encode()

    ends("Content-Length: 99999999999", b"Content-Length: 99999999999\r\n\r\n" + body, [-32600])
    ends("Content-Length: 2^64 and more", b"Content-Length: 999999999999999999999999\r\n\r\n{}", [-32600])
    limit = 64 << 20
    recovers("a body of 64 MiB + 1 (skipped)",
             b"Content-Length: %d\r\n\r\n" % (limit + 1) + b"x" * (limit + 1), [-32600])
    recovers("no Content-Length", b"Content-Type: application/json\r\n\r\n", [-32600])
    recovers("Content-Length: abc", b"Content-Length: abc\r\n\r\n", [-32600])
    recovers("Content-Length: -5", b"Content-Length: -5\r\n\r\n", [-32600])
    recovers("a header line without ':'", b"hello\r\nContent-Length: 2\r\n\r\n{}", [-32600])
    recovers("a header line of 1 MB", b"X-Long: " + b"a" * (1 << 20) + b"\r\nContent-Length: 2\r\n\r\n{}",
             [-32600])
    recovers("stray blank lines", b"\r\n\r\n\n", [])
    recovers("Content-Length: 0", b"Content-Length: 0\r\n\r\n", [-32700])
    recovers("invalid JSON", frame('{"jsonrpc": "2.0", "id": 1, "method": '), [-32700])
    recovers("JSON nested 100000 deep", frame("[" * 100000 + "]" * 100000), [-32700])
    recovers("objects nested 100000 deep", frame('{"a":' * 100000 + "1" + "}" * 100000), [-32700])
    recovers("invalid UTF-8", frame(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}'), [-32700])
    recovers("JSON that is not an object", frame("[1, 2]") + frame("42") + frame('"s"') + frame("null"),
             [-32600] * 4)
    recovers("a method that is not a string", frame('{"jsonrpc": "2.0", "id": 1, "method": 5}'), [-32600])
    recovers("an id that is an object", frame('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}'), [-32600])
    recovers("a lower-case header and LF alone",
             b"content-length: 2\n\n{}", [])
    ends("a body cut short", b"Content-Length: 100\r\n\r\n{\"jsonrpc\"", [-32600])
    ends("a header cut short", b"Content-Len", [-32600])
    ends("headers without their blank line", b"Content-Length: 10\r\n", [-32600])
    ends("nothing at all", b"", [])
    rng = random.Random(29)
    for n in range(3):
        noise = bytes(rng.randrange(256) for _ in range(200000))
        c = Client(EXE, stderr=open(os.devnull, "w"))
        try:
            c.write(noise)
            c.close_input()
            rc = c.proc.wait(timeout=30)
            check(rc == 1, "200 kB of random bytes (seed 29, #%d): ends with 1 (got %s)" % (n, rc))
        except (TimeoutError, OSError) as e:
            check(False, "random bytes #%d: %s" % (n, e))
        finally:
            c.proc.kill()
            c.proc.wait()

    with tempfile.TemporaryDirectory(prefix="exgc_lsp_bad_") as tmp:
        session(tmp)
    return check.result()


if __name__ == "__main__":
    sys.exit(main())
