#!/usr/bin/env bash
# Whole-run speed of `ptsim run`: each scenarios/*.yaml, RUNS times (default 5).
# Reports simulated seconds per wall second and per CPU second (median over the runs; the
# scenario's `duration` over the time), and the peak resident set (GNU /usr/bin/time; the
# column reads "-" without it).
# Usage: bench/bench_run.sh [PTSIM_BINARY] [RUNS]     (default: build/ptsim, 5)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
runs="${2:-5}"
[[ -x "$ptsim" ]] || { echo "bench_run.sh: no ptsim executable at $ptsim (build it, or pass its path)" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench_run.sh: RUNS must be a positive integer" >&2; exit 2; }
gnu_time=""
[[ -x /usr/bin/time ]] && /usr/bin/time -f %M true >/dev/null 2>&1 && gnu_time=/usr/bin/time

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The scenario's top-level `duration:` in seconds ("20 s", "500 ms", "2 min", ...).
duration_s() {
  local v
  v="$(sed -n 's/^duration:[[:space:]]*//p' "$1" | sed 's/#.*//; s/["'\'']//g; s/[[:space:]]*$//' | head -n1)"
  awk -v v="$v" 'BEGIN {
    n = split(v, p, /[[:space:]]+/); x = p[1] + 0; u = (n > 1) ? p[2] : "s"
    f["s"] = 1; f["ms"] = 1e-3; f["us"] = 1e-6; f["ns"] = 1e-9; f["min"] = 60; f["h"] = 3600
    if (!(u in f) || x <= 0) exit 1
    printf "%.9g\n", x * f[u] }'
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "ptsim: $ptsim   runs per scenario: $runs   nproc: $(nproc)   load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %8s %10s %10s %12s %12s %10s\n' scenario sim_s wall_s cpu_s "sim/wall" "sim/CPU" peak_MiB
for scen in "$root"/scenarios/*.yaml; do
  name="$(basename "$scen" .yaml)"
  if ! dur="$(duration_s "$scen")"; then echo "$name: cannot read its duration; skipped" >&2; continue; fi
  : >"$tmp/wall"; : >"$tmp/cpu"; : >"$tmp/rss"; failed=""
  for ((i = 1; i <= runs; i++)); do
    t0="$(date +%s.%N)"
    if [[ -n "$gnu_time" ]]; then
      "$gnu_time" -o "$tmp/time" -f '%U %S %M' "$ptsim" run -q --force -o "$tmp/out.h5" "$scen" >/dev/null 2>"$tmp/err" || failed=1
    else
      "$ptsim" run -q --force -o "$tmp/out.h5" "$scen" >/dev/null 2>"$tmp/err" || failed=1
    fi
    t1="$(date +%s.%N)"
    [[ -z "$failed" ]] || break
    awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$tmp/wall"
    if [[ -n "$gnu_time" ]]; then
      read -r user sys rss < <(tail -n1 "$tmp/time")
      awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }' >>"$tmp/cpu"
      echo "$rss" >>"$tmp/rss"
    fi
  done
  if [[ -n "$failed" ]]; then echo "$name: ptsim run failed: $(tail -n3 "$tmp/err")" >&2; continue; fi
  wall="$(median <"$tmp/wall")"
  if [[ -n "$gnu_time" ]]; then
    cpu="$(median <"$tmp/cpu")"
    rss_mib="$(sort -g "$tmp/rss" | tail -n1 | awk '{ printf "%.1f", $1 / 1024 }')"
    per_cpu="$(awk -v d="$dur" -v c="$cpu" 'BEGIN { printf "%.1f", (c > 0) ? d / c : 0 }')"
  else
    cpu="-"; rss_mib="-"; per_cpu="-"
  fi
  per_wall="$(awk -v d="$dur" -v w="$wall" 'BEGIN { printf "%.1f", d / w }')"
  printf '%-22s %8s %10.3f %10s %12s %12s %10s\n' "$name" "$dur" "$wall" "$cpu" "$per_wall" "$per_cpu" "$rss_mib"
done
