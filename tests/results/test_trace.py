#!/usr/bin/python3
"""`ptsim trace` and `ptsim run --trace` on a real run: the JSON follows the trace-event
format (traceEvents array, required keys per phase, metadata names, monotonic timestamps
per track), its slices are the file's operators and its counters the file's timeseries;
a time window bounds it.

Usage: test_trace.py PTSIM POSTPROC_DIR
"""
import json
import math
import os

import h5py
import numpy as np

from results_fixture import HOT, SHORT, Runs

REQUIRED = {  # keys every event of a phase must have (Trace Event Format document)
    "X": {"name", "ph", "ts", "dur", "pid", "tid"},
    "C": {"name", "ph", "ts", "pid", "args"},
    "i": {"name", "ph", "ts", "pid", "tid", "s"},
    "M": {"name", "ph", "pid", "args"},
}


def validate(trace):
    """Checks the trace-event rules; returns the events by phase."""
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    by_phase = {}
    for e in trace["traceEvents"]:
        ph = e["ph"]
        assert ph in REQUIRED, e
        missing = REQUIRED[ph] - set(e)
        assert not missing, (missing, e)
        assert isinstance(e["pid"], int) and isinstance(e.get("tid", 0), int), e
        if ph != "M":
            assert isinstance(e["ts"], (int, float)) and math.isfinite(e["ts"]), e
        if ph == "X":
            assert e["dur"] >= 0, e
        if ph == "C":
            assert all(isinstance(v, (int, float)) for v in e["args"].values()), e
        if ph == "i":
            assert e["s"] in ("g", "p", "t"), e
        by_phase.setdefault(ph, []).append(e)
    # Metadata names every process and thread that carries events.
    names = {(e["pid"], e.get("tid")) for e in by_phase["M"] if e["name"] == "thread_name"}
    procs = {e["pid"] for e in by_phase["M"] if e["name"] == "process_name"}
    for e in by_phase.get("X", []) + by_phase.get("i", []):
        assert (e["pid"], e["tid"]) in names, e
    for e in by_phase.get("C", []):
        assert e["pid"] in procs, e
    # Timestamps never go back on a track: per thread for slices and instants, per counter.
    last = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "M":
            continue
        key = (e["ph"] == "C", e["pid"], e["name"] if e["ph"] == "C" else e["tid"], e["ph"] == "X")
        assert e["ts"] >= last.get(key, -math.inf), (e, last.get(key))
        last[key] = e["ts"]
    # Slices on one thread do not overlap (operators run one at a time per unit).
    ends = {}
    for e in sorted(by_phase.get("X", []), key=lambda e: (e["pid"], e["tid"], e["ts"])):
        k = (e["pid"], e["tid"])
        assert e["ts"] >= ends.get(k, -math.inf) - 1e-6, (e, ends.get(k))
        ends[k] = e["ts"] + e["dur"]
    return by_phase


