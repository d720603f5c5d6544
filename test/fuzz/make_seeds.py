#!/usr/bin/env python3
# make_seeds.py - seed inputs of the libFuzzer targets, from the tests.
#
# usage: make_seeds.py SOURCE_ROOT OUT_DIR
# Writes OUT_DIR/<target>/ for each target of test/fuzz/:
#   frontend_fuzz  every .exg of test/ and examples/ (and the stdlib's)
#   schedule_fuzz  the `schedule` blocks of those files (they run against the
#                  target's fixed procs: names that do not resolve still
#                  exercise the script language), plus scripts of
#                  script_fuzz.py's generator
#   sync_fuzz      every .sync of test/
#   driver_fuzz    option lines taken from the RUN lines of test/lit/driver
#   lsp_fuzz       framed client sessions (open, hover, completion,
#                  definition, change, cancel, shutdown) over the examples
# The committed minimized corpora (test/fuzz/corpus/<target>) are seeds too.
import glob
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_fuzz  # noqa: E402  (the generator of random schedule scripts)


def write(out_dir, target, name, text):
    d = os.path.join(out_dir, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def schedule_blocks(text):
    lines, blocks, cur = text.splitlines(), [], None
    for line in lines:
        if line.startswith("schedule "):
            cur = [line]
            blocks.append(cur)
        elif cur is not None and (line.startswith(" ") or not line.strip()):
            cur.append(line)
        else:
            cur = None
    return ["\n".join(b) + "\n" for b in blocks]


def lsp_session(uri, text):
    """What an editor writes to exgc-lsp while a user opens and edits a file."""
    at = {"textDocument": {"uri": uri}, "position": {"line": 1, "character": 4}}
    msgs = [
        {"id": 1, "method": "initialize", "params": {"capabilities": {"textDocument": {
            "publishDiagnostics": {"relatedInformation": True}}}}},
        {"method": "initialized", "params": {}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "exg", "version": 1, "text": text}}},
        {"id": 2, "method": "textDocument/hover", "params": at},
        {"id": 3, "method": "textDocument/completion", "params": at},
        {"id": 4, "method": "textDocument/definition", "params": at},
        {"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": text[: len(text) // 2]}]}},
        {"method": "$/cancelRequest", "params": {"id": 3}},
        {"id": 5, "method": "shutdown"},
        {"method": "exit"},
    ]
    out = []
    for m in msgs:
        body = json.dumps(dict(jsonrpc="2.0", **m))
        out.append("Content-Length: %d\r\n\r\n%s" % (len(body.encode()), body))
    return "".join(out)


def main(root, out_dir):
    exg = sorted(glob.glob(os.path.join(root, "test", "**", "*.exg"), recursive=True) +
                 glob.glob(os.path.join(root, "examples", "*.exg")) +
                 glob.glob(os.path.join(root, "stdlib", "**", "*.exg"), recursive=True))
    for i, f in enumerate(exg):
        text = open(f, errors="replace").read()
        write(out_dir, "frontend_fuzz", "t%04d.exg" % i, text)
        for j, b in enumerate(schedule_blocks(text)):
            write(out_dir, "schedule_fuzz", "t%04d_%d.exg" % (i, j), b)
    gen = script_fuzz.Gen(random.Random(1), script_fuzz.primitives(root))
    for i in range(40):
        write(out_dir, "schedule_fuzz", "gen%02d.exg" % i, gen.module()[len(script_fuzz.HEAD):])
    for i, f in enumerate(sorted(glob.glob(os.path.join(root, "test", "**", "*.sync"),
                                           recursive=True))):
        write(out_dir, "sync_fuzz", "t%04d.sync" % i, open(f, errors="replace").read())
    n = 0
    for f in sorted(g for g in glob.glob(os.path.join(root, "test", "lit", "driver", "*"))
                    if os.path.isfile(g)):
        for run in re.findall(r"RUN:.*?%exgc(.*)", open(f, errors="replace").read()):
            args = [a for a in run.split("|")[0].split() if not a.startswith("%") and "/" not in a
                    and a not in ("2>&1", ">", "not")]
            write(out_dir, "driver_fuzz", "r%03d" % n, chr(n % 3) + "\n".join(args))
            n += 1
    for i, f in enumerate(sorted(glob.glob(os.path.join(root, "examples", "*.exg")))):
        text = open(f, errors="replace").read()[:16000]
        # The first byte sets the size of the pieces the bytes arrive in.
        write(out_dir, "lsp_fuzz", "s%02d" % i, chr(1 + i * 7 % 64) + lsp_session("file:///e.exg", text))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_seeds.py SOURCE_ROOT OUT_DIR")
    main(sys.argv[1], sys.argv[2])
