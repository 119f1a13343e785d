"""Read ptsim result files (HDF5) into xarray and pandas objects.

Uses only Debian's python3-h5py, python3-xarray, python3-h5netcdf, python3-pandas and numpy:

    import ptsim_results
    run = ptsim_results.open_run("results/phone-camera.h5")
    run["timeseries"]["temperature"].sel(block="npu").plot()
    run["jobs"]["latency_s"].quantile(0.99)
    runs = ptsim_results.open_sweep(["sweep-out/"])        # one row per run
    configs = ptsim_results.by_configuration(runs)           # replicates: mean, ci95

The layout is described in DESIGN.md, "HDF5 result file (contract)". A file that HDF5 cannot
read back as written (a checksum mismatch in a file of schema 1.3 or later, or damaged
structure) raises CorruptResult (a ValueError) naming the file; a damaged group member is
never read as absent.
"""
import contextlib
import math
import os

import h5py
import numpy as np
import pandas as pd
import xarray as xr
import yaml

SCHEMA_MAJOR = 1
_TABLES = ("jobs", "events", "floorplan", "ops", "unit_summary", "domain_summary", "tasks", "task_residency",
           "task_runs")
_OPS_COLUMNS = ("unit", "operator", "start_s", "end_s", "bound_by")
# Tables whose label columns are stored when the run ends (after the numbers that stream):
# shown in their documented order.
_COLUMN_ORDER = {
    "ops": _OPS_COLUMNS,
    "jobs": ("id", "stream", "unit", "arrival_s", "start_s", "finish_s", "latency_s", "energy_J",
             "first_token_s", "tokens_in", "tokens_out", "state"),
    "events": ("time_s", "kind", "source", "message", "value"),
}

# unit_summary's columns that add up to a unit's busy time.
BUSY_COLUMNS = ("compute_bound_s", "memory_bound_s", "interconnect_bound_s", "dvfs_stall_s",
                "idle_exit_s")


def direction(metric, better=None):
    """'max' or 'min' for a metric; 'max:M' / 'min:M' name it explicitly. Otherwise the
    result files say which way is better (their `better` attributes, gathered by open_run,
    open_sweep and by_configuration as attrs['better']: metric -> 'higher' or 'lower'); a
    per-unit form ("busy_s[npu]") follows its column. ValueError if not known."""
    if metric.startswith(("max:", "min:")):
        return metric[:3]
    better = better or {}
    way = better.get(metric) or better.get(metric.split("[", 1)[0])
    if way in ("higher", "lower"):
        return "max" if way == "higher" else "min"
    raise ValueError(f"no known direction for '{metric}' (result files of schema 1.4 on say it "
                     f"for the metrics that have one): write max:{metric} or min:{metric}")


def metric_name(metric):
    """The metric without a max:/min: prefix."""
    return metric[4:] if metric.startswith(("max:", "min:")) else metric


