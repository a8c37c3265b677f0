#!/usr/bin/env python3
"""Bad-input tests: every tests/bad/NAME.litmus must be rejected with exit
status 2, nothing on standard output, and a first error line ending with
the line recorded in NAME.expect (FILE:LINE:COL: error: MESSAGE), followed
by the offending source line and a caret under the column.

Usage: run_bad.py PATHRELAX BAD_DIR
"""
import os
import re
import subprocess
import sys
import tempfile


def check(binary, path, expected):
    problems = []
    # Run from an unrelated directory, with the path as given.
    with tempfile.TemporaryDirectory() as cwd:
        proc = subprocess.run([binary, "--model", "sc", path], capture_output=True,
                              text=True, cwd=cwd, timeout=60)
    if proc.returncode != 2:
        problems.append(f"exit status {proc.returncode}, expected 2")
    if proc.stdout:
        problems.append("printed results although the input is bad: " + proc.stdout[:200])
    lines = proc.stderr.splitlines()
    if not lines or not lines[0].endswith(expected):
        problems.append(f"first error line {lines[0] if lines else '(none)'!r}, expected it to end with {expected!r}")
        return problems
    m = re.search(r":(\d+):(\d+): error: ", expected)
    if m and len(lines) >= 3:
        line_no, col = int(m.group(1)), int(m.group(2))
        with open(path, encoding="utf-8", errors="replace") as f:
            src = f.read().split("\n")
        want_src = src[line_no - 1] if line_no - 1 < len(src) else ""
        if lines[1] != want_src:
            problems.append(f"source line {lines[1]!r}, expected {want_src!r}")
        caret = lines[2]
        if caret.strip() != "^" or caret.index("^") != col - 1:
            problems.append(f"caret line {caret!r} is not under column {col}")
    elif m:
        problems.append("no source line and caret after the message")
    return problems


def main():
    binary, bad_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    names = sorted(n for n in os.listdir(bad_dir) if n.endswith(".litmus"))
    failures = 0
    for name in names:
        path = os.path.join(bad_dir, name)
        expect_path = path[:-len(".litmus")] + ".expect"
        with open(expect_path) as f:
            expected = f.read().strip()
        problems = check(binary, path, expected)
        if problems:
            failures += 1
            print(f"FAIL {name}")
            for p in problems:
                print("     " + p)
        else:
            print(f"ok   {name}: {expected}")
    # A file that does not exist is an input error too.
    proc = subprocess.run([binary, os.path.join(bad_dir, "no-such-file.litmus")],
                          capture_output=True, text=True)
    if proc.returncode != 2 or "error: cannot read" not in proc.stderr:
        failures += 1
        print(f"FAIL missing file: status {proc.returncode}, stderr {proc.stderr!r}")
    print(f"bad input: {len(names) + 1 - failures} passed, {failures} failed")
    sys.exit(1 if failures or not names else 0)


if __name__ == "__main__":
    main()
