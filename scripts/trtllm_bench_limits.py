#!/usr/bin/python3
"""The batch limits trtllm-bench runs each TensorRT-LLM validation row with, and a check of them.

trtllm-bench picks max_batch_size and max_num_tokens itself when a command gives none: the engine
flow's `build --dataset` (v0.17) and the PyTorch backend's `throughput` (v1.0) both call the build
heuristic (calc_engine_setting in tensorrt_llm/bench/build/tuning.py; the PyTorch path through
get_settings in tensorrt_llm/bench/benchmark/utils/general.py, which then raises the tokens to the
longest prompt plus the batch, chunked prefill being off). The validation cases' measurements.csv
carry the result per row (as `--set` columns); this script works it out again from the rule each
CSV's header states and says where a row differs.

  scripts/trtllm_bench_limits.py [VALIDATION_DIR]      check every case below (exit 1 on a mismatch)
  scripts/trtllm_bench_limits.py --print CASE_DIR       print the limits of each row of one case
"""
import csv
import math
import pathlib
import sys

GiB = 1024.0**3
H100_GIB = 81559 / 1024  # NVML's total memory of an H100 SXM 80GB, which trtllm-bench reads
H200_GIB = 143771 / 1024  # and of an H200 SXM 141GB

# Parameters (FP8: one byte each), layers, KV heads, head size.
MODELS = {
    "llama3_8b": (8.03e9, 32, 8, 128),
    "llama3_70b": (70.55e9, 80, 8, 128),
    "mixtral_8x7b": (46.70e9, 32, 8, 128),
    "mixtral_8x22b": (140.6e9, 56, 8, 128),
    "llama3_405b": (405.85e9, 126, 8, 128),
}

# Case folder (relative to validation/) -> model, GiB per GPU, TP when the CSV has no column for
# it, the KV share the heuristic is given, whether the tokens are raised to prompt + batch.
CASES = {
    "trtllm-h100-llama31-8b-throughput": ("llama3_8b", H100_GIB, 1, 0.90, True),
    "trtllm-h200-llama31-8b-throughput": ("llama3_8b", H200_GIB, 1, 0.90, True),
    "trtllm-h100-llama33-70b-throughput": ("llama3_70b", H100_GIB, 2, 0.90, True),
    "trtllm-h200-llama33-70b-throughput": ("llama3_70b", H200_GIB, 1, 0.90, True),
    "trtllm-v017-h100-llama31-70b": ("llama3_70b", H100_GIB, None, 0.95, False),
    "trtllm-v017-h100-mixtral-8x7b-tp1": ("mixtral_8x7b", H100_GIB, 1, 0.95, False),
    "trtllm-v017-h100-mixtral-8x7b-tp2": ("mixtral_8x7b", H100_GIB, 2, 0.95, False),
    "trtllm-v017-h200-mixtral-8x7b-tp1": ("mixtral_8x7b", H200_GIB, 1, 0.95, False),
    "extended/trtllm-v017-h100-mixtral-8x22b-tp8": ("mixtral_8x22b", H100_GIB, 8, 0.95, False),
    "extended/trtllm-h100-llama31-405b-throughput": ("llama3_405b", H100_GIB, 8, 0.90, True),
    "extended/trtllm-h200-llama31-405b-throughput": ("llama3_405b", H200_GIB, 8, 0.90, True),
}

BATCH = "workload.streams.chat.batching.max_batch"
TOKENS = "workload.streams.chat.llm.max_batched_tokens"
ISL = "workload.streams.chat.llm.prompt_tokens"
OSL = "workload.streams.chat.llm.output_tokens"
TP = "workload.streams.chat.llm.tensor_parallel"


def round_up(x, brackets, least):
    """x rounded up to the step of the first bracket (below, step) it lies below, at least `least`."""
    step = next(step for below, step in brackets if x < below)
    return max(least, step * math.ceil(x / step))


def limits(model, gib_per_gpu, tp, kv_share, isl, osl, raise_to_prompt):
    """(max_batch, max_num_tokens) for one row."""
    params, layers, kv_heads, head = MODELS[model]
    # FP8 KV cache: one byte per element, K and V, every layer; each rank keeps at least one head.
    kv_gib_per_token = 2 * layers * max(tp, kv_heads) * head / GiB
    free_gib = gib_per_gpu * tp - params / GiB
    requests = free_gib * kv_share / (kv_gib_per_token * (isl + osl))
    batch = min(requests, 4096)
    tokens = min(batch * (1 + isl / osl), 32768)
    batch = round_up(batch, [(256, 32), (1024, 128), (math.inf, 256)], 64)
    tokens = round_up(tokens, [(4096, 256), (8192, 512), (math.inf, 1024)], 2048)
    if raise_to_prompt:
        tokens = max(tokens, isl + batch)
    return int(batch), int(tokens)


def rows(case_dir):
    with open(case_dir / "measurements.csv", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines))


def expected(case, row):
    model, gib, tp, share, raise_to_prompt = CASES[case]
    tp = int(row[TP]) if TP in row else tp
    return limits(model, gib, tp, share, int(row[ISL]), int(row[OSL]), raise_to_prompt)


def check(validation):
    bad = 0
    for case in CASES:
        case_dir = validation / case
        if not (case_dir / "measurements.csv").is_file():
            print(f"{case_dir}: no measurements.csv", file=sys.stderr)
            bad += 1
            continue
        for n, row in enumerate(rows(case_dir), start=1):
            try:
                want = expected(case, row)
                have = (int(row[BATCH]), int(row[TOKENS]))
            except KeyError as e:
                print(f"{case_dir / 'measurements.csv'}: row {n}: no column {e}", file=sys.stderr)
                bad += 1
                continue
            except (TypeError, ValueError) as e:
                print(f"{case_dir / 'measurements.csv'}: row {n}: not a whole number ({e})", file=sys.stderr)
                bad += 1
                continue
            if have != want:
                print(f"{case_dir / 'measurements.csv'}: row {n}: max_batch, max_batched_tokens {have[0]}, {have[1]};"
                      f" the heuristic gives {want[0]}, {want[1]}", file=sys.stderr)
                bad += 1
    print(f"trtllm_bench_limits: {len(CASES)} cases, {bad} mismatch(es)")
    return 1 if bad else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--print":
        case_dir = pathlib.Path(argv[2]).resolve()
        case = next((c for c in CASES if case_dir.as_posix().endswith("/" + c)), None)
        if case is None:
            print(f"{argv[2]}: not a case this script knows ({', '.join(CASES)})", file=sys.stderr)
            return 2
        for n, row in enumerate(rows(case_dir), start=1):
            print(n, row[ISL], row[OSL], *expected(case, row))
        return 0
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    validation = pathlib.Path(argv[1]) if len(argv) == 2 else pathlib.Path(__file__).resolve().parent.parent / "validation"
    return check(validation)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
