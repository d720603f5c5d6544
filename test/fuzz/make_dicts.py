#!/usr/bin/env python3
# make_dicts.py - write the libFuzzer dictionaries from the sources of truth.
#
# usage: make_dicts.py SOURCE_ROOT OUT_DIR
# exg.dict: the lexer's literal tokens (keywords, operators), the primitive
# names of compiler/schedule/primitives.def, and the identifiers the stdlib
# defines or uses (memories, units, timelines, instrs, contexts).
# sync.dict: the statement and flag words of the .sync grammar
# (compiler/sync/program.h), qualifier and timeline names (quals.cpp).
# tools/dev.sh fuzz runs it, so the dictionaries follow the language.
import os
import re
import sys


def escape(c):
    # libFuzzer's dictionary syntax: printable ASCII, \\, \" and \xNN.
    if c in '\\"':
        return "\\" + c
    return c if " " <= c <= "~" else "\\x%02X" % ord(c)


def entries(words):
    out = []
    for w in sorted(set(words)):
        if not w or len(w) > 40:
            continue
        out.append('"%s"' % "".join(escape(c) for c in w))
    return "\n".join(out) + "\n"


def main(root, out_dir):
    lexer = open(os.path.join(root, "grammar", "ExgLexer.g4")).read()
    lexer = re.sub(r"//[^\n]*", "", lexer)
    exg = [w for w in re.findall(r"'((?:[^'\\]|\\.)*)'", lexer) if "\\" not in w and " " not in w]
    prims = open(os.path.join(root, "compiler", "schedule", "primitives.def")).read()
    exg += re.findall(r"^EXGC_(?:PRIMITIVE|PLANNED)\((\w+)", prims, re.M)
    for dirpath, _, files in os.walk(os.path.join(root, "stdlib")):
        for f in files:
            if f.endswith(".exg"):
                text = open(os.path.join(dirpath, f)).read()
                exg += [w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text) if len(w) > 2]
    exg += ["\n    ", "seq(0, ", "schedule s from f:\n    ", "p.find(\"", "f32[", "size",
            "index", "i32", "f16", "bf16", "DRAM", "\nproc "]

    program_h = open(os.path.join(root, "compiler", "sync", "program.h")).read()
    grammar = program_h[program_h.index("program  :="):program_h.index("#ifndef")]
    sync = re.findall(r"'([^']+)'", grammar)
    quals = open(os.path.join(root, "compiler", "sync", "quals.cpp")).read()
    sync += re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', quals)
    sync += [" q=", " ext={", " {\n", "}\n", " dim=", " width=", " stride=", " offset=",
             " @ f.exg:1:1", "9223372036854775807", "-9223372036854775807", "4611686018427387904"]

    os.makedirs(out_dir, exist_ok=True)
    open(os.path.join(out_dir, "exg.dict"), "w").write(entries(exg))
    open(os.path.join(out_dir, "sync.dict"), "w").write(entries(sync))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: make_dicts.py SOURCE_ROOT OUT_DIR")
    main(sys.argv[1], sys.argv[2])
