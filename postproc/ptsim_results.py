"""Read a ptsim result file (HDF5) into xarray and pandas objects.

Uses only Debian's python3-h5py, python3-xarray, python3-h5netcdf and python3-pandas:

    import ptsim_results
    run = ptsim_results.open_run("results/phone-camera.h5")
    run["timeseries"]["temperature"].sel(block="gpu").plot()
    run["jobs"]["latency_s"].quantile(0.99)

The layout is described in DESIGN.md, "HDF5 result file (contract)".
"""
import h5py
import numpy as np
import pandas as pd
import xarray as xr

SCHEMA_MAJOR = 1
_TABLES = ("jobs", "events", "floorplan")


def _plain(value):
    """An attribute as a plain Python value (str, int, float or list)."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, np.ndarray):
        return value.tolist() if value.size != 1 else _plain(value.reshape(()).item())
    if isinstance(value, np.generic):
        return value.item()
    return value


def _frame(group):
    """One DataFrame from a group of equally long 1-D datasets, columns in stored order."""
    columns = {}
    for name, ds in group.items():
        if h5py.check_string_dtype(ds.dtype) is not None:
            columns[name] = ds.asstr()[()].astype(object)
        else:
            columns[name] = ds[()]
    return pd.DataFrame(columns)


def _units(group):
    return {name: _plain(ds.attrs["units"]) for name, ds in group.items() if "units" in ds.attrs}


def open_run(path):
    """Everything in one result file, loaded into memory (the file is closed on return).

    Returns a dict: 'timeseries' (xarray.Dataset with dims time, block, component, domain),
    'summary' (metric -> float), 'summary_units' (metric -> unit), 'throughput_units',
    'jobs', 'events', 'floorplan' (pandas.DataFrame), 'units' (table -> column -> unit),
    'attrs' (root attributes: ptsim_version, schema_version, scenario, seed, ...).
    """
    with h5py.File(path, "r") as f:
        attrs = {k: _plain(v) for k, v in f.attrs.items()}
        if "schema_version_major" not in attrs:
            raise ValueError(f"{path}: not a ptsim result file (no schema_version_major)")
        if attrs["schema_version_major"] != SCHEMA_MAJOR:
            raise ValueError(f"{path}: result schema version {attrs.get('schema_version')} "
                             f"is not supported (this module reads {SCHEMA_MAJOR}.x)")
        summary = {name: float(ds[()]) for name, ds in f["summary"].items()}
        summary_units = _units(f["summary"])
        throughput_units = _plain(f["summary"].attrs.get("throughput_units", ""))
        tables = {name: _frame(f[name]) for name in _TABLES if name in f}
        units = {name: _units(f[name]) for name in _TABLES if name in f}
    with xr.open_dataset(path, group="timeseries", engine="h5netcdf") as ds:
        timeseries = ds.load()
    return {
        "timeseries": timeseries,
        "summary": summary,
        "summary_units": summary_units,
        "throughput_units": throughput_units,
        **tables,
        "units": units,
        "attrs": attrs,
    }
