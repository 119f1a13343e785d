#!/usr/bin/python3
"""The summary against the data it summarises, on real runs (issue 17):
peaks equal the recorded timeseries' (with the window they are over), the peak over a power
cap's window lies between what the samples allow; energy by component sums to energy_J;
jobs hold every request with its state, counted beside the latencies; per-stream and LLM
metrics equal what the jobs table gives by hand; a measurement window changes the summary
and not the timeseries; --where with units and "did you mean"; validate --set; operators
past --ops-limit said on stderr; runs of different throughput units each show their own.

Usage: test_summary_windows.py PTSIM POSTPROC_DIR
"""
import json
import math
import os

import h5py
import numpy as np

from results_fixture import Runs

R = Runs("windows")


def summary(path):
    with h5py.File(path, "r") as f:
        return ({k: float(v[()]) for k, v in f["summary"].items()},
                {k: dict(v.attrs) for k, v in f["summary"].items()})


def jobs(path):
    with h5py.File(path, "r") as f:
        g = f["jobs"]
        return {k: (g[k].asstr()[()] if h5py.check_string_dtype(g[k].dtype) else g[k][()])
                for k in g if k != "job"}


def close(a, b, rtol=1e-12):
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0) or (math.isnan(a) and math.isnan(b))


try:
    scen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenarios")
    run = R.run("one.h5")  # default scenario, 2 s: 1 ms control, 10 ms record periods
    s, attrs = summary(run)
    with h5py.File(run, "r") as f:
        ts = f["timeseries"]
        period = float(ts.attrs["record_period_s"])
        power = ts["power"][()]
        temp = ts["temperature"][()]
        components = list(ts["component"].asstr()[()])
        time = ts["time"][()]
        power_before, temp_before = power.copy(), temp.copy()

    # 1. Peaks are the recorded data's: platform power averaged over a record period (the
    #    power samples summed), block temperatures at the sample times; window_s says so.
    assert close(s["peak_power_W"], power.sum(axis=1).max(), 1e-12), (s["peak_power_W"], power.sum(axis=1).max())
    assert attrs["peak_power_W"]["window_s"] == period
    assert close(s["peak_temperature_C"], temp.max()), (s["peak_temperature_C"], temp.max())
    assert "peak_power_cap_window_W" not in s  # no cap

    # 2. Energy by component: each is its power integrated; together energy_J. Groups: the
    #    components' groups sum to energy_J, with supply losses to wall_energy_J.
    for j, c in enumerate(components):
        assert close(s[f"energy_J[{c}]"], power[:, j].sum() * period, 1e-9), c
    assert close(sum(s[f"energy_J[{c}]"] for c in components), s["energy_J"], 1e-12)
    groups = {k[len("energy_group_J["):-1]: v for k, v in s.items() if k.startswith("energy_group_J[")}
    assert "supply_losses" in groups and "cpu" in groups and "memory" in groups, groups
    assert close(sum(v for g, v in groups.items() if g != "supply_losses"), s["energy_J"], 1e-12)
    assert close(sum(groups.values()), s["wall_energy_J"], 1e-12)

    # 3. Jobs: every request, with its state; the counts beside the latencies.
    j = jobs(run)
    state = j["state"]
    finished = state == "finished"
    assert set(state) <= {"finished", "unfinished", "dropped"}
    assert finished.sum() == s["completed"]
    assert (state == "unfinished").sum() == s["unfinished"] and (state == "dropped").sum() == s["dropped"]
    assert np.isnan(j["finish_s"][~finished]).all() and np.isfinite(j["finish_s"][finished]).all()
    lat = j["latency_s"][finished]
    for q in (50, 90, 99):
        assert close(s[f"latency_p{q}_s"], float(np.percentile(lat, q))), q
        assert s[f"latency_p{q}_s[camera]"] == s[f"latency_p{q}_s"]  # one stream: the same number
    assert s["throughput[camera]"] == s["throughput"]

    # 4. A measurement window from 1 s: the timeseries and jobs unchanged, bit for bit; the
    #    summary over [1 s, 2 s] only.
    win = R.run("window.h5", "--set", "measure.from=1 s")
    w, _ = summary(win)
    with h5py.File(win, "r") as f:
        ts = f["timeseries"]
        np.testing.assert_array_equal(ts["power"][()], power_before)
        np.testing.assert_array_equal(ts["temperature"][()], temp_before)
    jw = jobs(win)
    for k in j:
        np.testing.assert_array_equal(jw[k], j[k])
    late = time > 1.0 + period / 2  # samples of periods that start at or after 1 s
    assert close(w["energy_J"], power[late].sum() * period, 1e-9), (w["energy_J"], power[late].sum() * period)
    assert close(w["avg_power_W"], w["energy_J"] / 1.0)
    assert close(w["peak_power_W"], power[late].sum(axis=1).max())
    in_window = finished & (j["arrival_s"] >= 1.0)
    assert w["completed"] == in_window.sum() < s["completed"]
    assert close(w["latency_p99_s"], float(np.percentile(j["latency_s"][in_window], 99)))
    assert w["energy_J"] < s["energy_J"]

    # 5. An LLM stream: TTFT, TPOT and energy per token from the jobs table by hand.
    # Short answers, so that several finish in 20 s (the sampler on an A55 makes ~100 ms tokens).
    llm = R.run("llm.h5", os.path.join(scen, "phone-llm-chat.yaml"), "--set", "duration=20 s",
                "--set", "workload.streams.chat.arrival.think_time=1 s",
                "--set", "workload.streams.chat.llm.output_tokens.max=64")
    L, _ = summary(llm)
    jl = jobs(llm)
    done = jl["state"] == "finished"
    assert done.sum() >= 2, done.sum()
    ttft = (jl["first_token_s"] - jl["arrival_s"])[done]
    many = done & (jl["tokens_out"] > 1)
    tpot = ((jl["finish_s"] - jl["first_token_s"]) / (jl["tokens_out"] - 1))[many]
    for q in (50, 99):
        assert close(L[f"ttft_p{q}_s[chat]"], float(np.percentile(ttft, q))), q
        assert close(L[f"tpot_p{q}_s[chat]"], float(np.percentile(tpot, q))), q
        assert L[f"ttft_p{q}_s"] == L[f"ttft_p{q}_s[chat]"]
    assert close(L["energy_per_output_token_J[chat]"], jl["energy_J"][done].sum() / jl["tokens_out"][done].sum(), 1e-9)
    assert close(L["energy_per_request_J"], jl["energy_J"][done].mean(), 1e-9)
    assert "ttft_p99_s" not in s  # not an LLM run
    # Occupancy, one user: at most one sequence running, its time-average at most the share of
    # the run requests spent between start and finish (an unfinished one: arrival to the end).
    busy = (jl["finish_s"] - jl["start_s"])[done].sum()
    busy += (20.0 - jl["arrival_s"][jl["state"] == "unfinished"]).sum()  # at most from arrival on
    assert 0 < L["batch_mean[chat]"] <= 1 and L["batch_mean"] == L["batch_mean[chat]"]
    assert L["batch_mean[chat]"] <= busy / 20.0 + 1e-3, (L["batch_mean[chat]"], busy / 20.0)
    assert 0 < L["kv_occupancy_mean[chat]"] < 1
    assert 0 <= L["queue_length_mean[chat]"] <= 1

    # 6. report: json carries the per-stream names; --where with units; did you mean.
    rep = json.loads(R.ptsim_cmd("report", llm, "--format", "json").stdout)
    assert rep["ttft_p99_s[chat]"] == L["ttft_p99_s[chat]"] and rep["units"]["ttft_p99_s[chat]"] == "s"
    rep = json.loads(R.ptsim_cmd("report", run, "--format", "json").stdout)
    for c in components:
        assert rep[f"energy_J[{c}]"] == s[f"energy_J[{c}]"] and rep["units"][f"energy_J[{c}]"] == "J", c
    both = [run, win]
    plain = R.ptsim_cmd("report", *both, "--best", "energy_J", "--where", "latency_p99_s < 0.5",
                        "--format", "json").stdout
    units = R.ptsim_cmd("report", *both, "--best", "energy_J", "--where", "latency_p99_s < 500 ms",
                        "--format", "json").stdout
    assert json.loads(plain)["ranking"] == json.loads(units)["ranking"]
    assert json.loads(plain)["feasible"] == 2
    none = json.loads(R.ptsim_cmd("report", *both, "--best", "energy_J", "--where", "latency_p99_s < 1 us",
                                  "--format", "json").stdout)
    assert none["feasible"] == 0
    p = R.ptsim_cmd("report", *both, "--best", "energy_J", "--where", "latency_p99_s < 10 mW", check=False)
    assert p.returncode == 2 and "10 mW" not in p.stdout and "'mW'" in p.stderr, p.stderr
    p = R.ptsim_cmd("report", *both, "--best", "energy_J", "--where", "latncy_p99_s < 1", check=False)
    assert p.returncode == 2 and "did you mean 'latency_p99_s'" in p.stderr, p.stderr
    best = json.loads(R.ptsim_cmd("report", llm, run, "--best", "min:ttft_p99_s[chat]", "--format", "json").stdout)
    assert best["feasible"] == 1

    # 7. Runs of different throughput units side by side: each with its own.
    table = R.ptsim_cmd("report", run, llm).stdout
    row = next(line for line in table.splitlines() if line.startswith("throughput "))
    assert "inferences/s" in row and "tokens/s" in row, row
    csv_rows = [r for r in R.ptsim_cmd("report", run, llm, "--format", "csv").stdout.splitlines()
                if r.startswith("throughput,")]
    assert len(csv_rows) == 2 and {r.split(",")[1] for r in csv_rows} == {"inferences/s", "tokens/s"}, csv_rows

    # 8. A power cap: the peak over its window lies between the record-aligned windows'
    #    highest mean and the highest record period's mean.
    capped = R.run("capped.h5", "--set", "policy.governor=performance", "--set", "policy.power_cap.limit=1.5 W",
                   "--set", "policy.power_cap.window=100 ms")
    c, ca = summary(capped)
    with h5py.File(capped, "r") as f:
        total = f["timeseries/power"][()].sum(axis=1)
    k = 10  # 100 ms of 10 ms samples
    aligned = np.convolve(total, np.ones(k) / k, mode="valid").max()
    assert aligned * (1 - 1e-12) <= c["peak_power_cap_window_W"] <= c["peak_power_W"] * (1 + 1e-12), \
        (aligned, c["peak_power_cap_window_W"], c["peak_power_W"])
    assert ca["peak_power_cap_window_W"]["window_s"] == 0.1

    # 9. validate --set; operators past --ops-limit said on stderr.
    ok = R.ptsim_cmd("validate", os.path.join(scen, "default.yaml"), "--set", "measure.from=1 s")
    assert ": ok" in ok.stdout
    bad = R.ptsim_cmd("validate", os.path.join(scen, "default.yaml"), "--set", "measure.from=30 s", check=False)
    assert bad.returncode == 2 and "measure" in bad.stderr, bad.stderr
    bad = R.ptsim_cmd("validate", os.path.join(scen, "default.yaml"), "--set", "mesure.from=1 s", check=False)
    assert bad.returncode == 2 and "measure" in bad.stderr, bad.stderr
    p = R.ptsim_cmd("run", "-o", os.path.join(R.dir, "ops.h5"), "--set", "duration=1 s", "--ops-limit", "10")
    assert "past --ops-limit 10" in p.stderr, p.stderr
    print("ok")
finally:
    R.cleanup()
