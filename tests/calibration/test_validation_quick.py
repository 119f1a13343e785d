#!/usr/bin/python3
"""The shipped validation cases (validation/) in their quick form, as CI runs them: every case
runs (no run fails), the command exits 0 (each case within its tolerance or marked
`expect: fail`), and the JSON holds, per case, its source and a point per measured value with
error = model / measured - 1 (relative) or model - measured (absolute).

Usage: test_validation_quick.py PTSIM VALIDATION_DIR [CASE,CASE,...]
With a list of cases, only those run (CI: the code paths, not every case's numbers, which
calibration_readme_compare checks in full in the plain build).
"""
import json
import math
import os
import subprocess
import sys

ptsim, vdir = sys.argv[1], sys.argv[2]
only = sorted(sys.argv[3].split(",")) if len(sys.argv) > 3 else []
problems = []
r = subprocess.run([ptsim, "compare", "--quick", "--dir", vdir, "--format", "json", "-j", "2"] + only,
                   capture_output=True, text=True)
if r.returncode != 0:
    problems.append(f"ptsim compare --quick: exit {r.returncode}\n{r.stderr[-3000:]}")
doc = json.loads(r.stdout) if r.stdout.strip() else {"cases": []}
cases = sorted(d for d in os.listdir(vdir) if os.path.isfile(os.path.join(vdir, d, "case.yaml")))
got = [c["name"] for c in doc["cases"]]
if only:
    missing = [c for c in only if c not in cases]
    if missing:
        problems.append(f"no such cases: {missing}")
    cases = only
if got != cases:
    problems.append(f"cases run {got}, expected {cases}")
if len(cases) < 6:
    problems.append(f"{len(cases)} validation cases; the suite needs at least six")
for c in doc["cases"]:
    if not c["source"] or not c["citation"]:
        problems.append(f"{c['name']}: no source or citation")
    if not c["points"]:
        problems.append(f"{c['name']}: no point compared")
    for p in c["points"]:
        if "failure" in p or p["model"] is None:
            problems.append(f"{c['name']} row {p['row']}: no model value ({p.get('failure')})")
            continue
        want = p["model"] / p["measured"] - 1 if p["error_kind"] == "relative" else p["model"] - p["measured"]
        if not math.isclose(p["error"], want, rel_tol=1e-9, abs_tol=1e-12):
            problems.append(f"{c['name']} row {p['row']}: error {p['error']} != {want}")
        if p["within"] != (abs(p["error"]) <= p["tolerance"]):
            problems.append(f"{c['name']} row {p['row']}: within={p['within']} but |error| {abs(p['error'])} vs {p['tolerance']}")
    within = all(p["within"] for p in c["points"])
    if c["within_tolerance"] != within:
        problems.append(f"{c['name']}: within_tolerance {c['within_tolerance']} but points say {within}")
for p in problems:
    print("FAIL:", p)
print(f"{0 if problems else 1} passed, {len(problems)} failed")
sys.exit(1 if problems else 0)
