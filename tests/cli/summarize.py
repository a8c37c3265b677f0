#!/usr/bin/env python3
"""Prints the closing line of a meson test run ("N passed, N failed") from its
JSON test log, and exits 1 when any test failed, none ran, or there is no
log (meson test did not run)."""
import json
import os
import sys

path = sys.argv[1]
if not os.path.exists(path):
    print(f"tests: no test log at {path}: meson test did not run")
    print("tests: 0 passed, 1 failed")
    sys.exit(1)
passed = failed = 0
names = []
with open(path) as log:
    for line in log:
        entry = json.loads(line)
        if entry.get("result") in ("OK", "EXPECTEDFAIL"):
            passed += 1
        else:
            failed += 1
            names.append(entry.get("name"))
if names:
    print("failed: " + ", ".join(names))
print(f"tests: {passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
