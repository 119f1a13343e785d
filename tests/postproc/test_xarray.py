#!/usr/bin/python3
"""The result file as Python users read it: xarray (h5netcdf), pandas, and ptsim_results.

Usage: test_xarray.py WRITER WORKDIR POSTPROC_DIR. WRITER writes the sample described in
tests/postproc/sample_result.hpp; the expected values are recomputed here from its formulas.
"""
import json
import math
import os
import subprocess
import sys
import zlib

import h5py
import numpy as np
import xarray as xr

writer, workdir, postproc_dir = sys.argv[1:4]
sys.path.insert(0, postproc_dir)
import ptsim_results  # noqa: E402

os.makedirs(workdir, exist_ok=True)
path = os.path.join(workdir, "sample.h5")
report_path = os.path.join(workdir, "report.json")
for p in (path, report_path):
    if os.path.exists(p):
        os.remove(p)
subprocess.run([writer, path, report_path], check=True)

CHUNK = 4096  # timeseries chunk rows (postproc/src/layout.hpp)
N = 8500  # two whole chunks and part of a third
COORDS = {
    "block": ["big.cpu0", "big.cpu1", "gpu", "npu"],
    "component": ["cpu", "gpu", "dram"],
    "domain": ["big", "gpu"],
}
VARIABLES = [  # name, dim, units, in the order written (index v in sample_value)
    ("temperature", "block", "degC"),
    ("power", "component", "W"),
    ("frequency", "domain", "Hz"),
    ("voltage", "domain", "V"),
    ("utilization", "domain", "1"),
]
SUMMARY = {
    "energy_J": (123.456, "J"), "avg_power_W": (6.1728, "W"),
    "peak_power_W": (9.87654321, "W"), "throughput": (0.1, "inferences/s"),
    "perf_per_watt": (1.0 / 3.0, "inferences/J"), "latency_p50_s": (0.0123, "s"),
    "latency_p99_s": (0.0456, "s"), "peak_temperature_C": (87.5, "degC"),
    "throttled_fraction": (1e-300, "1"),
}


def expected(v, n_cols):
    t = np.arange(N, dtype=np.float64)[:, None]
    j = np.arange(n_cols, dtype=np.float64)[None, :]
    return 100.0 * v + j + 0.001 * t


def check_timeseries(ds):
    assert set(ds.dims) == {"time", *COORDS}, ds.dims
    assert ds.sizes["time"] == N, ds.sizes
    time = ds["time"]
    assert time.dtype == np.float64, time.dtype  # "s" must not become timedelta64
    assert time.attrs["units"] == "s", time.attrs
    # Exact: the writer compresses the chunks itself (shuffle + deflate, stored directly).
    np.testing.assert_array_equal(time.values, np.arange(N) * 0.01)
    for dim, labels in COORDS.items():
        values = ds[dim].values.tolist()
        assert values == labels, (dim, values)
        assert all(type(x) is str for x in values), [type(x) for x in values]
    for v, (name, dim, units) in enumerate(VARIABLES):
        var = ds[name]
        assert var.dims == ("time", dim), (name, var.dims)
        assert var.dtype == np.float64
        assert var.attrs["units"] == units, (name, var.attrs)
        assert isinstance(var.attrs["long_name"], str) and var.attrs["long_name"]
        np.testing.assert_array_equal(var.values, expected(v, len(COORDS[dim])))
    # Label-based selection works through the string coordinate.
    assert float(ds["temperature"].sel(block="gpu").isel(time=299)) == 0 + 2 + 0.001 * 299


# 1. xarray as DESIGN.md promises: open_dataset(path, group="timeseries", engine="h5netcdf").
with xr.open_dataset(path, group="timeseries", engine="h5netcdf") as ds:
    check_timeseries(ds)

# 2. Root attributes with h5py: strings are fixed-length UTF-8 since schema 1.3 (no global
#    heap), which h5py returns as bytes (h5netcdf and ptsim_results decode them to str); the
#    seed is an unsigned 64-bit integer.
def as_text(v):
    assert isinstance(v, bytes), type(v)
    return v.decode("utf-8")


