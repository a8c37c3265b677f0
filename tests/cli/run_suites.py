#!/usr/bin/env python3
"""Runs pathrelax over the bundled litmus suites and compares each result
with the one recorded by hand in the test's .expect file.

Usage: run_suites.py PATHRELAX SOURCE_ROOT [--table] [SUITE...]

An .expect file has one block per model (a block without state lines
checks only the verdict, violations and completeness):
    model sc
    verdict Ok|No
    state P0:r0=0; P1:r1=1;
    ...
and optionally "violations N" (default 0), "complete no", and
"options ARGS" (extra command-line arguments for that model's run, e.g.
"options --stop-on-violation" for a program whose full state space is out of
reach). Lines starting
with # are the hand derivation. The test passes when the set of final
states, the verdict, the number of distinct violations and the exit status
all match. With --table it also prints one summary line per test and model.
"""
import os
import re
import subprocess
import sys

SUITES = ["classic", "causality", "programs"]


def parse_expect(path):
    blocks, cur = [], None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, rest = line.partition(" ")
            if key == "model":
                cur = {"model": rest.strip(), "verdict": None, "states": set(),
                       "violations": 0, "complete": True, "options": [], "line": n}
                blocks.append(cur)
            elif cur is None:
                raise ValueError(f"{path}:{n}: '{key}' before any 'model' line")
            elif key == "verdict":
                cur["verdict"] = rest.strip()
            elif key == "state":
                cur["states"].add(normalise_state(rest))
            elif key == "violations":
                cur["violations"] = int(rest)
            elif key == "options":
                cur["options"] = rest.split()
            elif key == "complete":
                cur["complete"] = rest.strip() == "yes"
            else:
                raise ValueError(f"{path}:{n}: unknown key '{key}'")
    return blocks


def normalise_state(text):
    return " ".join(text.split())


def parse_text(out):
    """States, verdict and violation count from herd-style text."""
    lines = out.splitlines()
    states, verdict, violations, complete = set(), None, 0, True
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"States (\d+)$", line)
        if m:
            for j in range(int(m.group(1))):
                states.add(normalise_state(lines[i + 1 + j]))
            i += int(m.group(1)) + 1
            continue
        if line in ("Ok", "No"):
            verdict = line
        m = re.match(r"Violations (\d+)$", line)
        if m:
            violations = int(m.group(1))
        if line == "Complete no":
            complete = False
        i += 1
    return states, verdict, violations, complete


def models_of(binary):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    m = re.search(r"Memory model: ([a-z, ]+) \(default", out)
    return [x.strip() for x in m.group(1).split(",")] if m else ["sc"]


def main():
    args = sys.argv[1:]
    table = "--table" in args
    args = [a for a in args if a != "--table"]
    binary, root = args[0], args[1]
    suites = args[2:] or SUITES
    available = models_of(binary)
    failures, checked, skipped = 0, 0, []
    if table:
        print(f"{'test':<24} {'model':<5} {'verdict':<8} {'expected':<8} {'violations':>10} "
              f"{'expected':>8} {'states':>6} {'time':>7}")
    for suite in suites:
        d = os.path.join(root, "litmus", suite)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".litmus"):
                continue
            path = os.path.join(d, name)
            expect = path[:-len(".litmus")] + ".expect"
            if not os.path.exists(expect):
                print(f"FAIL {suite}/{name}: no .expect file with its hand-derived result")
                failures += 1
                continue
            for block in parse_expect(expect):
                model = block["model"]
                if model not in available:
                    skipped.append(f"{suite}/{name}:{model}")
                    continue
                checked += 1
                proc = subprocess.run([binary, "--model", model, *block["options"], path],
                                      capture_output=True, text=True, timeout=300)
                states, verdict, violations, complete = parse_text(proc.stdout)
                problems = []
                if proc.returncode == 2 or proc.returncode < 0:
                    problems.append(f"exit status {proc.returncode}: {proc.stderr.strip()}")
                # A block without state lines checks the verdict only (for
                # models whose full state set is not derived by hand).
                if block["states"] and states != block["states"]:
                    missing = block["states"] - states
                    extra = states - block["states"]
                    if missing:
                        problems.append("missing states: " + " | ".join(sorted(missing)))
                    if extra:
                        problems.append("unexpected states: " + " | ".join(sorted(extra)))
                if block["verdict"] and verdict != block["verdict"]:
                    problems.append(f"verdict {verdict}, expected {block['verdict']}")
                if violations != block["violations"]:
                    problems.append(f"{violations} violations, expected {block['violations']}")
                if complete != block["complete"]:
                    problems.append(f"complete={complete}, expected {block['complete']}")
                wrong = block["verdict"] == "No" or block["violations"] > 0
                want_status = 1 if wrong else (0 if block["complete"] else 3)
                if not problems and proc.returncode != want_status:
                    problems.append(f"exit status {proc.returncode}, expected {want_status}")
                if table:
                    t = re.search(r"^Time \S+ ([0-9.]+)", proc.stdout, re.M)
                    print(f"{suite + '/' + name[:-7]:<24} {model:<5} {verdict or '-':<8} "
                          f"{block['verdict'] or '-':<8} {violations:>10} {block['violations']:>8} "
                          f"{len(states):>6} {t.group(1) if t else '?':>7}"
                          + ("" if not problems else "  MISMATCH"))
                if problems:
                    failures += 1
                    print(f"FAIL {suite}/{name} --model {model} (expected at {expect}:{block['line']})")
                    for p in problems:
                        print("     " + p)
    if skipped:
        print(f"not checked (model not built yet): {', '.join(skipped)}")
    print(f"suites: {checked - failures} passed, {failures} failed")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()
