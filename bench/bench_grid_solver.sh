#!/usr/bin/env bash
# Issue 20's speed goal: the secondary heat path's cost against the primary path's on the same
# grid (HotSpot's grid model, `four` of tests/thermal_cli/data, -r_convec_sec 2): steady state
# (-steady_file only) and a 200-row transient (-o), at 32x32, 64x64 and 128x128. CPU time
# (user + sys) of `ptsim thermal`, best of N runs each; prints a markdown table with the ratios.
# Usage: bench/bench_grid_solver.sh [PTSIM_BINARY] [RUNS]     (default: build/ptsim, 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
runs="${2:-3}"
data="$root/tests/thermal_cli/data"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cpu() {  # best CPU seconds of $runs runs of ptsim thermal with the given options
  local best="" t
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%U %S" -o "$work/time" "$ptsim" thermal -c "$data/four.config" -f "$data/four.flp" \
      -p "$data/four.ptrace" -model_type grid -r_convec_sec 2 "$@" >/dev/null
    t="$(awk '{printf "%.2f", $1 + $2}' "$work/time")"
    if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a < b)}'; then best="$t"; fi
  done
  echo "$best"
}
echo "| grid | run | primary path | with secondary path | ratio |"
echo "|---|---|---|---|---|"
for g in 32 64 128; do
  for kind in steady transient; do
    if [[ $kind == steady ]]; then out=(-steady_file "$work/s"); else out=(-o "$work/t"); fi
    p="$(cpu -grid_rows "$g" -grid_cols "$g" -model_secondary 0 "${out[@]}")"
    s="$(cpu -grid_rows "$g" -grid_cols "$g" -model_secondary 1 "${out[@]}")"
    ratio="$(awk -v a="$s" -v b="$p" 'BEGIN{ if (b > 0) printf "%.2fx", a / b; else print "-" }')"
    echo "| ${g}x${g} | $kind | $p s | $s s | $ratio |"
  done
done
