#!/usr/bin/python3
"""scripts/trtllm_bench_limits.py: the batch limits trtllm-bench's heuristic gives a row, against
hand-worked rows, and its check of the shipped TensorRT-LLM cases' measurements.csv, which must
pass as shipped and catch an edited value.

Usage: test_trtllm_bench_limits.py SCRIPTS_DIR VALIDATION_DIR
"""
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

scripts, validation = Path(sys.argv[1]), Path(sys.argv[2])
spec = importlib.util.spec_from_file_location("limits", scripts / "trtllm_bench_limits.py")
lim = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lim)
problems = []


def check(cond, what):
    if not cond:
        problems.append(what)


# Llama 3.1 8B FP8 on one H100, 128/2048, KV share 0.9 (worked by hand):
#   KV per token 2 x 32 layers x 8 heads x 128 x 1 B = 65,536 B = 6.1035e-5 GiB;
#   free 81,559/1024 - 8.03e9/2^30 = 79.647 - 7.4786 = 72.169 GiB, x 0.9 = 64.952 GiB;
#   requests 64.952 / (6.1035e-5 x 2,176) = 489.0 -> batch rounded up to 128s: 512;
#   tokens 489.0 x (1 + 128/2048) = 519.6 -> at least 2,048; raised to 128 + 512 = 640: 2,048.
got = lim.limits("llama3_8b", 81559 / 1024, 1, 0.9, 128, 2048, True)
check(got == (512, 2048), f"8B H100 128/2048: {got}, expected (512, 2048)")
# The same at 20000/2000: requests 64.952 / (6.1035e-5 x 22,000) = 48.4 -> batch at least 64;
# tokens 48.4 x 11 = 532 -> 2,048, raised to 20,000 + 64 = 20,064 (PyTorch flow, chunking off),
# kept at 2,048 by the engine flow's build.
check(lim.limits("llama3_8b", 81559 / 1024, 1, 0.9, 20000, 2000, True) == (64, 20064), "8B 20000/2000 PyTorch")
check(lim.limits("llama3_8b", 81559 / 1024, 1, 0.9, 20000, 2000, False) == (64, 2048), "8B 20000/2000 engine")
# Llama 3.1 70B at TP8, 128/128, share 0.95: KV per token 2 x 80 x max(8, 8) x 128 B = 163,840 B
# = 1.5259e-4 GiB; free 8 x 79.647 - 65.70 = 571.48 GiB; requests 571.48 x 0.95 / (1.5259e-4 x 256)
# = 13,898 -> capped at 4,096; tokens 4,096 x 2 = 8,192.
check(lim.limits("llama3_70b", 81559 / 1024, 8, 0.95, 128, 128, False) == (4096, 8192), "70B TP8 128/128")

# The shipped cases pass.
run = subprocess.run([sys.executable, str(scripts / "trtllm_bench_limits.py"), str(validation)],
                     capture_output=True, text=True)
check(run.returncode == 0, f"shipped cases: rc {run.returncode}: {run.stderr}")
check(f"{len(lim.CASES)} cases, 0 mismatch" in run.stdout, f"shipped cases: {run.stdout}")

# An edited value is caught, with the file, the row and both values.
work = Path(tempfile.mkdtemp(prefix="ptsim-test-limits-"))
try:
    copy = work / "validation"
    shutil.copytree(validation, copy)
    csv_path = copy / "trtllm-h100-llama31-8b-throughput" / "measurements.csv"
    text = csv_path.read_text().replace("\n512,2048,128,2048,", "\n512,4096,128,2048,", 1)
    check("512,4096,128,2048," in text, "test setup: row 2 of the 8B case not found")
    csv_path.write_text(text)
    bad = subprocess.run([sys.executable, str(scripts / "trtllm_bench_limits.py"), str(copy)],
                         capture_output=True, text=True)
    check(bad.returncode == 1, f"edited case: rc {bad.returncode}")
    check("measurements.csv: row 2: max_batch, max_batched_tokens 512, 4096; the heuristic gives 512, 2048" in bad.stderr,
          f"edited case: {bad.stderr}")
finally:
    shutil.rmtree(work)

for p in problems:
    print("FAIL:", p, file=sys.stderr)
sys.exit(1 if problems else 0)
