#!/usr/bin/env bash
# Issue 16's speed goal: a sweep of 20 power limits on a one-GPU node (ResNet-50 training on the
# A40 node, scenarios/node-training.yaml, 10 s simulated each, 100-290 W every 10 W) in under a
# minute on 2 cores. Prints the sweep's wall time and the runs' own (summary.csv wall_s).
# Usage: bench/bench_power_limit_sweep.sh [PTSIM_BINARY] [JOBS]     (default: build/ptsim, 2)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
jobs="${2:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
limits=""
for w in $(seq 100 10 290); do limits+="\"$w W\", "; done
cat >"$work/sweep.yaml" <<YAML
name: power-limit-20
base: $root/scenarios/node-training.yaml
grid:
  policy.limits.gpu0.power: [ ${limits%, } ]
YAML
start=$(date +%s.%N)
"$ptsim" sweep "$work/sweep.yaml" -o "$work/out" -j "$jobs" >/dev/null 2>&1
end=$(date +%s.%N)
/usr/bin/python3 - "$work/out/summary.csv" "$start" "$end" "$jobs" <<'PY'
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
ok = sum(r["status"] == "ok" for r in rows)
walls = [float(r["wall_s"]) for r in rows]
total = float(sys.argv[3]) - float(sys.argv[2])
print(f"runs: {len(rows)} ({ok} ok), -j {sys.argv[4]}")
print(f"sweep wall time: {total:.1f} s (goal < 60 s)")
print(f"per run: mean {sum(walls)/len(walls):.2f} s, min {min(walls):.2f} s, max {max(walls):.2f} s")
PY
