#!/usr/bin/python3
"""`ptsim report` on real runs: json agrees with the file's summary, every format works on a
run and on a sweep folder, replicates show mean ± 95% CI, --best/--where pick the winner
computed here from the files' own summaries.

Usage: test_report.py PTSIM POSTPROC_DIR
"""
import csv
import io
import json
import math
import os

import h5py
import numpy as np

from results_fixture import T_975, Runs, summary_of

R = Runs("report")
try:
    single = R.run("one.h5")
    sweep, paths = R.governor_sweep()

    # 1. One run, json: every summary metric as a plain number equal to the file's, bit for
    #    bit; units apart; the per-domain and per-unit groups as the file has them.
    p = R.ptsim_cmd("report", single, "--format", "json")
    assert p.stderr == "", p.stderr
    rep = json.loads(p.stdout)  # one object, nothing else on stdout
    file_summary = summary_of(single)
    with h5py.File(single, "r") as f:
        for name, value in file_summary.items():
            got = rep[name]
            assert (got is None and math.isnan(value)) or got == value, (name, got, value)
            assert rep["units"][name] == f["summary"][name].attrs["units"].decode(), name
        ds = f["domain_summary"]
        for d, v in zip(ds["domain"].asstr()[()], ds["throttled_fraction"][()]):
            assert rep["domains"][d]["throttled_fraction"] == v, d
        us = f["unit_summary"]
        for i, u in enumerate(us["unit"].asstr()[()]):
            tb = rep["time_breakdown"][u]
            for col in ("compute_bound_s", "memory_bound_s", "interconnect_bound_s", "dvfs_stall_s",
                        "idle_exit_s", "idle_s"):
                assert tb[col] == us[col][i], (u, col)
            assert tb["ops"] == us["ops"][i]
    assert list(rep)[-1] == "units"

    # 2. Every format, on the run and on the folder: exit 0, something on stdout only.
    for target in (single, sweep):
        for fmt in ("table", "csv", "json", "markdown"):
            p = R.ptsim_cmd("report", target, "--format", fmt)
            assert p.stdout.strip(), (target, fmt)
            assert p.stderr == "", (target, fmt, p.stderr)
            if fmt == "csv":
                rows = list(csv.reader(io.StringIO(p.stdout)))
                assert rows[0][:2] == ["metric", "units"], rows[0]
                assert all(len(r) == len(rows[0]) for r in rows)
                names = [r[0] for r in rows]
                assert "energy_J" in names and "perf_per_watt" in names
            if fmt == "markdown":
                assert p.stdout.startswith("| metric | units |"), p.stdout[:80]
            if fmt == "table":
                assert "where the time went" in p.stdout
            if fmt == "json":
                json.loads(p.stdout)

    # 3. The folder: one entry per configuration; schedutil's three seeds as mean ± CI.
    rep = json.loads(R.ptsim_cmd("report", sweep, "--format", "json").stdout)
    assert isinstance(rep, list) and len(rep) == 3, [e.get("run") for e in rep]
    by_gov = {e["params"]["policy.governor"]: e for e in rep}
    assert set(by_gov) == {"performance", "powersave", "schedutil"}, by_gov.keys()
    assert by_gov["performance"]["run"] == "performance-s1"  # a single run keeps its id
    group = by_gov["schedutil"]
    assert group["runs"] == ["schedutil-s1", "schedutil-s2", "schedutil-s3"], group["runs"]
    assert group["run"] == "governor=schedutil", group["run"]
    values = {}
    for run_id in group["runs"]:
        for k, v in summary_of(paths[run_id]).items():
            values.setdefault(k, []).append(v)
    differ = 0
    for name, v in values.items():
        v = np.array(v)
        assert math.isclose(group[name], v.mean(), rel_tol=1e-12, abs_tol=1e-300), (name, group[name], v)
        half = T_975[2] * v.std(ddof=1) / math.sqrt(3)
        assert math.isclose(group["ci95"][name], half, rel_tol=1e-9, abs_tol=1e-15), (name, group["ci95"][name], half)
        differ += half > 0
    assert differ > 0, "Poisson arrivals with three seeds should not give identical runs"
    # The table shows the interval.
    table = R.ptsim_cmd("report", sweep).stdout
    assert " ± " in table and "governor=schedutil" in table

    # --each-run: one column per run.
    each = json.loads(R.ptsim_cmd("report", sweep, "--format", "json", "--each-run").stdout)
    assert [e["run"] for e in each] == sorted(paths), [e["run"] for e in each]
    # Files named one by one are the same as the folder.
    listed = json.loads(R.ptsim_cmd("report", *sorted(paths.values()), "--format", "json").stdout)
    assert listed == rep

    # 4. --best/--where: the winner by hand. Configuration means from the files themselves.
    means = {}
    for run_id, path in paths.items():
        gov = run_id.split("-")[0]
        for k, v in summary_of(path).items():
            means.setdefault(gov, {}).setdefault(k, []).append(v)
    means = {g: {k: float(np.mean(v)) for k, v in m.items()} for g, m in means.items()}
    unconstrained = max(means, key=lambda g: means[g]["perf_per_watt"])
    best = json.loads(R.ptsim_cmd("report", sweep, "--best", "perf_per_watt", "--format", "json").stdout)
    assert best["best"]["params"]["policy.governor"] == unconstrained, (best["best"], means)
    # A latency bound that the unconstrained winner just misses.
    bound = means[unconstrained]["latency_p99_s"]
    feasible = {g: m for g, m in means.items() if m["latency_p99_s"] < bound}
    ranked = sorted(feasible, key=lambda g: -feasible[g]["perf_per_watt"])
    d = json.loads(R.ptsim_cmd("report", sweep, "--best", "max:perf_per_watt", "--where",
                               f"latency_p99_s < {bound!r}", "--format", "json").stdout)
    assert d["metric"] == "perf_per_watt" and d["goal"] == "max"
    assert d["feasible"] == len(ranked), (d, means)
    if ranked:
        assert d["best"]["params"]["policy.governor"] == ranked[0], (d["best"], ranked, means)
        assert math.isclose(d["best"]["value"], feasible[ranked[0]]["perf_per_watt"], rel_tol=1e-12)
    else:
        assert d["best"] is None
    excluded = [e["label"] for e in d["excluded"]]
    assert any(unconstrained in e for e in excluded) or f"{unconstrained}-s1" in excluded, excluded
    if len(ranked) > 1:
        gap = feasible[ranked[0]]["perf_per_watt"] - feasible[ranked[1]]["perf_per_watt"]
        assert d["runner_up"]["params"]["policy.governor"] == ranked[1]
        assert math.isclose(d["gap"], gap, rel_tol=1e-9), (d["gap"], gap)
    # Options may come before the folder: --where takes one expression, not what follows.
    again = json.loads(R.ptsim_cmd("report", "--where", f"latency_p99_s < {bound!r}", "--best",
                                   "max:perf_per_watt", "--format", "json", sweep).stdout)
    assert again == d
    # Two constraints are ANDed; an impossible pair leaves nothing.
    none = json.loads(R.ptsim_cmd("report", sweep, "--best", "perf_per_watt", "--where", "latency_p99_s < 1",
                                  "--where", "energy_J < 0", "--format", "json").stdout)
    assert none["best"] is None and none["feasible"] == 0
    # Every format prints the decision.
    for fmt in ("table", "markdown", "csv"):
        out = R.ptsim_cmd("report", sweep, "--best", "perf_per_watt", "--format", fmt).stdout
        assert unconstrained in out, (fmt, out)
    table = R.ptsim_cmd("report", sweep, "--best", "perf_per_watt").stdout
    assert table.splitlines()[1].startswith("best: "), table

    # 5. Errors: named, exit 2, nothing on stdout.
    for args, needle in [(["--best", "wall_clock"], "max:wall_clock"),
                         (["--best", "perf_per_watt", "--where", "latency_p99_s = 3"], "use '=='"),
                         (["--best", "perf_per_watt", "--where", "typo_s < 3"], "typo_s"),
                         (["--where", "latency_p99_s < 3"], "--where needs --best")]:
        p = R.ptsim_cmd("report", sweep, *args, check=False)
        assert p.returncode == 2 and p.stdout == "" and needle in p.stderr, (args, p.returncode, p.stderr)
    p = R.ptsim_cmd("report", os.path.join(R.dir, "nowhere"), check=False)
    assert p.returncode == 2 and "no such file or folder" in p.stderr, p.stderr

    # 6. A sweep's failed runs (listed in summary.csv, no result file) are named on stderr.
    with open(os.path.join(sweep, "summary.csv"), "w") as f:
        f.write("run_id,status,error,policy.governor\nperformance-s1,ok,,performance\n"
                "ondemand-s1,failed,\"thermal runaway, npu\",ondemand\n")
    p = R.ptsim_cmd("report", sweep, "--format", "json")
    assert "ondemand-s1: run failed: thermal runaway, npu (left out)" in p.stderr, p.stderr
    assert len(json.loads(p.stdout)) == 3
finally:
    R.cleanup()
print("results test_report: ok")
