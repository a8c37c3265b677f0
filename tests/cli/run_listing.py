#!/usr/bin/env python3
"""Command-line tests of --list-executions (text and JSON), --dot, --stats
and --no-drf-shortcut.

Usage: run_listing.py PATHRELAX SOURCE_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

BINARY = sys.argv[1]
ROOT = sys.argv[2]
CLASSIC = os.path.join(ROOT, "litmus", "classic")
SB = os.path.join(CLASSIC, "SB.litmus")
MP = os.path.join(CLASSIC, "MP.litmus")

# SB under sc: each read sees the initial write or the other thread's;
# SC forbids both seeing the initial one, so 3 executions.
SB_SC_EXECUTIONS = 3
ACTION_KEYS = {"id", "kind", "thread", "line", "location", "value"}


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=120)




def listing_text():
    p = run("--model", "sc", "--list-executions", SB)
    lines = p.stdout.splitlines()
    check("text exit", p.returncode == 1, p.returncode)   # the condition fails under sc
    check("text result first", lines[:2] == ["Test SB Allowed", "States 3"], lines[:2])
    blocks = [l for l in lines if re.match(r"Execution \d+:", l)]
    check("text blocks", len(blocks) == SB_SC_EXECUTIONS, blocks)
    time = [i for i, l in enumerate(lines) if l.startswith("Time SB ")]
    check("text section after the result", len(time) == 1 and time[0] + 1 < len(lines)
          and lines[time[0] + 1] == f"Executions {SB_SC_EXECUTIONS}", p.stdout)
    check("text block states", all(re.match(r"Execution \d+: P0:r0=\d; P1:r1=\d;$", b) for b in blocks),
          blocks)
    check("text ids", "<W,P0,x,0>" in p.stdout and "<R,P1,x,0>" in p.stdout
          and "<W,init,y,0>" in p.stdout, p.stdout)
    check("text reads-from", "reads-from <W,P1,y,0>" in p.stdout, p.stdout)
    check("text no future under sc", "(future)" not in p.stdout, p.stdout)
    plain = run("--model", "sc", SB)
    check("text without option", "Execution 1:" not in plain.stdout, plain.stdout)


def listing_json():
    p = run("--model", "sc", "--format", "json", "--list-executions", SB)
    doc = json.loads(p.stdout)
    execs = doc.get("executions", [])
    check("json executions", len(execs) == SB_SC_EXECUTIONS, len(execs))
    check("json index", [e["index"] for e in execs] == list(range(1, SB_SC_EXECUTIONS + 1)), execs)
    for e in execs:
        check("json execution keys", set(e) == {"index", "states", "actions"}, sorted(e))
        check("json states", all(set(s) == {"P0:r0", "P1:r1"} for s in e["states"]), e["states"])
        for a in e["actions"]:
            check("json action keys", ACTION_KEYS <= set(a), sorted(a))
            is_read = a["kind"] in ("R", "Rv")
            check("json reads_from", ("reads_from" in a) == is_read and ("future" in a) == is_read, a)
    plain = json.loads(run("--model", "sc", "--format", "json", SB).stdout)
    check("json without option", "executions" not in plain, sorted(plain))


def dot_files():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "graphs")
        p = run("--model", "sc", "--dot", out, SB)
        names = sorted(os.listdir(out)) if os.path.isdir(out) else []
        check("dot files", names == [f"SB-{n}.dot" for n in range(1, SB_SC_EXECUTIONS + 1)], names)
        check("dot exit", p.returncode == 1, (p.returncode, p.stderr))
        if names:
            with open(os.path.join(out, names[0])) as f:
                text = f.read()
            check("dot digraph", text.startswith('digraph "SB-1"') and text.count("subgraph cluster_") == 3,
                  text[:200])
            check("dot edges", 'label="po"' in text and 'label="rf"' in text and 'label="sw"' in text, text)
        blocked = os.path.join(tmp, "file")
        open(blocked, "w").close()
        p = run("--model", "sc", "--dot", os.path.join(blocked, "sub"), SB)
        check("dot unwritable", p.returncode == 2 and "error" in p.stderr, (p.returncode, p.stderr))


def stats_table():
    p = run("--model", "sc", "--stats", SB, MP)
    lines = p.stdout.splitlines()
    header = [i for i, l in enumerate(lines) if l.split()[:1] == ["test"]]
    check("stats header", len(header) == 1 and lines[header[0]].split() ==
          ["test", "threads", "iter", "time", "1st", "ave", "WS", "states", "mem"], lines[-4:])
    rows = lines[header[0] + 1:] if header else []
    check("stats rows", [r.split()[0] for r in rows] == ["SB", "MP"], rows)
    check("stats sc cells", all(r.split()[2] == "1" and r.split()[6] == "-" for r in rows), rows)
    p = run("--model", "jmm", "--stats", SB)
    row = p.stdout.splitlines()[-1].split()
    check("stats jmm row", row[0] == "SB" and row[6] != "-" and int(row[2]) >= 1, row)
    p = run("--model", "sc", "--stats", "--format", "json", SB)
    check("stats json unchanged", "stats" in json.loads(p.stdout), p.stdout[:200])


def no_drf_shortcut():
    # SB+volatiles is data-race free: jmm answers it from its SC executions
    # in one round, unless --no-drf-shortcut forces the rounds. Either way
    # its condition (both reads 0) fails: exit 1.
    path = os.path.join(CLASSIC, "SB+volatiles.litmus")
    p = run("--model", "jmm", path)
    check("drf shortcut by default", "DRF yes" in p.stdout and "Rounds 1" in p.stdout, p.stdout)
    p = run("--model", "jmm", "--no-drf-shortcut", path)
    check("no-drf-shortcut", p.returncode == 1 and "DRF yes" not in p.stdout
          and "Rounds 1" not in p.stdout, (p.returncode, p.stdout, p.stderr))
    check("no-drf-shortcut help", "--no-drf-shortcut" in run("--help").stdout)


def main():
    listing_text()
    listing_json()
    dot_files()
    stats_table()
    no_drf_shortcut()
    finish("listing")


if __name__ == "__main__":
    main()
