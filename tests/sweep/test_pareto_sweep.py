#!/usr/bin/python3
"""`ptsim report DIR --pareto` over a real sweep, read back: four power limits on the one-A40
node (scenarios/node-training.yaml, ResNet-50 training). The front, the energy-optimal and the
time-optimal configuration are recomputed here from summary.csv by brute force (a point is on
the front unless another is no worse on both axes and better on one) and must agree.
Usage: test_pareto_sweep.py PTSIM REPO_ROOT WORK_DIR"""
import csv
import json
import os
import shutil
import subprocess
import sys

ptsim, root, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
sweep = os.path.join(work, "sweep.yaml")
with open(sweep, "w") as f:
    f.write(f"""name: pareto-check
base: {root}/scenarios/node-training.yaml
set: {{ duration: "3 s" }}
grid:
  policy.limits.gpu0.power: ["100 W", "150 W", "200 W", "300 W"]
""")
out = os.path.join(work, "out")
subprocess.run([ptsim, "sweep", sweep, "-o", out, "-j", "2"], check=True, capture_output=True)
rows = [r for r in csv.DictReader(l for l in open(os.path.join(out, "summary.csv")) if not l.startswith("#"))]
assert len(rows) == 4 and all(r["status"] == "ok" for r in rows), rows
pts = {}
for r in rows:
    tput, watts = float(r["throughput"]), float(r["avg_power_W"])
    pts[r["run_id"]] = (1.0 / tput, watts / tput)


def dominated(p):
    return any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts.values())


front = sorted((k for k, p in pts.items() if not dominated(p)), key=lambda k: pts[k])
rep = json.loads(subprocess.run([ptsim, "report", out, "--pareto", "--format", "json"], check=True,
                                capture_output=True, text=True).stdout)
assert rep["time_metric"] == "time_per_work_s" and rep["energy_metric"] == "energy_per_work_J", rep
assert rep["units"] == {"time_per_work_s": "s", "energy_per_work_J": "J"}, rep["units"]
labels = {p["label"] for p in rep["points"]}
assert labels == set(pts), (labels, set(pts))
assert rep["front"] == front, (rep["front"], front)
assert rep["energy_optimal"]["label"] == min(pts, key=lambda k: (pts[k][1], pts[k][0])), rep
assert rep["time_optimal"]["label"] == min(pts, key=lambda k: pts[k]), rep
for p in rep["points"]:
    t, e = pts[p["label"]]
    assert abs(p["time"] - t) <= 1e-12 * t and abs(p["energy"] - e) <= 1e-12 * e, (p, t, e)
# A tighter power limit cannot be faster: the 300 W run has the least time (a tie is possible:
# where the data loader's floor sets the step, 200 W keeps up too, and the tie goes to energy).
t300 = [p["time"] for p in rep["points"] if p["params"]["policy.limits.gpu0.power"] == "300 W"]
assert len(t300) == 1 and t300[0] == rep["time_optimal"]["time"], (t300, rep["time_optimal"])
table = subprocess.run([ptsim, "report", out, "--pareto"], check=True, capture_output=True, text=True).stdout
assert "energy-optimal: " + rep["energy_optimal"]["label"] in table, table
# --pareto with --best is refused (exit 2).
bad = subprocess.run([ptsim, "report", out, "--pareto", "--best", "energy_J"], capture_output=True, text=True)
assert bad.returncode == 2 and "--pareto and --best" in bad.stderr, bad.stderr
shutil.rmtree(work)
print("ok: front", front)
