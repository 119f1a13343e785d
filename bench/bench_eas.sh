#!/usr/bin/env bash
# Cost of the CPU scheduler (tasks, PELT, EAS placement) on a phone run: the camera
# pipeline of scenarios/default.yaml for DURATION of simulated time, CPU time (user + sys)
# per run, median (and minimum) of RUNS interleaved runs, in three set-ups that run the same frames:
#   busy     its CPU stages pinned (cpu_mid, cpu_little), policy.scheduler: busy_share (the old path)
#   pinned   the same stages pinned, as tasks (policy.scheduler: eas): PELT, no placement choice
#   eas      the scenario as it is: both stages energy_aware over the three clusters
# Usage: bench/bench_eas.sh [PTSIM_BINARY] [RUNS] [DURATION]   (default: build/ptsim, 11, "100 s")
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
runs="${2:-11}"
duration="${3:-100 s}"
[[ -x "$ptsim" ]] || { echo "bench_eas.sh: no ptsim executable at $ptsim" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
pinned_yaml() {  # $1: scheduler
  cat <<YAML
extends: $root/scenarios/default.yaml
workload:
  streams:
    camera:
      arrival: { kind: fixed_rate, rate: "30 Hz" }
      precision: int8
      stages:
        - { unit: cpu_mid, model: image_preprocess, precision: fp16,
            params: { width: 1920, height: 1080, size: 224 } }
        - { unit: npu, model: mobilenet_v2 }
        - { unit: cpu_little, model: classifier_postprocess, precision: fp32 }
policy: { scheduler: $1 }
YAML
}
pinned_yaml busy_share >"$tmp/busy.yaml"
pinned_yaml eas >"$tmp/pinned.yaml"
cp "$root/scenarios/default.yaml" "$tmp/eas.yaml"
sed -i "s|^extends: .*|extends: $root/scenarios/default.yaml|" "$tmp/busy.yaml" "$tmp/pinned.yaml"
one() {  # CPU seconds (user + sys) of one `ptsim run $1`
  local s
  s=$( { TIMEFORMAT='%U %S'; time "$ptsim" run "$1" -q --force -o "$tmp/out.h5" --set "duration=$duration" >/dev/null; } 2>&1 )
  awk '{print $1 + $2}' <<<"$s"
}
# Interleaved (busy, pinned, eas, busy, ...), so that load from other jobs falls on all three.
: >"$tmp/busy.t"; : >"$tmp/pinned.t"; : >"$tmp/eas.t"
for ((i = 0; i < runs; i++)); do
  for k in busy pinned eas; do one "$tmp/$k.yaml" >>"$tmp/$k.t"; done
done
stat() { sort -g "$1" | awk '{a[NR] = $1} END {printf "%s %s", a[int((NR + 1) / 2)], a[1]}'; }
read -r busy busy_min <<<"$(stat "$tmp/busy.t")"
read -r pinned pinned_min <<<"$(stat "$tmp/pinned.t")"
read -r eas eas_min <<<"$(stat "$tmp/eas.t")"
echo "duration $duration, $runs interleaved runs each, CPU s median (min): busy_share $busy ($busy_min), pinned tasks $pinned ($pinned_min), EAS $eas ($eas_min)"
awk -v b="$busy" -v p="$pinned" -v e="$eas" -v bm="$busy_min" -v pm="$pinned_min" -v em="$eas_min" 'BEGIN {
  printf "tasks + PELT (pinned / busy_share): %.3fx (min %.3fx)\n", p / b, pm / bm
  printf "placement (EAS / pinned tasks):     %.3fx (min %.3fx)\n", e / p, em / pm
  printf "all (EAS / busy_share):             %.3fx (min %.3fx)\n", e / b, em / bm }'