R = Runs("trace")
try:
    path = os.path.join(R.dir, "hot.h5")
    via_run = os.path.join(R.dir, "run.json")
    R.ptsim_cmd("run", "-q", "-o", path, *SHORT, *HOT, "--trace", via_run)
    out = os.path.join(R.dir, "trace.json")
    p = R.ptsim_cmd("trace", path, "-o", out)
    assert p.stdout == "" and p.stderr == "", (p.stdout, p.stderr)
    with open(out) as f:
        trace = json.load(f)
    with open(via_run) as f:
        assert json.load(f) == trace  # `run --trace` writes the same trace
    ev = validate(trace)

    with h5py.File(path, "r") as f:
        ops = f["ops"]
        units = list(f["unit_summary/unit"].asstr()[()])
        op_unit = ops["unit"].asstr()[()]
        op_name = ops["operator"].asstr()[()]
        start, end = ops["start_s"][()], ops["end_s"][()]
        bound = ops["bound_by"].asstr()[()]
        ts = f["timeseries"]
        time = ts["time"][()]
        period = float(ts.attrs["record_period_s"])
        freq, volt = ts["frequency"][()], ts["voltage"][()]
        power, temp = ts["power"][()], ts["temperature"][()]
        domains = list(ts["domain"].asstr()[()])
        comps = list(ts["component"].asstr()[()])
        blocks = list(ts["block"].asstr()[()])
        events = {k: f["events"][k][()] for k in ("time_s", "value")}
        kinds = f["events/kind"].asstr()[()]
        sources = f["events/source"].asstr()[()]

    meta = ev["M"]
    thread = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta if e["name"] == "thread_name"}
    process = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    units_pid = [p for p, n in process.items() if n == "compute units"][0]

    # 1. Slices: one per operator, on its unit's track, times in microseconds.
    op_slices = [e for e in ev["X"] if e["pid"] == units_pid]
    assert len(op_slices) == len(start) > 100, (len(op_slices), len(start))
    by_unit = {}
    for e in op_slices:
        by_unit.setdefault(thread[(e["pid"], e["tid"])], []).append(e)
    assert set(by_unit) <= set(units), (by_unit.keys(), units)
    for u in by_unit:
        idx = np.flatnonzero(op_unit == u)
        got = by_unit[u]
        assert len(got) == len(idx), u
        np.testing.assert_allclose([e["ts"] for e in got], start[idx] * 1e6, rtol=1e-12, atol=1e-6)
        np.testing.assert_allclose([e["ts"] + e["dur"] for e in got], end[idx] * 1e6, rtol=1e-12, atol=1e-6)
        assert [e["name"] for e in got] == list(op_name[idx]), u
        assert [e["args"]["bound_by"] for e in got] == list(bound[idx]), u

    # 2. Counters: frequency (MHz), voltage, power, temperature for every sample; means over
    #    a record period stamped at its start, temperature at the sample time.
    def series(name):
        pts = sorted((e["ts"], list(e["args"].values())[0]) for e in ev["C"] if e["name"] == name)
        return np.array([p[0] for p in pts]), np.array([p[1] for p in pts])

    for j, d in enumerate(domains):
        t_us, v = series(f"{d} frequency")
        np.testing.assert_allclose(t_us, (time - period) * 1e6, rtol=1e-12, atol=1e-6)
        np.testing.assert_allclose(v, freq[:, j] / 1e6, rtol=1e-15)
        np.testing.assert_array_equal(series(f"{d} voltage")[1], volt[:, j])
    for j, c in enumerate(comps):
        np.testing.assert_array_equal(series(f"{c} power")[1], power[:, j])
    for j, b in enumerate(blocks):
        t_us, v = series(f"{b} temperature")
        np.testing.assert_allclose(t_us, time * 1e6, rtol=1e-12, atol=1e-6)
        np.testing.assert_array_equal(v, temp[:, j])

    # 3. DVFS changes and throttling as instants with their reason; episodes as slices.
    instants = ev["i"]
    dvfs = [e for e in instants if e["cat"] == "dvfs"]
    assert len(dvfs) == int((kinds == "dvfs").sum()) > 0
    assert all(e["args"]["reason"] for e in dvfs)
    starts = [e for e in instants if e["name"] == "throttle start"]
    assert len(starts) == int((kinds == "throttle_start").sum()) > 0, "the hot run should throttle"
    assert all("ceiling" in e["args"]["reason"] for e in starts), starts[:2]
    episodes = [e for e in ev["X"] if e["name"] == "throttled"]
    assert len(episodes) == len(starts)
    for e in dvfs:
        assert thread[(e["pid"], e["tid"])] in domains

    # 4. A time window keeps what falls in it and cuts operators at its edges.
    win = os.path.join(R.dir, "window.json")
    R.ptsim_cmd("trace", path, "-o", win, "--from", "500 ms", "--to", "1 s")
    with open(win) as f:
        w = validate(json.load(f))
    ts_all = [e["ts"] for k in ("X", "C", "i") for e in w.get(k, [])]
    assert min(ts_all) >= 5e5 - 1e-6 and max(ts_all) <= 1e6 + 1e-6
    assert all(e["ts"] + e["dur"] <= 1e6 + 1e-6 for e in w["X"])
    inside = ((end >= 0.5) & (start <= 1.0)).sum()
    assert len([e for e in w["X"] if e["pid"] == units_pid]) == inside
    assert os.path.getsize(win) < os.path.getsize(out) / 2

    for args, needle in [(["--from", "1 s", "--to", "0.5 s"], "--from must be before --to"),
                         (["--from", "3 W"], "--from")]:
        p = R.ptsim_cmd("trace", path, "-o", os.path.join(R.dir, "bad.json"), *args, check=False)
        assert p.returncode == 2 and needle in p.stderr, (args, p.stderr)
        assert not os.path.exists(os.path.join(R.dir, "bad.json"))
    p = R.ptsim_cmd("trace", os.path.join(R.dir, "absent.h5"), "-o", os.path.join(R.dir, "x.json"), check=False)
    assert p.returncode == 2 and "absent.h5" in p.stderr, p.stderr
finally:
    R.cleanup()
print("results test_trace: ok")
