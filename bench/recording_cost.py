#!/usr/bin/python3
"""Cost of recording: `ptsim run` with the timeseries and ops table written, against the same
run with recording off (--no-record: summaries only), at a 1 ms record period; and the
bytes each timeseries sample and each recorded operator take in the file.

    bench/recording_cost.py BUILD/ptsim [--repeats 7] [--duration "20 s"]
        [--record-period "1 ms"] [--perf] [--instructions] [--against OTHER/ptsim]
        [SCENARIO.yaml ...]

Runs alternate (on, off, off, on, ...) so that drifting machine load hits both alike; the
figures are medians, and the overheads also medians of the per-pair ratios with their
quartiles (how much the machine's noise moves them). Wall time is the run time a user waits
for (the writer's compression runs on a second core); CPU time (user + system of the child)
also counts that second core. --instructions counts the instructions of one run each way
under valgrind (callgrind): the machine-independent measure of the work recording adds.
--against interleaves a second build (e.g. an older commit) into the same pairs.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time

import h5py


RECORD_PERIOD = "1 ms"


def one_run(ptsim, scenario, out, duration, record):
    args = [ptsim, "run", *([scenario] if scenario else []), "-q", "--force", "-o", out,
            "--set", f"duration={duration}", "--set", f"record_period={RECORD_PERIOD}"]
    if not record:
        args.append("--no-record")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def perf_samples(ptsim, scenario, out, duration, record):
    """CPU samples per thread of one run under `perf record` (main thread first): what the
    simulation thread itself pays, apart from the background writer's compression."""
    data = out + ".perf"
    args = [ptsim, "run", *([scenario] if scenario else []), "-q", "--force", "-o", out,
            "--set", f"duration={duration}", "--set", f"record_period={RECORD_PERIOD}"]
    if not record:
        args.append("--no-record")
    subprocess.run(["perf", "record", "-q", "-o", data, *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio", "--sort", "pid", "-g", "none",
                          "--show-nr-samples"], capture_output=True, text=True, check=True).stdout
    counts = []
    for line in rep.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].endswith("%") and parts[1].isdigit():
            counts.append((int(parts[2].split(":")[0]), int(parts[1])))
    counts.sort()  # the main thread has the lowest id
    return [c for _, c in counts]


def storage(path):
    """Bytes on disk of the timeseries datasets and of the ops table, and their row counts."""
    with h5py.File(path, "r") as f:
        ts = f["timeseries"]
        n_samples = ts["time"].shape[0]
        ts_bytes = sum(ts[k].id.get_storage_size() for k in ts if k not in ("block", "component", "domain"))
        values = 1 + sum(ts[k].shape[1] for k in ts if ts[k].ndim == 2)
        ops = f["ops"]
        n_ops = ops["start_s"].shape[0]
        ops_bytes = sum(ops[k].id.get_storage_size() for k in ops)
    return n_samples, ts_bytes, values, n_ops, ops_bytes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ptsim")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--duration", default="20 s")
    p.add_argument("--record-period", default="1 ms")
    p.add_argument("--perf", action="store_true",
                   help="also count CPU samples per thread with perf (Linux perf must be installed)")
    p.add_argument("--instructions", action="store_true",
                   help="also count instructions under valgrind's callgrind (valgrind must be installed)")
    p.add_argument("--against", help="a second ptsim build to measure in the same alternating pairs")
    p.add_argument("scenarios", nargs="*", help="scenario files (default: the built-in default)")
    a = p.parse_intermixed_args()
    global RECORD_PERIOD
    RECORD_PERIOD = a.record_period
    for scenario in a.scenarios or [None]:
        measure(a, scenario)


def instructions(ptsim, scenario, out, duration, record):
    """Instructions of one run, all threads, as callgrind counts them."""
    args = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", ptsim, "run",
            *([scenario] if scenario else []), "-q", "--force", "-o", out,
            "--set", f"duration={duration}", "--set", f"record_period={RECORD_PERIOD}"]
    if not record:
        args.append("--no-record")
    err = subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    return int(re.search(r"refs:\s+([\d,]+)", err).group(1).replace(",", ""))


