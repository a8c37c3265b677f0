#!/usr/bin/env python3
"""Command-line tests: options, exit statuses, JSON shape, several files,
bounds and limits, violations. Each program below carries its expected
answer, argued in a comment.

Usage: run_options.py PATHRELAX SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

BINARY = sys.argv[1]
ROOT = sys.argv[2]
CLASSIC = os.path.join(ROOT, "litmus", "classic")


def run(*args, cwd=None):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120, cwd=cwd)




def litmus(tmp, name, text):
    path = os.path.join(tmp, name + ".litmus")
    with open(path, "w") as f:
        f.write(text)
    return path


def main():
    # --- usage errors: exit 2 with a message that says what to do
    for args, needle in [(["--no-such-option", "x.litmus"], "Unknown option"),
                         (["--model", "arm", "x.litmus"], "unknown model 'arm'"),
                         (["--format", "xml", "x.litmus"], "unknown format 'xml'"),
                         (["--unroll", "-1", "x.litmus"], "--unroll"),
                         ([], "no litmus file given")]:
        p = run(*args)
        check(f"usage {args}", p.returncode == 2 and needle in p.stderr and "--help" in p.stderr,
              f"status {p.returncode}, stderr {p.stderr!r}")

    # --- --help documents the exit statuses
    p = run("--help")
    check("help", p.returncode == 0 and "Exit status:" in p.stdout and "  3  " in p.stdout,
          p.stdout[-400:])

    sb = os.path.join(CLASSIC, "SB.litmus")
    mp = os.path.join(CLASSIC, "MP.litmus")

    # --- herd-shaped text for SB under sc: 3 states, condition fails (No), exit 1
    p = run("--model", "sc", sb)
    lines = p.stdout.splitlines()
    check("sb text header", lines[:2] == ["Test SB Allowed", "States 3"], lines[:2])
    check("sb text verdict", "No" in lines and "Witnesses" in lines
          and "Positive: 0 Negative: 3" in lines, p.stdout)
    check("sb observation", "Observation SB Never 0 3" in lines, p.stdout)
    check("sb time line", any(l.startswith("Time SB ") for l in lines), p.stdout)
    check("sb exit", p.returncode == 1, p.returncode)

    # --- JSON for one file is one object with the documented keys
    p = run("--model", "sc", "--format", "json", sb)
    doc = json.loads(p.stdout)
    check("json object", isinstance(doc, dict), type(doc))
    for key in ["name", "model", "complete", "states", "condition", "violations", "stats"]:
        check(f"json key {key}", key in doc, sorted(doc))
    check("json name/model", doc["name"] == "SB" and doc["model"] == "sc", doc.get("name"))
    check("json states", sorted(json.dumps(s, sort_keys=True) for s in doc["states"]) ==
          sorted(json.dumps(s, sort_keys=True) for s in
                 [{"P0:r0": 0, "P1:r1": 1}, {"P0:r0": 1, "P1:r1": 0}, {"P0:r0": 1, "P1:r1": 1}]),
          doc["states"])
    cond = doc["condition"]
    check("json condition", cond["kind"] == "exists" and cond["validated"] is False
          and cond["positive"] == 0 and cond["negative"] == 3, cond)
    for key in ["executions", "states_visited", "cut", "seconds"]:
        check(f"json stats {key}", key in doc["stats"], sorted(doc["stats"]))

    # --- several files: a JSON array, one object each, in order
    p = run("--model", "sc", "--format", "json", sb, mp)
    doc = json.loads(p.stdout)
    check("json array", isinstance(doc, list) and [d["name"] for d in doc] == ["SB", "MP"], p.stdout[:200])

    with tempfile.TemporaryDirectory() as tmp:
        # A condition that holds and no violation: exit 0.
        # Under sc some final state has r0 = 1 (P0 runs after P1's write).
        ok = litmus(tmp, "ok", "Java ok\nint x;\nthread P0 { int r0 = x; }\nthread P1 { x = 1; }\n"
                               "exists (P0:r0 == 1)\n")
        p = run("--model", "sc", ok)
        check("exit 0", p.returncode == 0 and "\nOk\n" in p.stdout, (p.returncode, p.stdout))

        # forall that fails: r0 may be 0. Required kind, No, exit 1.
        fa = litmus(tmp, "fa", "Java fa\nint x;\nthread P0 { int r0 = x; }\nthread P1 { x = 1; }\n"
                               "forall (P0:r0 == 1)\n")
        p = run("--model", "sc", fa)
        check("forall", p.returncode == 1 and p.stdout.startswith("Test fa Required")
              and "Observation fa Sometimes 1 1" in p.stdout, p.stdout)

        # ~exists that holds: Forbidden kind (as herd), Ok, exit 0.
        ne = litmus(tmp, "ne", "Java ne\nint x;\nthread P0 { int r0 = x; }\n"
                               "~exists (P0:r0 == 2)\n")
        p = run("--model", "sc", ne)
        check("not exists", p.returncode == 0 and p.stdout.startswith("Test ne Forbidden"), p.stdout)

        # A loop whose state never repeats is cut by --unroll: exit 3, Complete no.
        loop = litmus(tmp, "loop", "Java loop\nint x;\nthread P0 { int i = 0; while (true) { i++; x = i; } }\n"
                                   "~exists (x == 100)\n")
        p = run("--model", "sc", "--unroll", "2", loop)
        check("unroll cut", p.returncode == 3 and "Complete no" in p.stdout
              and "cut by --unroll 2" in p.stdout, (p.returncode, p.stdout))
        p = run("--model", "sc", "--unroll", "2", "--format", "json", loop)
        doc = json.loads(p.stdout)
        check("unroll json", doc["complete"] is False and doc["stats"]["cut"] >= 1, doc["stats"])

        # --max-states stops the search honestly: exit 3 and the limit named.
        p = run("--model", "sc", "--max-states", "2", os.path.join(CLASSIC, "IRIW.litmus"))
        check("max states", p.returncode in (1, 3) and "state limit" in p.stdout, (p.returncode, p.stdout))

        # Violations: a failed assert and a deadlock, each with a trace; exit 1.
        bad = litmus(tmp, "viol", "Java viol\nint x;\nthread P0 { x = 1; }\n"
                                  "thread P1 { int r = x;\n  assert r == 1 : \"stale\";\n}\n")
        p = run("--model", "sc", bad)
        check("assert violation", p.returncode == 1 and "Violations 1" in p.stdout
              and "Violation assert P1 line 5: assertion failed: stale" in p.stdout
              and "P1 L.4: R x = 0 [INIT]" in p.stdout, p.stdout)
        p = run("--model", "sc", "--format", "json", bad)
        v = json.loads(p.stdout)["violations"]
        check("assert json", len(v) == 1 and v[0]["kind"] == "assert" and v[0]["thread"] == "P1"
              and v[0]["line"] == 5 and isinstance(v[0]["trace"], list), v)

        # One bad file among good ones: the good ones are still checked, exit 2.
        broken = litmus(tmp, "broken", "Java broken\nthread P0 { int r = ; }\n")
        p = run("--model", "sc", sb, broken)
        check("mixed files", p.returncode == 2 and "Test SB Allowed" in p.stdout
              and "broken.litmus:2:" in p.stderr, (p.returncode, p.stderr))

    finish("options")


if __name__ == "__main__":
    main()
