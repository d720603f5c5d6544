#!/usr/bin/env python3
"""check_sarif.py LOG EXPECTED_RESULTS - the structure of exgc's SARIF 2.1.0 output.

Checks what code-scanning tools (GitHub's upload-sarif among them) require of
a log: version and $schema; one run whose tool.driver has a name, a version
and rules with unique ids, each with a short and a full description that
are text (no `{0}` argument holes of exgc's message formats); results whose ruleId is a registered kind listed
among the rules at ruleIndex, whose level is error, warning, note or none,
whose message has text, whose locations are physical with an artifact URI and
a region of 1-based startLine and startColumn, and whose relatedLocations
have an id, a physical location and a message. Prints each rule's descriptions and one line per result
(ruleId level uri:line:col, then each related location) for FileCheck.
"""
import json
import re
import sys


def fail(what):
    sys.exit("check_sarif: " + what)


def physical(loc, where):
    p = loc.get("physicalLocation")
    if not isinstance(p, dict):
        fail(where + ": no physicalLocation")
    uri = p.get("artifactLocation", {}).get("uri")
    if not isinstance(uri, str) or not uri:
        fail(where + ": no artifactLocation.uri")
    region = p.get("region", {})
    line, col = region.get("startLine", 1), region.get("startColumn", 1)
    if not (isinstance(line, int) and line >= 1 and isinstance(col, int) and col >= 1):
        fail(where + ": startLine and startColumn must be integers >= 1")
    return "%s:%d:%d" % (uri, line, col)


def main():
    log = json.load(open(sys.argv[1]))
    expected = int(sys.argv[2])
    if log.get("version") != "2.1.0" or "sarif-2.1.0" not in log.get("$schema", ""):
        fail("version must be 2.1.0 with the 2.1.0 schema")
    runs = log.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("one run expected")
    run = runs[0]
    driver = run.get("tool", {}).get("driver", {})
    if driver.get("name") != "exgc" or not driver.get("version"):
        fail("tool.driver needs name exgc and a version")
    rules = driver.get("rules", [])
    ids = [r.get("id") for r in rules]
    if len(set(ids)) != len(ids) or not all(isinstance(i, str) and i for i in ids):
        fail("rule ids must be unique non-empty strings")
    for r in rules:
        for d in ("shortDescription", "fullDescription"):
            text = r.get(d, {}).get("text")
            if not text:
                fail("rule %s has no %s.text" % (r.get("id"), d))
            if re.search(r"\{[0-9]+\}", text):
                fail("rule %s: %s has an argument hole: %s" % (r.get("id"), d, text))
        if r.get("defaultConfiguration", {}).get("level") not in ("error", "warning", "note"):
            fail("rule %s has no default level" % r.get("id"))
    print("rules: " + " ".join(ids))
    for r in rules:
        print("rule %s: %s | %s" % (r["id"], r["shortDescription"]["text"],
                                    r["fullDescription"]["text"]))
    results = run.get("results")
    if not isinstance(results, list) or len(results) != expected:
        fail("expected %d results, got %s" % (expected, len(results or [])))
    for n, res in enumerate(results):
        where = "result %d" % n
        rid, index = res.get("ruleId"), res.get("ruleIndex")
        if not isinstance(index, int) or not 0 <= index < len(rules) or rules[index]["id"] != rid:
            fail(where + ": ruleIndex does not point at ruleId's rule")
        if res.get("level") not in ("error", "warning", "note", "none"):
            fail(where + ": bad level")
        if not res.get("message", {}).get("text"):
            fail(where + ": no message text")
        places = [physical(l, where) for l in res.get("locations", [])]
        print("%s %s %s" % (rid, res["level"], " ".join(places)))
        related_ids = set()
        for rel in res.get("relatedLocations", []):
            if not isinstance(rel.get("id"), int) or rel["id"] in related_ids:
                fail(where + ": related locations need unique integer ids")
            related_ids.add(rel["id"])
            if not rel.get("message", {}).get("text"):
                fail(where + ": related location without a message")
            print("  related %s %s" % (physical(rel, where), rel["message"]["text"]))


if __name__ == "__main__":
    main()