def quartiles(v):
    q = statistics.quantiles(v, n=4)
    return q[0], statistics.median(v), q[2]


def measure(a, scenario):
    builds = [a.ptsim] + ([a.against] if a.against else [])
    runs = {(b, rec): [] for b in builds for rec in (True, False)}
    with tempfile.TemporaryDirectory() as d:
        on, off = os.path.join(d, "on.h5"), os.path.join(d, "off.h5")
        for b in builds:
            one_run(b, scenario, on, a.duration, True)  # warm the page cache and the binary
        for i in range(a.repeats):
            for b in builds:
                for rec in ((True, False) if i % 2 == 0 else (False, True)):
                    runs[(b, rec)].append(one_run(b, scenario, on if rec else off, a.duration, rec))
        one_run(a.ptsim, scenario, on, a.duration, True)  # the file measured is the first build's
        one_run(a.ptsim, scenario, off, a.duration, False)
        n, ts_bytes, values, n_ops, ops_bytes = storage(on)
        size_on, size_off = os.path.getsize(on), os.path.getsize(off)
        threads_on = perf_samples(a.ptsim, scenario, on, a.duration, True) if a.perf else None
        threads_off = perf_samples(a.ptsim, scenario, off, a.duration, False) if a.perf else None
        ins = {b: (instructions(b, scenario, on, a.duration, True), instructions(b, scenario, off, a.duration, False))
               for b in builds} if a.instructions else None
    med = statistics.median
    name = os.path.basename(scenario) if scenario else "default scenario"
    print(f"ptsim run, {name}, duration {a.duration}, record period {RECORD_PERIOD}, "
          f"{a.repeats} alternating pairs (medians)")
    for b in builds:
        if len(builds) > 1:
            print(f"  build {b}")
        r_on, r_off = runs[(b, True)], runs[(b, False)]
        cpu_on, wall_on = [c for c, _ in r_on], [w for _, w in r_on]
        cpu_off, wall_off = [c for c, _ in r_off], [w for _, w in r_off]
        print(f"  recording on : CPU {med(cpu_on):.3f} s  wall {med(wall_on):.3f} s")
        print(f"  recording off: CPU {med(cpu_off):.3f} s  wall {med(wall_off):.3f} s")
        for what, x_on, x_off in (("wall", wall_on, wall_off), ("CPU ", cpu_on, cpu_off)):
            q1, q2, q3 = quartiles([100 * (x / y - 1) for x, y in zip(x_on, x_off)])
            print(f"  overhead {what}: {100 * (med(x_on) / med(x_off) - 1):+.1f} % of the medians; "
                  f"per pair {q2:+.1f} % (quartiles {q1:+.1f} to {q3:+.1f} %)   (target < 10 %)")
        if ins:
            i_on, i_off = ins[b]
            print(f"  instructions : {i_on / 1e6:.0f} M on, {i_off / 1e6:.0f} M off: {100 * (i_on / i_off - 1):+.1f} %")
    print(f"  timeseries   : {n} samples of {values} doubles ({8 * values} B raw): "
          f"{ts_bytes} B on disk = {ts_bytes / n:.1f} B per sample "
          f"({ts_bytes / n / values:.2f} B per value, {8 * values * n / ts_bytes:.1f}x compression)")
    print(f"  ops table    : {n_ops} operators, {ops_bytes} B = {ops_bytes / max(n_ops, 1):.1f} B per operator")
    print(f"  file         : {size_on} B recorded, {size_off} B with recording off")
    if threads_on:
        main_on, main_off = threads_on[0], sum(threads_off)
        print(f"  perf samples : recording on {threads_on} (simulation thread, background writer), "
              f"off {threads_off}; simulation thread {100 * (main_on / main_off - 1):+.1f} %")
    print()


if __name__ == "__main__":
    main()
