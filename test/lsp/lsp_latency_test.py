#!/usr/bin/env python3
"""lsp_latency_test.py - exgc-lsp answers while it checks, and publishes only the latest.

  lsp_latency_test.py EXGC_LSP GEMM_HOPPER_EXG

Opens examples/gemm_hopper.exg (its check runs the schedules of eleven
kernels: seconds), waits until hover answers (the symbol index is built at
the typecheck stage, long before the schedules end), then, while the check
still runs, sends hover, definition and completion requests and measures
each answer's latency from the request's write to the answer's arrival.
Each kind is tried 3 times and the best of the 3 must be within 200 ms
(best of 3: the test runs beside others on a loaded 2-core machine, where a
single try can wait for a time slice; a server that answers only after the
check would miss by seconds on every try). All of it must happen before
the diagnostics of version 1 arrive, or the test proves nothing and fails.
Then: the diagnostics arrive with version 1; two quick edits (versions 2
and 3, within the debounce) publish only version 3's; an edit (version 5)
while version 4's check runs cancels it: only version 5's are published.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Checks, Client, position_of, uri_of  # noqa: E402

check = Checks()
LIMIT_S = 0.2
TRIES = 3


def main():
    exe, path = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(path) as f:
        text = f.read()
    uri = uri_of(path)
    c = Client(exe)
    c.initialize(os.path.dirname(path))
    opened = time.monotonic()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "exg", "version": 1, "text": text}})

    def params(needle, nth=0, offset=0):
        return {"textDocument": {"uri": uri}, "position": position_of(text, needle, nth, offset)}

    def published():
        return [m for _, m in c.pending if m.get("method") == "textDocument/publishDiagnostics"]

    # The index: the first hover with an answer.
    hover_at = params("acc: f32", 0)
    while True:
        r = c.request("textDocument/hover", hover_at)
        if r.get("result") or published() or time.monotonic() - opened > 30:
            break
        time.sleep(0.01)
    print("index ready %.3f s after didOpen" % (time.monotonic() - opened))

    kinds = [
        ("hover", "textDocument/hover", hover_at,
         lambda res: res and "acc: f32" in res["contents"]["value"]),
        ("definition", "textDocument/definition", params("from gemm_f32", 0, 5),
         lambda res: res and res["uri"] == uri and res["range"]["start"]["line"] == text[:text.index("proc gemm_f32")].count("\n")),
        ("completion", "textDocument/completion", params("divide_loop(p, \"m\"", 0),
         lambda res: res and {"divide_loop", "set_loop_mode", "p", "tile_m"} <= {i["label"] for i in res["items"]}),
    ]
    for name, method, p, good in kinds:
        latencies = []
        answers_ok = True
        for _ in range(TRIES):
            sent = time.monotonic()
            msg, arrived = c.response(c.start_request(method, p))
            latencies.append(arrived - sent)
            answers_ok = answers_ok and bool(good(msg.get("result")))
        best = min(latencies)
        print("%s: %s ms (median %.1f ms)" % (name, ", ".join("%.1f" % (t * 1000) for t in latencies),
                                              statistics.median(latencies) * 1000))
        check(best <= LIMIT_S, "%s answered within %d ms while the check runs (best of %d: %.1f ms)"
              % (name, LIMIT_S * 1000, TRIES, best * 1000))
        check(answers_ok, "%s answered from the index" % name)
    check(not published(), "all of it before the check of version 1 ended (%.2f s after didOpen)"
          % (time.monotonic() - opened))

    first = c.diagnostics(uri, timeout=600)
    checked_s = time.monotonic() - opened
    print("version 1 checked in %.2f s" % checked_s)
    check(first.get("version") == 1, "the diagnostics of the open are of version 1: %s" % first.get("version"))

    # Two quick edits: only the second is checked and published.
    edited = text + "\n# edit 2\n"
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]})
    edited += "# edit 3\n"
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": edited}]})
    second = c.diagnostics(uri, timeout=600)
    check(second.get("version") == 3, "after two quick edits, diagnostics of version 3 only: %s"
          % second.get("version"))

    # An edit while a check runs: that check is cancelled, only the later version is published.
    edited += "# edit 4\n"
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": edited}]})
    # Past the debounce (250 ms) and well inside version 4's check, which takes
    # about as long as version 1's (a fixed wait missed it once checks got fast).
    time.sleep(0.25 + 0.4 * checked_s)
    edited += "# edit 5\n"
    changed = time.monotonic()
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": edited}]})
    third = c.diagnostics(uri, timeout=600)
    print("version 5 published %.2f s after its edit" % (time.monotonic() - changed))
    check(third.get("version") == 5, "an edit during a check: diagnostics of version 5 only: %s"
          % third.get("version"))
    check(len(third["diagnostics"]) == len(first["diagnostics"]),
          "the same diagnostics as version 1 (%d)" % len(first["diagnostics"]))

    rc = c.finish()
    check(rc == 0, "shutdown and exit: 0 (got %s)" % rc)
    return check.result()


if __name__ == "__main__":
    sys.exit(main())