with h5py.File(path, "r") as f:
    a = f.attrs
    for key in ("ptsim_version", "schema_version", "scenario", "scenario_name", "host",
                "start_time"):
        as_text(a[key])
        assert h5py.check_string_dtype(a.get_id(key).dtype).length is not None, key  # fixed
    assert as_text(a["schema_version"]) == "1.7"
    assert int(a["schema_version_major"]) == 1 and int(a["schema_version_minor"]) == 7
    assert int(a["seed"]) == 18446744073709551557
    assert as_text(a["scenario_name"]) == "phone-camera"
    assert float(a["wall_s"]) == 12.5
    assert as_text(f["summary"].attrs["throughput_units"]) == "inferences/s"
    assert as_text(f["summary/throughput"].attrs["throughput_units"]) == "inferences/s"
    # Since 1.4 the metric catalogue travels with the file: which way is better, and what
    # each metric means, on every summary metric the catalogue knows.
    assert as_text(f["summary/throughput"].attrs["better"]) == "higher"
    assert as_text(f["summary/perf_per_watt"].attrs["better"]) == "higher"
    assert as_text(f["summary/energy_J"].attrs["better"]) == "lower"
    assert as_text(f["summary/latency_p99_s"].attrs["better"]) == "lower"
    assert as_text(f["summary/energy_J"].attrs["long_name"])

# 2b. The writer stores whole chunks it compressed itself: the datasets declare HDF5's stock
# shuffle + deflate + fletcher32, and each stored chunk is exactly what those filters decode.
# Checked here with Python's own zlib, a numpy unshuffle and Fletcher-32 written from its
# definition, apart from HDF5's filter pipeline.
def fletcher32(data):
    """HDF5's Fletcher-32: 16-bit big-endian words (an odd last byte as a high byte)."""
    if len(data) % 2:
        data += b"\0"
    words = np.frombuffer(data, dtype=">u2").astype(np.uint64)
    s1 = int(words.sum()) % 65535
    s2 = int(np.cumsum(words, dtype=np.uint64).sum() % 65535)  # no overflow: < 2^64 here
    return (s2 << 16) | s1


def checked_body(raw):
    """The chunk without its checksum, after checking the checksum (stored little-endian)."""
    body, tail = raw[:-4], raw[-4:]
    want = fletcher32(bytes(body))
    got = int.from_bytes(tail, "little")
    # HDF5 folds its sums to 1..65535 where a modulus gives 0: the same residue.
    assert (got & 0xffff) % 65535 == want & 0xffff and (got >> 16) % 65535 == want >> 16, (got, want)
    return body


with h5py.File(path, "r") as f:
    columns = [("time", None, np.arange(N)[:, None] * 0.01)]
    columns += [(name, dim, expected(v, len(COORDS[dim]))) for v, (name, dim, _) in enumerate(VARIABLES)]
    for name, dim, want in columns:
        ds = f["timeseries"][name]
        cols = want.shape[1]
        assert ds.compression == "gzip" and ds.shuffle and ds.fletcher32, name
        assert ds.chunks == ((CHUNK, cols) if dim else (CHUNK,)), (name, ds.chunks)
        for c in range(3):  # two whole chunks and a partial one, padded to a whole chunk
            mask, raw = ds.id.read_direct_chunk((CHUNK * c, 0) if dim else (CHUNK * c,))
            assert mask == 0, (name, c, mask)  # every filter applied
            planes = np.frombuffer(zlib.decompress(checked_body(raw)), dtype=np.uint8).reshape(8, -1)
            chunk = planes.T.copy().view("<f8").reshape(CHUNK, cols)
            rows = min(CHUNK, N - CHUNK * c)
            np.testing.assert_array_equal(chunk[:rows], want[CHUNK * c:CHUNK * c + rows])
            assert (chunk[rows:] == 0).all(), (name, c)  # an edge chunk is padded with the fill value
    # The operator labels are deflated by ptsim too (no shuffle for strings): 8500 rows in
    # chunks of 4096, the last padded with NULs.
    unit = f["ops"]["unit"]
    width = unit.dtype.itemsize
    assert unit.compression == "gzip" and not unit.shuffle and unit.fletcher32 and unit.chunks == (4096,), unit.chunks
    names = ["npu", "big.cpu0", "gpu"]
    for c in range(3):
        mask, raw = unit.id.read_direct_chunk((4096 * c,))
        assert mask == 0, (c, mask)
        text = zlib.decompress(checked_body(raw))
        assert len(text) == 4096 * width, (c, len(text))
        rows = min(4096, 8500 - 4096 * c)
        got = [text[i * width:(i + 1) * width].rstrip(b"\0").decode() for i in range(4096)]
        assert got[:rows] == [names[(4096 * c + i) % 3] for i in range(rows)], c
        assert got[rows:] == [""] * (4096 - rows), c

# 3. The helper module.
run = ptsim_results.open_run(path)
check_timeseries(run["timeseries"])
assert run["attrs"]["seed"] == 18446744073709551557
assert run["attrs"]["scenario"].startswith("name: phone-camera\n")
assert set(run["summary"]) == set(SUMMARY), run["summary"]
for name, (value, units) in SUMMARY.items():
    assert run["summary"][name] == value, (name, run["summary"][name])
    assert run["summary_units"][name] == units, (name, run["summary_units"])

