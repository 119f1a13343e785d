"""End to end: a real `ptsim run`, opened the way users open it (xarray + h5netcdf, h5py)."""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import xarray as xr

ptsim = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "run.h5")
    subprocess.run([ptsim, "run", "-q", "-o", out], check=True, cwd=d, stdout=subprocess.DEVNULL)

    ds = xr.open_dataset(out, group="timeseries", engine="h5netcdf")
    expect = {"temperature": ("block", "degC"), "power": ("component", "W"),
              "frequency": ("domain", "Hz"), "voltage": ("domain", "V"), "utilization": ("domain", "1")}
    for name, (dim, units) in expect.items():
        v = ds[name]
        assert v.dims == ("time", dim), (name, v.dims)
        assert v.attrs["units"] == units, (name, v.attrs)
        assert np.isfinite(v.values).all(), name
    assert ds["time"].attrs["units"] == "s"
    assert ds["time"].dtype == np.float64  # seconds, not timedeltas
    assert list(ds["domain"].values) == ["little", "mid", "big", "npu"]
    assert isinstance(ds["block"].values[0], str)
    # Physics sanity: temperatures start near ambient (25 degC) and never fall below it.
    assert (ds["temperature"] >= 25.0 - 1e-9).all()
    assert float(ds["utilization"].max()) <= 1.0 + 1e-12
    # Selection by label works as users expect.
    assert ds["frequency"].sel(domain="npu").size == ds.sizes["time"]

    with h5py.File(out) as f:
        for m in ["energy_J", "avg_power_W", "peak_power_W", "throughput", "perf_per_watt",
                  "latency_p50_s", "latency_p99_s", "peak_temperature_C", "throttled_fraction"]:
            assert m in f["summary"], m
            assert "units" in f["summary"][m].attrs, m
        for a in ["ptsim_version", "schema_version", "scenario", "seed"]:
            assert a in f.attrs, a
print("xarray e2e ok")
