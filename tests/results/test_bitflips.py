"""Corrupt result files are an error, never a crash or a wrong answer.

One real run (`ptsim run`, the default scenario shortened and made to throttle, so that every
group has rows), then N copies with 1 to 4 bits flipped at seeded random positions. On each
copy `ptsim report --format json` and `ptsim trace` must not die of a signal, and may exit 0
only when their output equals the unflipped file's. The Python reader (ptsim_results.open_run)
is held to the same rule, all copies in one child process (a crash there fails the test and
names the last file started).

    test_bitflips.py PTSIM POSTPROC_DIR [N_FILES] [FIRST_SEED] [SCENARIO.yaml]

N_FILES defaults to 100 (PTSIM_BITFLIP_FILES overrides it); ctest runs the default.
"""
import json
import os
import random
import shutil
import subprocess
import sys

from results_fixture import HOT, Runs

N_FILES = int(os.environ.get("PTSIM_BITFLIP_FILES", sys.argv[3] if len(sys.argv) > 3 else 100))
FIRST_SEED = int(sys.argv[4]) if len(sys.argv) > 4 else 1
# Another scenario (run for 0.5 s as it is) instead of the throttling default one.
SCENARIO = os.path.abspath(sys.argv[5]) if len(sys.argv) > 5 else None

PY_CHECK = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import ptsim_results

def digest(path):
    run = ptsim_results.open_run(path)
    ts = run["timeseries"]
    out = {"summary": run["summary"], "attrs": {k: str(v) for k, v in run["attrs"].items()},
           "scenario": run["scenario"], "ops_limit": run["ops_limit"], "ops_dropped": run["ops_dropped"]}
    for name in ("jobs", "events", "floorplan", "ops", "unit_summary", "domain_summary"):
        out[name] = json.dumps(run[name].to_dict(orient="split"), default=str)  # repr: every bit
    out["timeseries"] = {k: repr(ts[k].values.tolist()) if ts[k].dtype == object else ts[k].values.tobytes().hex()
                         for k in sorted(ts.variables)}
    return json.dumps(out, sort_keys=True, default=str)

reference = digest(sys.argv[2])
bad = []
for path in sys.argv[3:]:
    print("START", path, flush=True)
    try:
        got = digest(path)
    except Exception as e:  # an error naming the problem is the wanted outcome
        print("ERROR", path, type(e).__name__, str(e)[:200], flush=True)
        continue
    print("OK" if got == reference else "WRONG", path, flush=True)
"""


def flip(data, rng):
    """1 to 4 distinct bits flipped; returns the positions (byte, bit)."""
    flips = []
    for _ in range(rng.randint(1, 4)):
        pos, bit = rng.randrange(len(data)), rng.randrange(8)
        data[pos] ^= 1 << bit
        flips.append((pos, bit))
    return flips


def outputs(runs, path, trace_out):
    """(report rc, report stdout, trace rc, trace bytes or None, stderr of both)."""
    rep = runs.ptsim_cmd("report", path, "--format", "json", check=False)
    if os.path.exists(trace_out):
        os.remove(trace_out)
    tr = runs.ptsim_cmd("trace", path, "-o", trace_out, check=False)
    trace = open(trace_out, "rb").read() if tr.returncode == 0 and os.path.exists(trace_out) else None
    return rep.returncode, rep.stdout, tr.returncode, trace, rep.stderr + tr.stderr


def main():
    runs = Runs("bitflips")
    try:
        src = (runs.run("ref/run.h5", SCENARIO, "--set", "duration=0.5 s") if SCENARIO else
               runs.run("ref/run.h5", "--set", "duration=0.5 s", *HOT))
        ref = outputs(runs, src, os.path.join(runs.dir, "ref", "trace.json"))
        assert ref[0] == 0 and ref[2] == 0, f"the unflipped file must read: {ref[4]}"
        json.loads(ref[1])
        original = open(src, "rb").read()
        print(f"reference: {len(original)} bytes, {N_FILES} copies with 1-4 flipped bits")

        counts = {"report": {}, "trace": {}}
        failures, paths = [], []
        for i in range(N_FILES):
            seed = FIRST_SEED + i
            rng = random.Random(seed)
            data = bytearray(original)
            where = flip(data, rng)
            d = os.path.join(runs.dir, f"flip{seed:04d}")
            os.makedirs(d)
            path = os.path.join(d, "run.h5")  # the same file name: reports name runs by it
            open(path, "wb").write(data)
            paths.append(path)
            rep_rc, rep_out, tr_rc, trace, err = outputs(runs, path, os.path.join(d, "trace.json"))
            for tool, rc, same in (("report", rep_rc, rep_out == ref[1]), ("trace", tr_rc, trace == ref[3])):
                outcome = ("signal" if rc < 0 or rc >= 128 else
                           "error" if rc != 0 else "same" if same else "WRONG")
                counts[tool][outcome] = counts[tool].get(outcome, 0) + 1
                if outcome in ("signal", "WRONG"):
                    failures.append(f"seed {seed} flips {where}: ptsim {tool} {outcome} (rc {rc}) {err[-300:]}")
                elif outcome == "error" and not err.strip():
                    failures.append(f"seed {seed} flips {where}: ptsim {tool} failed without a message")
        print("outcomes:", json.dumps(counts, sort_keys=True))

        # The Python reader, every copy in one process.
        p = subprocess.run([sys.executable, "-c", PY_CHECK, runs.postproc, src, *paths],
                           capture_output=True, text=True)
        py = {}
        started = None
        for line in p.stdout.splitlines():
            word, _, rest = line.partition(" ")
            if word == "START":
                started = rest
                continue
            py[word] = py.get(word, 0) + 1
            if word == "WRONG":
                failures.append(f"ptsim_results read wrong data from {rest} without an error")
        print("ptsim_results outcomes:", json.dumps(py, sort_keys=True))
        errors = [line.split(" ", 3)[2] for line in p.stdout.splitlines() if line.startswith("ERROR")]
        print("ptsim_results errors by type:", json.dumps({e: errors.count(e) for e in sorted(set(errors))}))
        if p.returncode != 0:
            failures.append(f"ptsim_results died (rc {p.returncode}) reading {started}: {p.stderr[-500:]}")

        assert not failures, "\n".join(failures)
        print("ok")
    finally:
        runs.cleanup()


if __name__ == "__main__":
    main()
