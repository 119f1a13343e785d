#!/usr/bin/python3
"""The result file of a real run as users open it: every group through xarray (h5netcdf)
and pandas with no glue; ops, unit_summary and domain_summary consistent with each other
and with the timeseries; the ops limit; recording switched off changes no result.

Usage: test_file.py PTSIM POSTPROC_DIR
"""
import h5py
import numpy as np
import xarray as xr

from results_fixture import HOT, Runs, summary_of

R = Runs("file")
try:
    import ptsim_results

    path = R.run("hot.h5", *HOT)
    duration = 2.0

    # 1. Every group opens with xarray as is; every numeric variable has units (but an
    #    event's value, whose unit depends on its kind: Hz for dvfs).
    dims = {"timeseries": None, "jobs": "job", "events": "event", "floorplan": "block",
            "ops": "op", "unit_summary": "unit", "domain_summary": "domain"}
    for group, dim in dims.items():
        with xr.open_dataset(path, group=group, engine="h5netcdf") as ds:
            if dim:
                assert list(ds.dims) == [dim], (group, ds.dims)
            for name, v in ds.data_vars.items():
                if v.dtype.kind in "fi" and (group, name) != ("events", "value"):
                    assert "units" in v.attrs, (group, name)
    with xr.open_dataset(path, group="summary", engine="h5netcdf") as ds:
        assert all("units" in v.attrs for v in ds.data_vars.values())

    run = ptsim_results.open_run(path)
    ops, units, doms = run["ops"], run["unit_summary"], run["domain_summary"]

    # job_energy: (job, component) in xarray with the timeseries' components; in Python a
    # frame by job id whose rows sum to the finished jobs' energy_J.
    with xr.open_dataset(path, group="job_energy", engine="h5netcdf") as ds:
        assert ds["energy_J"].dims == ("job", "component"), ds["energy_J"].dims
        assert ds["energy_J"].attrs["units"] == "J"
        assert list(ds["component"].values) == list(run["timeseries"]["component"].values)
    finished = run["jobs"][run["jobs"]["state"] == "finished"].set_index("id")
    split = run["job_energy"]
    assert list(split.index) == list(finished.index), (len(split), len(finished))
    assert np.allclose(split.sum(axis=1).values, finished["energy_J"].values, rtol=1e-12, atol=0)
    assert (split.values >= 0).all()
    # Which way is better comes from the file (the metric catalogue's attributes), for every
    # summary metric and the per-unit columns that have a direction.
    better = run["better"]
    assert set(run["summary"]) <= set(better), set(run["summary"]) - set(better)
    assert ptsim_results.direction("perf_per_watt", better) == "max"
    assert ptsim_results.direction("latency_p99_s", better) == "min"
    assert ptsim_results.direction(f"busy_s[{units.index[0]}]", better) == "min"
    assert ptsim_results.direction("max:idle_s", better) == "max"
    for unknown in ("idle_s[npu]", "no_such_metric"):
        try:
            ptsim_results.direction(unknown, better)
            raise AssertionError(f"{unknown}: a direction without one in the file")
        except ValueError as e:
            assert "max:" in str(e), e
    assert len(ops) > 100, len(ops)
    assert run["ops_dropped"] == 0 and run["ops_limit"] == 100000
    assert set(ops["bound_by"]) <= {"compute", "memory"}
    assert (ops["end_s"] >= ops["start_s"]).all()

    # 2. Where the time went, against the ops table on its own: per unit, operators run back
    #    to back (never overlapping); the unit's busy time outside idle-state exits is the sum
    #    of its operators' times, and its compute- and memory-bound times those of the
    #    operators the table marks so (no DVFS stall in this scenario).
    for unit, row in units.iterrows():
        o = ops[ops["unit"] == unit].sort_values("start_s")
        assert (o["start_s"].to_numpy()[1:] >= o["end_s"].to_numpy()[:-1] - 1e-12).all(), unit
        took = (o["end_s"] - o["start_s"]).to_numpy()
        busy = sum(row[c] for c in ptsim_results.BUSY_COLUMNS)
        np.testing.assert_allclose(busy - row["idle_exit_s"], took.sum(), rtol=1e-9, atol=1e-12, err_msg=unit)
        for kind in ("compute", "memory", "interconnect"):
            np.testing.assert_allclose(row[kind + "_bound_s"], took[(o["bound_by"] == kind).to_numpy()].sum(),
                                       rtol=1e-9, atol=1e-12, err_msg=(unit, kind))
        np.testing.assert_allclose(busy + row["idle_s"], duration, rtol=1e-12, err_msg=unit)
        assert row["ops"] == int((o["end_s"] <= duration).sum()), unit
    # The camera pipeline keeps the NPU busy, and the CPU cluster EAS puts its two tasks on
    # (README "CPU scheduling"): every frame runs on one cluster per stage, so together the
    # three CPU clusters ran the stages' time, as the tasks group says.
    assert units.loc["npu", "compute_bound_s"] > 0
    cpus = ["cpu_little", "cpu_mid", "cpu_big"]
    cpu_busy = sum(duration - units.loc[c, "idle_s"] for c in cpus)
    tasks = run["tasks"]
    assert cpu_busy >= float(tasks["run_s"].sum()) - 1e-9

    # 3. Per-domain throttling equals the timeseries' throttled share, averaged over time.
    ts = run["timeseries"]
    assert float(ts["throttled"].max()) > 0, "the hot run should throttle"
    for d, row in doms.iterrows():
        np.testing.assert_allclose(row["throttled_fraction"], float(ts["throttled"].sel(domain=d).mean()),
                                   rtol=1e-9, atol=1e-12, err_msg=d)
    # Any-domain throttling is at least the largest per-domain share.
    assert run["summary"]["throttled_fraction"] >= doms["throttled_fraction"].max() - 1e-12

    # 4. The ops limit: the first N operators are kept, the rest counted.
    limited = R.run("limited.h5", *HOT, "--ops-limit", "50")
    lr = ptsim_results.open_run(limited)
    assert len(lr["ops"]) == 50 and lr["ops_dropped"] == len(ops) - 50, (len(lr["ops"]), lr["ops_dropped"])
    np.testing.assert_array_equal(lr["ops"]["start_s"].to_numpy(), ops["start_s"].to_numpy()[:50])

    # 5. Recording off: no timeseries rows, no ops; the simulated results are the same.
    quiet = R.run("quiet.h5", *HOT, "--no-record")
    with h5py.File(quiet, "r") as f:
        assert f["timeseries/time"].shape == (0,)
        assert f["ops/start_s"].shape == (0,)
        assert f["jobs/latency_s"].shape[0] > 0
    assert summary_of(quiet) == summary_of(path)
finally:
    R.cleanup()
print("results test_file: ok")