jobs = run["jobs"]
assert list(jobs.columns) == ["id", "stream", "unit", "arrival_s", "start_s", "finish_s",
                              "latency_s", "energy_J", "first_token_s", "tokens_in",
                              "tokens_out", "state"], list(jobs.columns)
assert len(jobs) == 5000
i = np.arange(5000)
assert (jobs["id"].to_numpy() == i * 3 - 7).all()
assert jobs["stream"].tolist() == ["camera" if k % 2 else "assistant" for k in i]
assert jobs["unit"].tolist() == ["npu" if k % 3 else "gpu" for k in i]
assert isinstance(jobs["stream"][0], str)
np.testing.assert_array_equal(jobs["arrival_s"].to_numpy(), 0.5 * i)
np.testing.assert_allclose(jobs["latency_s"].to_numpy(), 0.021, rtol=1e-9)
np.testing.assert_array_equal(jobs["energy_J"].to_numpy(), 0.125 * (i % 7))

events = run["events"]
assert list(events.columns) == ["time_s", "kind", "source", "message", "value"]
assert events["kind"].tolist() == ["dvfs", "throttle", "warning"]
assert events["message"][1] == "step_wise → 1.2 GHz ceiling"
assert events["value"][0] == 2.4e9 and math.isnan(events["value"][2])

fp = run["floorplan"]
assert list(fp.columns) == ["name", "x", "y", "width", "height"]
assert fp["name"].tolist() == COORDS["block"]
np.testing.assert_array_equal(fp["width"].to_numpy(), [1.5e-3, 1.5e-3, 3e-3, 1e-3])
assert run["units"]["floorplan"]["width"] == "m"
assert run["units"]["jobs"]["latency_s"] == "s"

# 3b. The groups added in schema 1.1, through the helper module.
ops = run["ops"]
assert list(ops.columns) == ["unit", "operator", "start_s", "end_s", "bound_by"], list(ops.columns)
assert len(ops) == 8500 and run["ops_limit"] == 8500 and run["ops_dropped"] == 500
k = np.arange(8500)
assert ops["unit"].tolist() == [["npu", "big.cpu0", "gpu"][x % 3] for x in k]
assert ops["operator"].tolist() == [["conv2d_3x3", "dwconv", "gemm_µkernel", "add"][x % 4] for x in k]
assert isinstance(ops["operator"].iloc[0], str)
np.testing.assert_array_equal(ops["start_s"].to_numpy(), 0.001 * (k // 3))
np.testing.assert_array_equal(ops["end_s"].to_numpy(), 0.001 * (k // 3) + 0.0005 + 1e-6 * (k % 5))
assert ops["bound_by"].tolist() == ["memory" if x % 2 else "compute" for x in k]
assert ops.index.name == "op" and (ops.index.to_numpy() == k).all()
assert jobs.index.name == "job"
units = run["unit_summary"]
assert units.index.tolist() == ["npu", "big.cpu0"]
assert list(units.columns) == ["compute_bound_s", "memory_bound_s", "interconnect_bound_s",
                               "dvfs_stall_s", "idle_exit_s", "idle_s", "ops"], list(units.columns)
assert units.loc["npu", "compute_bound_s"] == 1.25 and units.loc["npu", "ops"] == 4000
assert units.loc["npu", "dvfs_stall_s"] == 0.03125
assert run["domain_summary"].loc["big", "throttled_fraction"] == 0.375
assert run["domain_summary"].loc["big", "throttled_power_fraction"] == 0.125
assert run["units"]["unit_summary"]["idle_s"] == "s"

# 3c. Every group opens with xarray as is: each column over its row dimension.
GROUPS = {"jobs": "job", "events": "event", "floorplan": "block", "ops": "op",
          "unit_summary": "unit", "domain_summary": "domain"}
for group, dim in GROUPS.items():
    with xr.open_dataset(path, group=group, engine="h5netcdf") as g:
        assert list(g.dims) == [dim], (group, g.dims)
        assert all(v.dims == (dim,) for v in g.data_vars.values()), group
with xr.open_dataset(path, group="ops", engine="h5netcdf") as g:
    assert g["operator"].values[2] == "gemm_µkernel"  # fixed-length UTF-8 decoded to str
    assert g["start_s"].attrs["units"] == "s"
with xr.open_dataset(path, group="floorplan", engine="h5netcdf") as g:
    assert g["width"].sel(block="gpu").item() == 3e-3
with xr.open_dataset(path, group="unit_summary", engine="h5netcdf") as g:
    assert g["memory_bound_s"].sel(unit="big.cpu0").item() == 2.75

# 4. `ptsim report --format json` numbers parse back to exactly the stored values.
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
assert list(report)[-1] == "units"
for name, (value, units) in SUMMARY.items():
    assert report[name] == value, (name, report[name])
    assert report["units"][name] == units

print("test_xarray: ok")
