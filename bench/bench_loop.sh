#!/usr/bin/env bash
# Closed-loop overhead per scenario: CPU time of runs with the loop's work on against runs
# with it off (minimum of RUNS each: on a shared machine the least disturbed run is the best estimate), and with recording on too (timeseries and the ops
# table). All under the `performance` governor and no thermal governor, so that the
# simulated work is the same (the loop changes no clock).
# Usage: bench/bench_loop.sh [BENCH_LOOP_BINARY] [RUNS]   (default: build/bench/bench_loop, 3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/build/bench/bench_loop}"
runs="${2:-3}"
[[ -x "$bin" ]] || { echo "bench_loop.sh: no bench_loop at $bin" >&2; exit 2; }
median() { sort -g | head -n1; }   # the least disturbed run (shared machine): the minimum
printf '%-22s %7s %10s %10s %10s %9s %9s %12s %12s\n' scenario sim_s cpu_rec_s cpu_on_s cpu_off_s loop rec+loop sim/wall trans/s
for scen in "$root"/scenarios/*.yaml; do
  name="$(basename "$scen" .yaml)"
  rec=(); on=(); off=(); wall=(); sim=""; tr=""
  for ((i = 1; i <= runs; i++)); do
    for mode in record on off; do
      line="$("$bin" "$scen" "$mode" policy.governor=performance policy.thermal.governor=none)"
      cpu="$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' <<<"$line")"
      sim="$(sed -n 's/.*sim_s=\([0-9.e+]*\).*/\1/p' <<<"$line")"
      tr="$(sed -n 's/.*transactions=\([0-9]*\).*/\1/p' <<<"$line")"
      case $mode in
        record) rec+=("$cpu"); wall+=("$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$line")") ;;
        on) on+=("$cpu") ;;
        off) off+=("$cpu") ;;
      esac
    done
  done
  c_rec="$(printf '%s\n' "${rec[@]}" | median)"; c_on="$(printf '%s\n' "${on[@]}" | median)"
  c_off="$(printf '%s\n' "${off[@]}" | median)"; w="$(printf '%s\n' "${wall[@]}" | median)"
  printf '%-22s %7s %10.3f %10.3f %10.3f %8.1f%% %8.1f%% %12.1f %12.3g\n' "$name" "$sim" "$c_rec" "$c_on" "$c_off" \
    "$(awk -v a="$c_on" -v b="$c_off" 'BEGIN { print (a / b - 1) * 100 }')" \
    "$(awk -v a="$c_rec" -v b="$c_off" 'BEGIN { print (a / b - 1) * 100 }')" \
    "$(awk -v s="$sim" -v w="$w" 'BEGIN { print s / w }')" "$(awk -v t="$tr" -v c="$c_rec" 'BEGIN { print t / c }')"
done
