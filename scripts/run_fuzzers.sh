#!/usr/bin/env bash
# Runs every libFuzzer harness of a fuzz build over its seed corpus.
#   scripts/run_fuzzers.sh BUILD_DIR [SECONDS_EACH]
# CI runs are reproducible and independent of machine load: a fixed seed
# (PTSIM_FUZZ_SEED, default 1) and a fixed number of inputs per harness, with no
# wall-clock cap (SECONDS_EACH, default 0 = none, only caps hunting runs). The per-input
# timeout (PTSIM_FUZZ_INPUT_TIMEOUT, default 300 s) and the memory limit (PTSIM_FUZZ_RSS_MB,
# default 4096) are far above what any input needs here (slowest ~0.1 s, peak RSS < 600 MB),
# so a slow or loaded machine cannot trip them; a hang or a runaway allocation still does.
# For hunting: PTSIM_FUZZ_SEED=0 PTSIM_FUZZ_RUNS=0 scripts/run_fuzzers.sh BUILD 600
# One harness: PTSIM_FUZZ_ONLY=result_reader scripts/run_fuzzers.sh BUILD
# A crash, sanitizer report, leak, timeout or out-of-memory fails the script: its first
# lines name the harness and the reason, then the report, and the reproducer is left in
# BUILD_DIR/fuzz-artifacts/.
set -euo pipefail
build="$1"; seconds="${2:-0}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="$root/tests/fuzz/corpus"
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
declare -A seeds=(
  [scenario]="$corpus/scenario $root/scenarios"
  [overrides]="$corpus/overrides"
  [flp]="$corpus/flp"
  [units]="$corpus/units"
  [sweep]="$corpus/sweep $root/scenarios/sweeps"
  [hotspot_config]="$corpus/hotspot_config"
  [ptrace]="$corpus/ptrace"
  [lcf]="$corpus/lcf"
  [materials]="$corpus/materials"
  [result_reader]="$corpus/result_reader"
  [yaml_subset]="$corpus/scenario $root/scenarios"
)
# About 10-20 s each on one idle core of CI's 2-core machine (figures: bench/RESULTS.md).
declare -A runs=([scenario]=19000 [overrides]=7000 [flp]=400000 [units]=300000
                 [sweep]=30000 [hotspot_config]=6000 [ptrace]=120000 [lcf]=200000 [materials]=200000
                 [result_reader]=800 [yaml_subset]=60000)
# LeakSanitizer suppressions per harness (HDF5's own leaks on its error paths).
declare -A lsan=([result_reader]="$root/tests/fuzz/result_reader.lsan.supp")
# Inputs longer than the seeds are cut; real result files are larger than text inputs.
declare -A max_len=([result_reader]=131072)
# One harness: its report on stdout, its exit status as the function's.
fuzz_one() {
  local h="$1" n exe log work rc reason first done_runs peak
  n="${PTSIM_FUZZ_RUNS:-${runs[$h]}}"; [ "$n" = 0 ] && n=-1
  exe="$build/tests/fuzz/fuzz_$h"
  [ -x "$exe" ] || { echo "fuzz: $exe is missing (configure with -DPTSIM_FUZZ=ON)"; return 1; }
  log="$build/fuzz-$h.log"
  work="$(mktemp -d)"
  # The first corpus folder receives new inputs: a scratch copy, never the repository.
  # shellcheck disable=SC2086
  if LSAN_OPTIONS="${lsan[$h]:+suppressions=${lsan[$h]}:print_suppressions=0}" "$exe" "$work" ${seeds[$h]} \
       -max_total_time="$seconds" -seed="${PTSIM_FUZZ_SEED:-1}" -runs="$n" -max_len="${max_len[$h]:-8192}" \
       -timeout="${PTSIM_FUZZ_INPUT_TIMEOUT:-300}" -rss_limit_mb="${PTSIM_FUZZ_RSS_MB:-4096}" \
       -artifact_prefix="$artifacts/$h-" -print_final_stats=1 >"$log" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  rm -rf "$work"
  if [ "$rc" -ne 0 ]; then
    # Which harness and why first; the report from its first error line after that.
    reason="$(grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:|^SUMMARY:|deadly signal|Tracer caught' "$log" || true)"
    echo "fuzz_$h FAILED (exit $rc): ${reason:-no sanitizer or libFuzzer report; see the log}"
    echo "  log: $log; reproducer: $(ls "$artifacts"/"$h"-* 2>/dev/null | head -1 || true)"
    first="$(grep -n -m1 -E 'ERROR:|runtime error:|deadly signal|Tracer caught' "$log" | cut -d: -f1 || true)"
    if [ -n "$first" ]; then sed -n "${first},$((first + 60))p" "$log"; else tail -40 "$log"; fi
    return 1
  fi
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz_$h: ok ($done_runs inputs, peak RSS $peak MB)"
}

# The harnesses run side by side, PTSIM_FUZZ_JOBS at a time (default: one per core); each
# is single-threaded and its inputs are fixed, so running side by side changes nothing but
# the time. Reports are printed in that order once all have finished.
parallel="${PTSIM_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
harnesses=()
# The longest first (fuzz_scenario: ~2 min of the pass's ~4 min of CPU), so that it does not
# run alone at the end; then by name.
for h in scenario $(printf '%s\n' "${!seeds[@]}" | grep -vx scenario | sort); do
  # PTSIM_FUZZ_ONLY=NAME runs that harness alone (a build that made only fuzz_NAME).
  [ -n "${PTSIM_FUZZ_ONLY:-}" ] && [ "$h" != "$PTSIM_FUZZ_ONLY" ] && continue
  harnesses+=("$h")
done
for h in "${harnesses[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  { rc=0; fuzz_one "$h" >"$build/fuzz-$h.report" 2>&1 || rc=$?; echo "$rc" >"$build/fuzz-$h.rc"; } &
done
wait
failed=0
for h in "${harnesses[@]}"; do
  if [ "$(cat "$build/fuzz-$h.rc")" != 0 ]; then
    cat "$build/fuzz-$h.report" >&2
    failed=1
  else
    cat "$build/fuzz-$h.report"
  fi
  rm -f "$build/fuzz-$h.report" "$build/fuzz-$h.rc"
done
exit "$failed"