def _plain(value):
    """An attribute as a plain Python value (str, int, float or list)."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, np.ndarray):
        return value.tolist() if value.size != 1 else _plain(value.reshape(()).item())
    if isinstance(value, np.generic):
        return value.item()
    return value


_BARE_DIMENSION = "This is a netCDF dimension but not a netCDF variable"


def _is_scale(ds):
    return _plain(ds.attrs.get("CLASS", b"")) == "DIMENSION_SCALE"


def _is_bare_dimension(ds):
    """A row dimension without values (netCDF-4's marker for a dimension that is not a variable)."""
    return str(_plain(ds.attrs.get("NAME", b""))).startswith(_BARE_DIMENSION)


def _members(group):
    """(name, object) of a group's links. h5py's items() gives None for an object it cannot
    open and `name in group` says False on an error: either would read damage as absence."""
    out = []
    for name in list(group.keys()):
        out.append((name, group[name]))  # raises KeyError naming HDF5's reason
    return out


def _has(group, name):
    return name in set(group.keys())


def _column(ds):
    if h5py.check_string_dtype(ds.dtype) is not None:
        return ds.asstr()[()].astype(object)
    return ds[()]


def _frame(group):
    """One DataFrame from a group of equally long 1-D datasets, columns in stored order,
    indexed by the group's row dimension (its dimension scale)."""
    columns, index = {}, None
    for name, ds in _members(group):
        if _is_scale(ds) and _is_bare_dimension(ds):
            index = pd.RangeIndex(ds.shape[0], name=name)
        elif _is_scale(ds):
            index = pd.Index(_column(ds), name=name)
        else:
            columns[name] = _column(ds)
    frame = pd.DataFrame(columns)
    if index is not None and len(index) == len(frame):
        frame.index = index
    return frame


def _units(group):
    return {name: _plain(ds.attrs["units"]) for name, ds in _members(group)
            if "units" in ds.attrs and not _is_scale(ds)}


def _better(group):
    """Which way each dataset of a group is better, where the file says ('higher'/'lower')."""
    return {name: _plain(ds.attrs["better"]) for name, ds in _members(group) if "better" in ds.attrs}


def _column_better(f):
    """The per-unit and per-domain columns' directions, by column name (busy_s included)."""
    out = {}
    for table in ("unit_summary", "domain_summary"):
        if _has(f, table):
            out.update(_better(f[table]))
    return out


class CorruptResult(ValueError):
    """A result file that HDF5 cannot read back as written: a checksum that does not match
    (files of schema 1.3 on checksum every dataset and all metadata), or damaged structure."""


@contextlib.contextmanager
def _reading(path):
    """Turns what h5py, h5netcdf and xarray raise on a damaged file into CorruptResult
    naming the file."""
    try:
        yield
    except CorruptResult:
        raise
    except (OSError, KeyError, RuntimeError, TypeError, IndexError, ValueError, AttributeError) as e:
        if str(e).startswith(str(path)):
            raise
        raise CorruptResult(f"{path}: cannot read the result file ({type(e).__name__}: {e})") from e


def _check_schema(path, attrs):
    if "schema_version_major" not in attrs:
        raise ValueError(f"{path}: not a ptsim result file (no schema_version_major)")
    if attrs["schema_version_major"] != SCHEMA_MAJOR:
        raise ValueError(f"{path}: result schema version {attrs.get('schema_version')} "
                         f"is not supported (this module reads {SCHEMA_MAJOR}.x)")


def open_run(path):
    """Everything in one result file, loaded into memory (the file is closed on return).

    Returns a dict: 'timeseries' (xarray.Dataset with dims time, block, component, domain),
    'summary' (metric -> float), 'summary_units' (metric -> unit), 'better' (metric or
    per-unit column -> 'higher' / 'lower', as the file says), 'throughput_units',
    'jobs', 'events', 'floorplan', 'ops', 'unit_summary', 'domain_summary', 'tasks',
    'task_residency', 'task_runs' (pandas.DataFrame; ops and the summaries empty for files
    older than schema 1.1, the task tables for runs without CPU-scheduler tasks),
    'job_energy' (pandas.DataFrame: a row per finished job, indexed by its id, a column per
    component, in J; a row sums to the job's energy_J; empty before schema 1.7),
    'ops_limit', 'ops_dropped', 'units' (table -> column -> unit), 'attrs' (root
    attributes: ptsim_version, schema_version, scenario, seed, ...), 'scenario' (the
    resolved scenario as {dotted path: value text}) and 'id' (the file name without .h5).
    """
    with _reading(path):
        return _open_run(path)


def _job_energy(f):
    """job_energy/energy_J (job, component) as a DataFrame indexed by job id."""
    if not _has(f, "job_energy"):
        return pd.DataFrame()
    g = f["job_energy"]
    return pd.DataFrame(g["energy_J"][()], index=pd.Index(_column(g["job"]), name="job"),
                        columns=pd.Index(_column(g["component"]), name="component"))


def _open_run(path):
    with h5py.File(path, "r") as f:
        attrs = {k: _plain(v) for k, v in f.attrs.items()}
        _check_schema(path, attrs)
        summary = {name: float(ds[()]) for name, ds in _members(f["summary"])}
        summary_units = _units(f["summary"])
        better = {**_column_better(f), **_better(f["summary"])}
        throughput_units = _plain(f["summary"].attrs.get("throughput_units", ""))
        tables = {name: _frame(f[name]) if _has(f, name) else pd.DataFrame() for name in _TABLES}
        # Numbers are stored as the run goes, labels at its end: show the documented order.
        for name, order in _COLUMN_ORDER.items():
            if set(tables[name].columns) <= set(order):  # older files lack later columns
                tables[name] = tables[name][[c for c in order if c in tables[name].columns]]
        units = {name: _units(f[name]) for name in _TABLES if _has(f, name)}
        job_energy = _job_energy(f)
        ops_attrs = f["ops"].attrs if _has(f, "ops") else {}
        ops_limit = int(ops_attrs.get("limit", 0))
        ops_dropped = int(ops_attrs.get("dropped", 0))
    with xr.open_dataset(path, group="timeseries", engine="h5netcdf") as ds:
        timeseries = ds.load()
    return {
        "id": os.path.splitext(os.path.basename(path))[0],
        "path": path,
        "timeseries": timeseries,
        "summary": summary,
        "summary_units": summary_units,
        "better": better,
        "throughput_units": throughput_units,
        **tables,
        "job_energy": job_energy,
        "ops_limit": ops_limit,
        "ops_dropped": ops_dropped,
        "units": units,
        "attrs": attrs,
        "scenario": dict(flatten_yaml(attrs.get("scenario", ""))),
    }


# --- sweeps and sets of runs ------------------------------------------------------------

def find_runs(inputs):
    """Result files named by inputs, in order: a file as given; a folder contributes
    FOLDER/runs/*.h5 for a sweep folder (it has runs/), else FOLDER/*.h5, sorted; .part
    files (runs being written) are skipped. The same rule as `ptsim report`."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    out = []
    for item in inputs:
        item = os.fspath(item)
        if os.path.isdir(item):
            sweep = os.path.isdir(os.path.join(item, "runs"))
            folder = os.path.join(item, "runs") if sweep else item
            found = sorted(os.path.join(folder, n) for n in os.listdir(folder)
                           if n.endswith(".h5") and os.path.isfile(os.path.join(folder, n)))
            if not found:
                raise ValueError(f"{item}: expected result files "
                                 f"({'runs/*.h5' if sweep else '*.h5'}), found none")
            out.extend(found)
        elif os.path.exists(item):
            out.append(item)
        else:
            raise ValueError(f"{item}: no such file or folder")
    return out


def _read_summary(path):
    with _reading(path):
        return _read_summary_of(path)


def _read_summary_of(path):
    with h5py.File(path, "r") as f:
        attrs = {k: _plain(v) for k, v in f.attrs.items()}
        _check_schema(path, attrs)
        summary = {name: float(ds[()]) for name, ds in _members(f["summary"])}
        units = _units(f["summary"])
        better = {**_column_better(f), **_better(f["summary"])}
        per = {}
        if _has(f, "domain_summary"):
            d = _frame(f["domain_summary"])
            column_units = _units(f["domain_summary"])
            for col in d.columns:
                for label, value in d[col].items():
                    per[f"{col}[{label}]"] = float(value)
                    units[f"{col}[{label}]"] = column_units.get(col, "")
        if _has(f, "unit_summary"):
            u = _frame(f["unit_summary"])
            column_units = _units(f["unit_summary"])
            for label, row in u.iterrows():
                per[f"busy_s[{label}]"] = float(sum(row[c] for c in BUSY_COLUMNS))
                units[f"busy_s[{label}]"] = column_units.get(BUSY_COLUMNS[0], "s")
                for col in (*BUSY_COLUMNS, "idle_s"):
                    per[f"{col}[{label}]"] = float(row[col])
                    units[f"{col}[{label}]"] = column_units.get(col, "")
    return attrs, summary, units, better, per


def swept_parameters(scenarios):
    """Scenario paths whose values differ between runs (seed left out), in document order."""
    if len(scenarios) < 2:
        return []
    paths = []
    for s in scenarios:
        for k in s:
            if k not in paths:
                paths.append(k)
    return [p for p in paths if p != "seed"
            and len({s.get(p, "(unset)") for s in scenarios}) > 1]


# More differing paths than this: different scenarios rather than a sweep.
_MAX_LABEL_PARAMS = 6


def short_names(paths):
    """The shortest dotted suffix of each path that no other path shares."""
    out = {}
    for p in paths:
        parts = p.split(".")
        out[p] = p
        for n in range(1, len(parts) + 1):
            suffix = ".".join(parts[-n:])
            if not any(q != p and (q == suffix or q.endswith("." + suffix)) for q in paths):
                out[p] = suffix
                break
    return out


def open_sweep(inputs):
    """One row per run of a sweep folder or of a set of result files.

    Columns: run_id (index), path, seed, the swept scenario parameters (by dotted path, as
    text), the summary metrics, and the per-domain / per-unit values named as
    `ptsim report` names them ("throttled_fraction[big]", "busy_s[npu]").
    DataFrame.attrs: 'params' (swept paths), 'units' (metric -> unit, where every run
    agrees; a metric whose runs disagree, as throughput in tokens/s beside inferences/s, is
    absent there), 'run_units' (such a metric -> {run_id: unit}), 'better' (metric ->
    'higher' / 'lower', from the files), 'config' (run_id -> configuration key, equal for
    runs that differ only by seed).
    """
    paths = find_runs(inputs)
    rows, scenarios, per_run_units, better = [], [], {}, {}
    for p in paths:
        attrs, summary, u, b, per = _read_summary(p)
        run_id = os.path.splitext(os.path.basename(p))[0]
        for metric, unit in u.items():
            per_run_units.setdefault(metric, {})[run_id] = unit
        better.update(b)
        scenario = dict(flatten_yaml(attrs.get("scenario", "")))
        scenarios.append(scenario)
        rows.append({"run_id": run_id, "path": p,
                     "seed": int(attrs.get("seed", 0)), **summary, **per})
    params = swept_parameters(scenarios)
    if len(params) > _MAX_LABEL_PARAMS:
        params = []
    for row, s in zip(rows, scenarios):
        for p in params:
            row[p] = s.get(p, "(unset)")
    frame = pd.DataFrame(rows).set_index("run_id")
    front = ["path", "seed", *params]
    frame = frame[front + [c for c in frame.columns if c not in front]]
    frame.attrs["params"] = params
    frame.attrs["units"] = {m: next(iter(set(by_run.values()))) for m, by_run in per_run_units.items()
                            if len(set(by_run.values())) == 1}
    frame.attrs["run_units"] = {m: by_run for m, by_run in per_run_units.items() if len(set(by_run.values())) > 1}
    frame.attrs["better"] = better
    frame.attrs["config"] = {
        r["run_id"]: "\x1e".join(f"{k}\x1f{v}" for k, v in s.items() if k != "seed")
        for r, s in zip(rows, scenarios)}
    return frame


def student_t_975(df):
    """t with P(|T| < t) = 0.95 for Student's t with df degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")

    def two_sided(t):  # Abramowitz & Stegun 26.7.3-4: finite series for integer df
        theta = math.atan(t / math.sqrt(df))
        s, c2 = math.sin(theta), math.cos(theta) ** 2
        if df % 2 == 0:
            term = total = 1.0
            for k in range(2, df - 1, 2):
                term *= (k - 1) / k * c2
                total += term
            return s * total
        if df == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * c2
            total += term
        return 2 / math.pi * (theta + s * total)

    lo, hi = 0.0, 1e3
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if two_sided(mid) < 0.95:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-14 * hi:
            break
    return 0.5 * (lo + hi)


def mean_ci95(values):
    """(mean, 95% CI half-width, n) of the finite values; half-width NaN for n < 2."""
    v = np.asarray([x for x in values if np.isfinite(x)], dtype=float)
    if len(v) == 0:
        return math.nan, math.nan, 0
    if len(v) < 2:
        return float(v.mean()), math.nan, 1
    half = student_t_975(len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
    return float(v.mean()), float(half), len(v)


def by_configuration(runs):
    """Runs of open_sweep grouped by configuration (runs that differ only by seed): one row
    per configuration in the order of its first run, with each metric's mean, a
    '<metric>_ci95' column (95% CI half-width, Student t; NaN for a single run), 'n', 'runs'
    (run ids), the swept parameters and 'label' (short "name=value, ..." or the run id)."""
    params = runs.attrs.get("params", [])
    names = short_names(params)
    config = runs.attrs["config"]
    metrics = [c for c in runs.columns
               if c not in ("path", "seed", *params) and pd.api.types.is_numeric_dtype(runs[c])]
    order, groups = [], {}
    for run_id in runs.index:
        key = config[run_id]
        if key not in groups:
            order.append(key)
            groups[key] = []
        groups[key].append(run_id)
    rows = []
    for key in order:
        ids = groups[key]
        part = runs.loc[ids]
        row = {p: part[p].iloc[0] for p in params}
        if params:
            row["label"] = ", ".join(f"{names[p]}={row[p]}" for p in params)
        else:
            row["label"] = ids[0] if len(ids) == 1 else f"{ids[0]} ({len(ids)} seeds)"
        row["n"] = len(ids)
        row["runs"] = ids
        for m in metrics:
            mean, half, _ = mean_ci95(part[m].to_numpy(dtype=float))
            row[m] = mean
            row[m + "_ci95"] = half
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs["params"] = params
    out.attrs["units"] = runs.attrs.get("units", {})
    out.attrs["run_units"] = runs.attrs.get("run_units", {})
    out.attrs["better"] = runs.attrs.get("better", {})
    return out


# --- the resolved scenario as dotted paths ----------------------------------------------

# Bounds on flattening a stored scenario (as run_set.hpp's limits for `ptsim report`): an
# alias may stand for a large subtree, so a small text can expand without bound.
_SCENARIO_NODES = 1_000_000
_SCENARIO_DEPTH = 64
_YAML_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def flatten_yaml(text):
    """A YAML document (the resolved scenario ptsim stores) as [(dotted path, scalar text)]:
    maps by key, sequences by index, the same paths as `ptsim run --set`. Any YAML: anchors
    and aliases are followed (files of ptsim before 1.5 stored templates' shared values as
    aliases), scalars are kept as written (no type guessing), a plain null is "null"."""
    if not text:
        return []
    root = yaml.compose(text, Loader=_YAML_LOADER)
    out = []
    budget = [_SCENARIO_NODES]

    def walk(n, path, depth):
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError(f"the stored scenario expands to more than {_SCENARIO_NODES} nodes "
                             "(aliases followed)")
        if depth > _SCENARIO_DEPTH:
            raise ValueError(f"the stored scenario nests deeper than {_SCENARIO_DEPTH} levels")
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                if not isinstance(k, yaml.ScalarNode):
                    raise ValueError("the stored scenario has a key that is not a scalar")
                walk(v, f"{path}.{k.value}" if path else k.value, depth + 1)
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                walk(v, f"{path}.{i}" if path else str(i), depth + 1)
        elif n.style in (None, "") and n.value in ("", "~", "null", "Null", "NULL"):  # plain
            out.append((path, "null"))
        else:
            out.append((path, n.value))

    if root is not None:
        walk(root, "", 0)
    return out
