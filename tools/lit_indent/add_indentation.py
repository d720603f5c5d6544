#!/usr/bin/env python3
"""add_indentation.py - make lit checks of printed procs see indentation.

FileCheck matches a pattern anywhere in a line, so `CHECK-NEXT: x[i] = 0.0`
passes whether the store sits in the loop or after it. In a printed proc the
indentation is the loop structure, so this script rewrites each plain
CHECK/CHECK-NEXT line that matches an indented output line as
`{{^}}<indentation><text>{{$}}` and adds --strict-whitespace to the file's
FileCheck (without it, FileCheck treats any run of spaces as one).

It runs each file's RUN line of the form `[not] %exgc ARGS [2>&1] | FileCheck
%s [OPTIONS]` (files with other or several such lines are left alone), walks
the output as FileCheck would, and only rewrites a check whose matched line
is exactly indentation + the check's text. Usage:
    add_indentation.py EXGC FILE...   (rewrites the files in place)
"""
import re
import shlex
import subprocess
import sys
import tempfile

RUN = re.compile(r'^\s*#\s*RUN:\s*(not\s+)?%exgc\s+(.*?)\s*(2>&1\s*)?\|\s*FileCheck\s+%s(.*)$')
CHECK = re.compile(r'^(\s*#\s*CHECK(-NEXT)?:)(\s*)(.*)$')


def output_of(exgc, path, args, tmp):
    args = args.replace('%s', shlex.quote(path)).replace('%t', tmp).replace('%S', path.rsplit('/', 1)[0])
    cmd = f'{exgc} --show-diag-kind {args}'
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120)
    return (r.stdout + r.stderr).split('\n')


def rewrite(exgc, path):
    lines = open(path).read().split('\n')
    runs = [(i, RUN.match(l)) for i, l in enumerate(lines) if 'RUN:' in l]
    if len(runs) != 1 or not runs[0][1] or '--strict-whitespace' in lines[runs[0][0]]:
        return False
    run_at, m = runs[0]
    text_all = open(path).read()
    if '--check-prefix' in m.group(4) or any(k in text_all for k in ('-DAG', '-LABEL', '-SAME')):
        return False
    with tempfile.TemporaryDirectory() as tmp:
        out = output_of(exgc, path, m.group(2), tmp + '/t')
    pos, changed = 0, False
    for i, l in enumerate(lines):
        c = CHECK.match(l)
        if not c:
            continue
        text = c.group(4)
        plain = '{{' not in text and '[[' not in text
        if not plain:
            # Follow regex checks loosely: FileCheck will; we only need a position.
            pat = re.escape(text)
            pat = re.sub(r'\\\{\\\{(.*?)\\\}\\\}', lambda g: g.group(1).replace('\\', ''), pat)
            pat = re.sub(r'\\\[\\\[.*?\\\]\\\]', '.*', pat)
        start = pos
        found = None
        for j in range(start, len(out)):
            hit = (text in out[j]) if plain else re.search(pat, out[j])
            if hit:
                found = j
                break
            if c.group(2):  # CHECK-NEXT: only the next line
                break
        if found is None:
            return False  # not following FileCheck's walk: leave the file alone
        pos = found + 1
        line = out[found]
        indent = line[:len(line) - len(line.lstrip(' '))]
        if plain and indent and line == indent + text:
            lines[i] = f'{c.group(1)} {{{{^}}}}{indent}{text}{{{{$}}}}'
            changed = True
    if not changed:
        return False
    lines[run_at] = lines[run_at].rstrip() + ' --strict-whitespace'
    open(path, 'w').write('\n'.join(lines))
    return True


def main():
    exgc = sys.argv[1]
    for path in sys.argv[2:]:
        if rewrite(exgc, path):
            print('rewrote', path)


if __name__ == '__main__':
    main()
