#!/usr/bin/env bash
# Remakes the seed corpus of fuzz_result_reader: small real result files from `ptsim run`.
# Run after a change to the result format:  scripts/make_result_seeds.sh build/ptsim
set -euo pipefail
ptsim="$(realpath "$1")"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/tests/fuzz/corpus/result_reader"
mkdir -p "$out"
rm -f "$out"/*.h5
cd "$(mktemp -d)"
# A few milliseconds of the default scenario: every group present, some rows in each; the
# second throttles (a control temperature below ambient), so events and throttling appear.
"$ptsim" run -q -o "$out/default-20ms.h5" --set "duration=20 ms" --set "record_period=1 ms" --ops-limit 40
"$ptsim" run -q -o "$out/throttled-20ms.h5" --set "duration=20 ms" --set "record_period=1 ms" --ops-limit 40 \
  --set policy.governor=performance --set "thermal.ambient=33 degC" --set "policy.thermal.control_temp=20 degC"
ls -l "$out"
