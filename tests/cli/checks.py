"""The tally shared by the command-line test scripts: each check passes or
prints why it failed, and finish() prints the closing line
"NAME: N passed, N failed" and exits 1 when any check failed."""
import sys

_passed = 0
_failed = 0


def check(name, cond, detail=""):
    global _passed, _failed
    if cond:
        _passed += 1
    else:
        _failed += 1
        print(f"FAIL {name}: {detail}")


def finish(suite):
    print(f"{suite}: {_passed} passed, {_failed} failed")
    sys.exit(1 if _failed else 0)
