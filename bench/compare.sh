#!/usr/bin/env bash
# Runs the presets under the conditions of published measurements (bench/comparisons/*.yaml
# and the library's scenarios) and prints ours beside theirs, as in README "Platforms and
# workloads". Each run's own yaml names its source and conditions.
# Usage: bench/compare.sh [PTSIM_BINARY]     (default: build/ptsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
[[ -x "$ptsim" ]] || { echo "compare.sh: no ptsim executable at $ptsim" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3

run() {  # name scenario [--set ...]
  local name="$1" scen="$2"; shift 2
  "$ptsim" run -q --force -o "$tmp/$name.h5" "$scen" "$@" >/dev/null
}

# Reads a result: metric (summary), or jobs-derived figures.
figure() {  # file expression
  "$py" - "$1" "$2" <<'PY'
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
j = {k: f["jobs"][k][:] for k in f["jobs"].keys()}
s = {k: float(f["summary"][k][()]) for k in f["summary"].keys()}
dur = float(f["timeseries"]["time"][-1])
ttft = j["first_token_s"] - j["arrival_s"] if len(j["id"]) else np.array([np.nan])
print("%.4g" % eval(sys.argv[2]))
PY
}

echo "| workload | conditions | ours | measured (source) |"
echo "|---|---|---|---|"

run llm_offline "$root/bench/comparisons/h100-llama2-70b-offline.yaml"
echo "| Llama-2-70B offline, 8x H100 | FP8, 2x TP4, 1024 outstanding | $(figure "$tmp/llm_offline.h5" 's["throughput"]') tok/s | 24,528 tok/s (MLPerf Inference v4.1, HPE XD670, closed) |"

run llm_tp4 "$root/bench/comparisons/h100-llama2-70b-tp4-trtllm.yaml"
echo "| Llama-2-70B peak throughput | FP8, TP4, batch 480, in 128 / out 2048 | $(figure "$tmp/llm_tp4.h5" 's["throughput"]/8') tok/s/GPU | 1,486 tok/s/GPU (TensorRT-LLM perf doc, v0.6.1) |"

for isl in 128 2048; do
  run ttft_$isl "$root/scenarios/server-llm-serving.yaml" --set 'duration=2 s' \
    --set workload.streams.chat.arrival.kind=closed_loop --set workload.streams.chat.arrival.users=2 \
    --set 'workload.streams.chat.arrival.think_time=200 ms' \
    --set workload.streams.chat.llm.prompt_tokens=$isl --set workload.streams.chat.llm.output_tokens=2
  echo "| Llama-2-70B first token | FP8, TP4, batch 1, input $isl | $(figure "$tmp/ttft_$isl.h5" 'np.median(ttft)*1e3') ms | $([[ $isl == 128 ]] && echo 26 || echo 109) ms (TensorRT-LLM perf doc, v0.5) |"
done

# ML.ENERGY's vLLM batch sweep (Llama 3.1 70B BF16, TP4): median inter-token latency and tokens/s.
itl=() tps=()
for b in 8 32 128 512 1024; do
  run mlenergy_$b "$root/bench/comparisons/h100-llama31-70b-mlenergy.yaml" --set 'duration=60 s' \
    --set workload.streams.chat.batching.max_batch=$b --set workload.streams.chat.arrival.users=$b
  itl+=("$(figure "$tmp/mlenergy_$b.h5" 'np.median(((j["finish_s"]-j["first_token_s"])/(j["tokens_out"]-1))[j["tokens_out"]>1])*1e3')")
  tps+=("$(figure "$tmp/mlenergy_$b.h5" 's["throughput"]')")
done
echo "| Llama 3.1 70B inter-token latency, batch 8 / 32 / 128 / 512 / 1024 | BF16, TP4 | ${itl[0]} / ${itl[1]} / ${itl[2]} / ${itl[3]} / ${itl[4]} ms | 16.6 / 20.0 / 27.9 / 73.9 / 105.6 ms (ML.ENERGY Leaderboard v3.0, vLLM 0.11.1) |"
echo "| Llama 3.1 70B throughput, same batches | BF16, TP4 | ${tps[0]} / ${tps[1]} / ${tps[2]} / ${tps[3]} / ${tps[4]} tok/s | 470 / 1,487 / 3,876 / 5,921 / 6,827 tok/s (same) |"

a15=()
for mhz in 700 1000 1400 1800; do
  run a15_$mhz "$root/bench/comparisons/exynos5422-a15-cluster.yaml" \
    --set policy.governors.a15.governor=userspace --set policy.governors.a15.tunables.setspeed_hz=${mhz}e6
  a15+=("$(figure "$tmp/a15_$mhz.h5" 's["avg_power_W"]')")
done
echo "| Exynos 5422 A15 cluster, 4 cores busy | 700 / 1000 / 1400 / 1800 MHz | ${a15[0]} / ${a15[1]} / ${a15[2]} / ${a15[3]} W | 1.71 / 2.53 / 4.02 / 6.37 W above idle, at the wall (sbc-bench, ODROID-HC2, 7-zip) |"

run resnet "$root/scenarios/server-cnn-offline.yaml"
echo "| ResNet-50 offline, 8x H100 | INT8, batches of 2048 | $(figure "$tmp/resnet.h5" 's["throughput"]') img/s | 707,695 samples/s (MLPerf Inference v4.1, HPE XD670, closed) |"

run bert "$root/bench/comparisons/a100-bert-pretraining.yaml"
echo "| BERT-Large pre-training phase 2, 8x A100 | FP16, seq 512, 32 per GPU | $(figure "$tmp/bert.h5" '32*32*8/np.mean(j["finish_s"]-j["start_s"])') seq/s | 2,109 seq/s (NVIDIA DeepLearningExamples, PaddlePaddle BERT, DGX A100 80GB) |"

run phone_llm "$root/scenarios/phone-llm-chat.yaml" --set policy.governor=performance
echo "| Llama 3.2 3B decode on a phone NPU | ours INT8 (3.2 GB) on LPDDR5X-8533; theirs w4a16 (2.4 GB) | $(figure "$tmp/phone_llm.h5" 'np.median((j["tokens_out"]-1)/(j["finish_s"]-j["first_token_s"]))') tok/s | 23.5 tok/s (Qualcomm AI Hub, Snapdragon 8 Elite) |"
run phone_ttft "$root/scenarios/phone-llm-chat.yaml" --set policy.governor=performance --set 'duration=20 s' \
  --set workload.streams.chat.llm.prompt_tokens=128
echo "| Llama 3.2 3B first token on a phone NPU | 128-token prompt | $(figure "$tmp/phone_ttft.h5" 'np.median(ttft)*1e3') ms | 88 ms (Qualcomm AI Hub, Snapdragon 8 Elite, w4a16) |"

run mobilenet "$root/bench/comparisons/phone-mobilenet-npu.yaml" --set policy.governor=performance
echo "| MobileNetV2 on a phone NPU | INT8, batch 1, NPU at its top clock | $(figure "$tmp/mobilenet.h5" 's["latency_p50_s"]*1e3') ms | 0.446 ms (S23, 8 Gen 2), 0.317 ms (S24, 8 Gen 3) (Qualcomm AI Hub) |"
