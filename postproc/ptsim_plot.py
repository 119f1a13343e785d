"""Plots of ptsim results: timeline, heatmap, pareto, compare, energy (used by `ptsim-plot`).

Each function draws one figure, saves it to `out` (PNG, SVG or PDF by the extension) and
returns the data it drew, so that a caller (or a test) can compare it with the file.
Only Debian's h5py, numpy, pandas, matplotlib and xarray are used; the Agg backend draws
without a display.
"""
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import colors as mcolors  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

import ptsim_output  # noqa: E402
import ptsim_results  # noqa: E402
import ptsim_timeline as tl  # noqa: E402

FORMATS = (".png", ".svg", ".pdf")
THROTTLE_COLOR = "tab:red"

# Metrics that compare shows when none are named, in this order, where the runs have them.
COMPARE_METRICS = ("perf_per_watt", "throughput", "energy_J", "avg_power_W", "latency_p99_s",
                   "peak_temperature_C", "throttled_fraction")


class PlotError(ValueError):
    """A bad request (unknown metric, wrong extension, time outside the run)."""


def _is_stream(out):
    """Standard output by name, a FIFO or a character device: written through (PNG unless
    the name ends in .svg or .pdf)."""
    if ptsim_output._named_descriptor(out) is not None:
        return True
    try:
        import stat
        mode = os.stat(out).st_mode
        return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)
    except OSError:
        return False


def _format(out):
    ext = os.path.splitext(out)[1].lower()
    return ext.lstrip(".") if ext in FORMATS else "png"


def _check_output(out):
    ext = os.path.splitext(out)[1].lower()
    if ext not in FORMATS and not _is_stream(out):
        raise PlotError(f"{out}: expected an output file ending in .png, .svg or .pdf, "
                        f"found '{ext or 'no extension'}'")


def _save(fig, out, force=False):
    """Saves through ptsim's output rule (ptsim_output): an existing regular file only with
    force, never renamed over a device, FIFO or directory (a FIFO or /dev/stdout is written
    through), written as out.part and renamed."""
    fmt = _format(out)
    try:
        with ptsim_output.Output(out, force=force, stream_ok=True) as o:
            with o.open() as f:
                fig.savefig(f, dpi=120, format=fmt)
    finally:
        plt.close(fig)


def _legend_outside(ax, **kw):
    """A legend right of the axes, so that it never covers data."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        # Past a panel's height of entries, more columns in smaller type: a tall legend would
        # squeeze the axes to nothing.
        per_column = 12
        ncol = max(1, math.ceil(len(handles) / per_column))
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncol=ncol,
                  borderaxespad=0.0, fontsize="small" if ncol == 1 else "x-small", **kw)


def _title(run, what):
    name = run["attrs"].get("scenario_name") or run["id"]
    return f"{name} ({run['id']}, seed {run['attrs'].get('seed')}): {what}"


def throttled_spans(time, throttled, period):
    """Merged [start, end) intervals of the record periods in which any domain was
    throttled; sample k covers (time[k] - period, time[k]]."""
    if throttled is None or len(time) == 0:
        return []
    any_throttled = np.asarray(throttled).reshape(len(time), -1).max(axis=1) > 0
    spans = []
    for t, on in zip(time, any_throttled):
        if not on:
            continue
        start = t - period
        if spans and abs(spans[-1][1] - start) <= 1e-9 * max(1.0, abs(start)):
            spans[-1][1] = t
        else:
            spans.append([start, t])
    return [tuple(s) for s in spans]


def timeline(path, out, force=False, group="auto", top=None, t_from=None, t_to=None, max_points=None):
    """Frequency, power, temperature and utilisation per domain/component/block over time,
    with throttled periods shaded. group: auto | none | module | kind (ptsim_timeline);
    top: keep the N largest groups per panel, the rest as 'other'; t_from/t_to: a window in
    seconds; max_points: samples per series beyond which the mean and the min-max band per
    pixel column are drawn (default: the axes' width in pixels)."""
    _check_output(out)
    if group not in tl.GROUPINGS:
        raise PlotError(f"--group: expected one of {', '.join(tl.GROUPINGS)}, found '{group}'")
    if top is not None and top < 1:
        raise PlotError(f"--top: expected a count >= 1, found {top}")
    run = ptsim_results.open_run(path)
    ds = run["timeseries"]
    all_time = ds["time"].values
    period = float(np.median(np.diff(all_time))) if len(all_time) > 1 else (all_time[0] if len(all_time) else 0.0)
    try:
        idx = tl.select_window(all_time, t_from, t_to)
    except tl.TimelineError as e:
        raise PlotError(str(e))
    time = all_time[idx]
    domains = [str(d) for d in ds["domain"].values]
    components = [str(c) for c in ds["component"].values]
    blocks = [str(b) for b in ds["block"].values]
    raw = {
        "frequency_MHz": {d: ds["frequency"].sel(domain=d).values[idx] / 1e6 for d in domains},
        "power_W": {c: ds["power"].sel(component=c).values[idx] for c in components},
        "temperature_C": {b: ds["temperature"].sel(block=b).values[idx] for b in blocks},
        "utilization_pct": {d: 100.0 * ds["utilization"].sel(domain=d).values[idx] for d in domains},
    }
    grouping = tl.choose_grouping(group, list(raw.values()), domains + components + blocks)
    if group == "auto" and grouping != "none" and top is None:
        top = tl.AUTO_TOP
    kinds = tl.kinds_of(run["scenario"])
    modules = tl.module_keys(components + blocks + domains)
    key_of = {"none": lambda n: n, "module": modules.get, "kind": lambda n: tl.kind_of(n, kinds)}[grouping]
    drawn = {"time": time, "grouping": grouping, "top": top, "members": {}}
    for quantity, series in raw.items():
        drawn[quantity], drawn["members"][quantity] = tl.group_series(series, quantity, key_of, top)
    drawn["total_power_W"] = ds["power"].values[idx].sum(axis=1)
    throttled = ds["throttled"].values[idx] if "throttled" in ds else None
    drawn["throttled_spans"] = throttled_spans(time, throttled, period)
    palette = list(plt.get_cmap("tab20").colors)
    drawn["colors"] = tl.assign_colors([k for q in raw for k in drawn[q]], palette)

    fig, axes = plt.subplots(4, 1, figsize=(12, 11), sharex=True, constrained_layout=True)
    if max_points is None:
        max_points = max(200, int(axes[0].get_window_extent().width))
    drawn["envelope"] = len(time) > max_points
    panels = [
        (axes[0], "frequency_MHz", "frequency (MHz)", "steps-pre"),
        (axes[1], "power_W", "power (W)", "steps-pre"),
        (axes[2], "temperature_C", "temperature (°C)", "default"),
        (axes[3], "utilization_pct", "utilisation (%)", "steps-pre"),
    ]
    # Sample k holds the period (time[k] - period, time[k]]: a step drawn back to its start.
    t_steps = np.concatenate([[time[0] - period], time]) if len(time) else time

    def stepped(values):
        return np.concatenate([[values[0]], values]) if len(values) else values

    for ax, quantity, ylabel, style in panels:
        how = tl._AGGREGATE[quantity]
        stacked = quantity == "power_W"  # the groups stacked: the top edge is the platform total
        base = np.zeros(len(time))
        for key, values in drawn[quantity].items():
            label = tl._label(key, drawn["members"][quantity][key], how)
            color = drawn["colors"][key]
            if drawn["envelope"]:
                t, mean, lo, hi = tl.envelope(time, values, max_points)
                if stacked:
                    _, below, _, _ = tl.envelope(time, base, max_points)
                    ax.fill_between(t, below, below + mean, color=color, alpha=0.8, linewidth=0, step="pre", label=label)
                else:
                    ax.fill_between(t, lo, hi, color=color, alpha=0.25, linewidth=0,
                                    step="pre" if style == "steps-pre" else None)
                    ax.plot(t, mean, label=label, color=color, drawstyle=style, linewidth=1.1)
            elif stacked:
                ax.fill_between(t_steps, stepped(base), stepped(base + values), color=color, alpha=0.8,
                                linewidth=0, step="pre", label=label)
            elif style == "steps-pre":
                ax.plot(t_steps, stepped(values), label=label, color=color, drawstyle=style, linewidth=1.1)
            else:
                ax.plot(time, values, label=label, color=color, drawstyle=style, linewidth=1.1)
            base = base + values if stacked else base
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
    if drawn["envelope"]:
        t, mean, lo, hi = tl.envelope(time, drawn["total_power_W"], max_points)
        axes[1].fill_between(t, lo, hi, color="black", alpha=0.15, linewidth=0, step="pre")
        axes[1].plot(t, mean, label="platform total", color="black", linestyle="--", linewidth=1.2, drawstyle="steps-pre")
    else:
        axes[1].plot(t_steps, stepped(drawn["total_power_W"]), label="platform total", color="black",
                     linestyle="--", linewidth=1.2, drawstyle="steps-pre")
    axes[3].set_ylim(-2, 102)
    for ax in axes:
        for i, (a, b) in enumerate(drawn["throttled_spans"]):
            ax.axvspan(a, b, color=THROTTLE_COLOR, alpha=0.15, linewidth=0,
                       label="throttled" if i == 0 else None)
        _legend_outside(ax)
    axes[-1].set_xlabel("time (s)")
    if len(time):
        axes[-1].set_xlim(max(0.0, time[0] - period), time[-1])
    what = "timeline" if grouping == "none" else f"timeline, per {grouping}"
    fig.suptitle(_title(run, what))
    _save(fig, out, force)
    return drawn


def _parse_time(text, option="--at"):
    """Seconds from '2.5', '2.5 s', '300 ms' or '50 us'."""
    t = str(text).strip()
    for suffix, scale in (("ms", 1e-3), ("us", 1e-6), ("s", 1.0)):
        if t.endswith(suffix):
            try:
                return float(t[: -len(suffix)].strip()) * scale
            except ValueError:
                break
    try:
        return float(t)
    except ValueError:
        raise PlotError(f"{option}: expected a time ('2.5 s', '300 ms')" + (" or 'peak'" if option == "--at" else "")
                        + f", found '{text}'")


def heatmap(path, out, at="peak", force=False):
    """The floorplan to scale, each block coloured by its temperature at one sample: the
    hottest moment of the run (at='peak') or the sample nearest to a time in seconds."""
    _check_output(out)
    run = ptsim_results.open_run(path)
    ds = run["timeseries"]
    time = ds["time"].values
    if len(time) == 0:
        raise PlotError(f"{path}: the run has no timeseries samples")
    temps = ds["temperature"].values
    if isinstance(at, str) and at.strip() == "peak":
        k = int(np.unravel_index(np.nanargmax(temps), temps.shape)[0])
        when = "peak"
    else:
        t = at if isinstance(at, (int, float)) else _parse_time(at)
        if t < 0 or t > time[-1] + 1e-12:
            raise PlotError(f"--at {at}: expected a time within the run (0 to {time[-1]:g} s)")
        k = int(np.argmin(np.abs(time - t)))
        when = f"nearest to {t:g} s"
    blocks = [str(b) for b in ds["block"].values]
    sample = {b: float(temps[k, j]) for j, b in enumerate(blocks)}
    fp = run["floorplan"]
    names = fp["name"].tolist()
    rects = {n: (float(x), float(y), float(w), float(h))
             for n, x, y, w, h in zip(names, fp["x"], fp["y"], fp["width"], fp["height"])}
    shown = [sample[n] for n in names if n in sample]
    vmin, vmax = (min(shown), max(shown)) if shown else (0.0, 1.0)
    if vmax - vmin < 0.5:  # a uniform die still gets a readable scale
        vmin, vmax = vmin - 0.25, vmax + 0.25
    norm = mcolors.Normalize(vmin=vmin, vmax=vmax)
    cmap = plt.get_cmap("inferno")

    fig, ax = plt.subplots(figsize=(8, 6.5), constrained_layout=True)
    colors = {}
    for n in names:
        x, y, w, h = (v * 1e3 for v in rects[n])
        if n in sample:
            rgba = cmap(norm(sample[n]))
            colors[n] = rgba
            ax.add_patch(Rectangle((x, y), w, h, facecolor=rgba, edgecolor="white", linewidth=1.5))
            text = "black" if norm(sample[n]) > 0.6 else "white"
            ax.text(x + w / 2, y + h / 2, f"{n}\n{sample[n]:.1f} °C", ha="center", va="center",
                    fontsize="small", color=text)
        else:  # a block without a temperature (e.g. not in the thermal model)
            ax.add_patch(Rectangle((x, y), w, h, facecolor="lightgrey", edgecolor="grey", hatch="//"))
            ax.text(x + w / 2, y + h / 2, f"{n}\n(no data)", ha="center", va="center", fontsize="small")
    xs = [r[0] + r[2] for r in rects.values()] or [1e-3]
    ys = [r[1] + r[3] for r in rects.values()] or [1e-3]
    x0 = min([r[0] for r in rects.values()] or [0.0])
    y0 = min([r[1] for r in rects.values()] or [0.0])
    ax.set_xlim(x0 * 1e3, max(xs) * 1e3)
    ax.set_ylim(y0 * 1e3, max(ys) * 1e3)
    ax.set_aspect("equal")
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    bar = fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), ax=ax, shrink=0.85)
    bar.set_label("temperature (°C)")
    ax.set_title(_title(run, f"temperatures at t = {time[k]:g} s ({when})"), fontsize="medium")
    _save(fig, out, force)
    return {"time": float(time[k]), "index": k, "temperature": sample, "rects": rects,
            "colors": colors, "vmin": vmin, "vmax": vmax}


def _configurations(inputs):
    runs = ptsim_results.open_sweep(inputs)
    return ptsim_results.by_configuration(runs)


def _axis_label(metric, units, run_units=None):
    """'metric (unit)'; where the runs disagree on the unit, every unit they use."""
    mixed = (run_units or {}).get(metric)
    if mixed:
        return f"{metric} (mixed units: {', '.join(sorted(set(mixed.values())))})"
    u = units.get(metric, "")
    return f"{metric} ({u})" if u else metric


def _require(configs, metric):
    if metric not in configs.columns:
        known = sorted(c for c in configs.columns
                       if not c.endswith("_ci95") and c not in ("label", "n", "runs"))
        raise PlotError(f"no run has the metric '{metric}' (known: {', '.join(known)})")


def pareto_front(x, y, x_dir, y_dir):
    """Indices of the points no other point dominates (at least as good on both axes and
    better on one), in x order."""
    sx = 1.0 if x_dir == "max" else -1.0
    sy = 1.0 if y_dir == "max" else -1.0
    front = []
    for i in range(len(x)):
        if not (np.isfinite(x[i]) and np.isfinite(y[i])):
            continue
        dominated = any(
            np.isfinite(x[j]) and np.isfinite(y[j]) and sx * x[j] >= sx * x[i] and sy * y[j] >= sy * y[i]
            and (sx * x[j] > sx * x[i] or sy * y[j] > sy * y[i])
            for j in range(len(x)) if j != i)
        if not dominated:
            front.append(i)
    return sorted(front, key=lambda i: x[i])


def pareto(inputs, out, x="latency_p99_s", y="perf_per_watt", force=False):
    """One point per configuration (replicates: mean with 95% CI bars), the Pareto front of
    the two metrics highlighted, points labelled by their swept parameters."""
    _check_output(out)
    configs = _configurations(inputs)
    try:
        better = configs.attrs.get("better", {})
        x_dir, y_dir = ptsim_results.direction(x, better), ptsim_results.direction(y, better)
    except ValueError as e:
        raise PlotError(str(e))
    x, y = ptsim_results.metric_name(x), ptsim_results.metric_name(y)
    for m in (x, y):
        _require(configs, m)
    units = configs.attrs["units"]
    xs, ys = configs[x].to_numpy(float), configs[y].to_numpy(float)
    xci, yci = configs[x + "_ci95"].to_numpy(float), configs[y + "_ci95"].to_numpy(float)
    labels = configs["label"].tolist()
    front = pareto_front(xs, ys, x_dir, y_dir)
    others = [i for i in range(len(xs)) if i not in front]

    fig, ax = plt.subplots(figsize=(10, 6.5), constrained_layout=True)
    err = lambda a, idx: np.where(np.isfinite(a[idx]), a[idx], 0.0) if len(idx) else None  # noqa: E731
    if others:
        ax.errorbar(xs[others], ys[others], xerr=err(xci, others), yerr=err(yci, others), fmt="o",
                    color="tab:blue", ecolor="lightsteelblue", capsize=3, label="configuration")
    ax.errorbar(xs[front], ys[front], xerr=err(xci, front), yerr=err(yci, front), fmt="o", markersize=8,
                color="tab:red", ecolor="lightcoral", capsize=3, label="Pareto front")
    if len(front) > 1:
        ax.plot(xs[front], ys[front], color="tab:red", linewidth=1.2, alpha=0.7)
    for i, label in enumerate(labels):
        ax.annotate(label, (xs[i], ys[i]), textcoords="offset points",
                    xytext=(6, 6 if i % 2 == 0 else -12), fontsize="small")
    arrow = {"max": "higher is better", "min": "lower is better"}
    run_units = configs.attrs.get("run_units", {})
    ax.set_xlabel(f"{_axis_label(x, units, run_units)}, {arrow[x_dir]}")
    ax.set_ylabel(f"{_axis_label(y, units, run_units)}, {arrow[y_dir]}")
    ax.grid(True, alpha=0.3)
    if configs["n"].max() > 1:
        ax.plot([], [], " ", label="bars: 95% CI over seeds")
    _legend_outside(ax)
    ax.margins(0.12)
    ax.set_title(f"Pareto front: {y} vs {x} ({len(xs)} configurations)")
    _save(fig, out, force)
    return {"x": xs, "y": ys, "x_ci95": xci, "y_ci95": yci, "labels": labels, "front": front,
            "x_metric": x, "y_metric": y, "runs": configs["runs"].tolist()}


def compare(inputs, out, metrics=None, force=False):
    """Bars of the main metrics, one bar per configuration (replicates: mean, 95% CI)."""
    _check_output(out)
    configs = _configurations(inputs)
    if metrics:
        for m in metrics:
            _require(configs, m)
    else:
        metrics = [m for m in COMPARE_METRICS if m in configs.columns]
    if not metrics:
        raise PlotError("the runs have none of the metrics to compare")
    units = configs.attrs["units"]
    labels = configs["label"].tolist()
    cols = 2 if len(metrics) > 1 else 1
    rows = math.ceil(len(metrics) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 3.2 * rows + 1.2),
                             constrained_layout=True, squeeze=False)
    colors = plt.get_cmap("tab10")(np.arange(len(labels)) % 10)
    drawn = {"labels": labels, "metrics": {}, "ci95": {}, "runs": configs["runs"].tolist()}
    pos = np.arange(len(labels))
    for ax, m in zip(axes.flat, metrics):
        values = configs[m].to_numpy(float)
        ci = configs[m + "_ci95"].to_numpy(float)
        drawn["metrics"][m] = values
        drawn["ci95"][m] = ci
        bars = ax.bar(pos, np.nan_to_num(values), color=colors,
                      yerr=np.where(np.isfinite(ci), ci, 0.0), capsize=4)
        for b, v in zip(bars, values):
            if not np.isfinite(v):
                b.set_hatch("xx")
        ax.set_ylabel(_axis_label(m, units, configs.attrs.get("run_units", {})))
        try:
            better = {"max": "higher is better", "min": "lower is better"}[ptsim_results.direction(m, configs.attrs.get("better"))]
        except ValueError:
            better = ""
        ax.set_title(f"{m}" + (f" ({better})" if better else ""), fontsize="medium")
        ax.set_xticks(pos)
        ax.set_xticklabels(labels, rotation=20, ha="right", fontsize="small")
        ax.grid(True, axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(metrics):]:
        ax.set_visible(False)
    note = " (bars: mean, whiskers: 95% CI over seeds)" if configs["n"].max() > 1 else ""
    fig.suptitle(f"Comparison of {len(labels)} configurations{note}")
    _save(fig, out, force)
    return drawn


def energy(inputs, out, by="group", force=False):
    """Stacked bars of energy by component group (energy_group_J[...]) or by component
    (energy_J[...]), one bar per configuration (replicates: their mean); a bar's top is the
    configuration's energy_J (groups: wall_energy_J, supply losses included)."""
    _check_output(out)
    configs = _configurations(inputs)
    prefix = {"group": "energy_group_J[", "component": "energy_J["}[by]
    parts = [c for c in configs.columns if c.startswith(prefix) and c.endswith("]") and not c.endswith("_ci95")]
    if not parts:
        raise PlotError(f"no run has {prefix}...] metrics (files older than schema 1.5?)")
    labels = configs["label"].tolist()
    values = np.nan_to_num(np.array([configs[c].to_numpy(float) for c in parts]))  # [part][config]
    # Largest parts first, at the bottom of each bar.
    order = np.argsort(-values.sum(axis=1), kind="stable")
    fig, ax = plt.subplots(figsize=(max(6.5, 0.9 * len(labels) + 3), 4.8), constrained_layout=True)
    colors = plt.get_cmap("tab20")(np.arange(len(parts)) % 20)
    pos = np.arange(len(labels))
    base = np.zeros(len(labels))
    drawn = {"labels": labels, "parts": [], "values": {}}
    for k in order:
        name = parts[k][len(prefix):-1]
        ax.bar(pos, values[k], bottom=base, color=colors[k], label=name)
        base = base + values[k]
        drawn["parts"].append(name)
        drawn["values"][name] = values[k]
    drawn["total"] = base
    ax.set_xticks(pos)
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize="small")
    ax.set_ylabel("energy (J)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize="small", ncol=max(1, math.ceil(len(parts) / 12)), loc="upper left", bbox_to_anchor=(1.01, 1.0))
    note = " (mean over seeds)" if configs["n"].max() > 1 else ""
    fig.suptitle(f"Energy by {by}, {len(labels)} configurations{note}")
    _save(fig, out, force)
    return drawn


def main(argv=None):
    import argparse
    import sys

    p = argparse.ArgumentParser(prog="ptsim-plot", description="Plots of ptsim result files "
                                "(PNG, SVG or PDF by the output's extension).")
    sub = p.add_subparsers(dest="command", required=True)
    t = sub.add_parser("timeline", help="frequency, power, temperature, utilisation over time")
    t.add_argument("run")
    t.add_argument("-o", "--output", required=True)
    t.add_argument("--group", default="auto", choices=tl.GROUPINGS,
                   help="series per component/block/domain (none), per module (gpu3, hbm3, nvlink3, pcie_gpu3: GPU 3's), "
                        "per kind, or auto (default: none while a panel has at most 8 series)")
    t.add_argument("--top", type=int, help="keep the N largest groups per panel, the rest as 'other'")
    t.add_argument("--from", dest="t_from", help="start of the time window ('2 s', '500 ms')")
    t.add_argument("--to", dest="t_to", help="end of the time window")
    h = sub.add_parser("heatmap", help="floorplan coloured by temperature")
    h.add_argument("run")
    h.add_argument("-o", "--output", required=True)
    h.add_argument("--at", default="peak", help="'peak' (default) or a time: '2.5 s', '300 ms'")
    pa = sub.add_parser("pareto", help="Pareto front of two metrics over runs or a sweep folder")
    pa.add_argument("inputs", nargs="+", help="result files or folders (a sweep folder's runs/)")
    pa.add_argument("-o", "--output", required=True)
    pa.add_argument("--x", default="latency_p99_s", help="metric, or max:/min:METRIC")
    pa.add_argument("--y", default="perf_per_watt", help="metric, or max:/min:METRIC")
    c = sub.add_parser("compare", help="bars of the main metrics, one per configuration")
    c.add_argument("inputs", nargs="+", help="result files or folders")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("--metrics", help="comma-separated metric names (default: the main ones)")
    e = sub.add_parser("energy", help="stacked bars of energy by component group or component, one per configuration")
    e.add_argument("inputs", nargs="+", help="result files or folders")
    e.add_argument("-o", "--output", required=True)
    e.add_argument("--by", default="group", choices=("group", "component"),
                   help="energy_group_J[...] (default: cpu, gpu, memory, links, fans, supply_losses, ...) or energy_J[...]")
    for sp in (t, h, pa, c, e):
        sp.add_argument("--force", action="store_true",
                        help="replace an existing output file (a regular file only)")
    a = p.parse_args(argv)
    try:
        if a.command == "timeline":
            timeline(a.run, a.output, force=a.force, group=a.group, top=a.top,
                     t_from=None if a.t_from is None else _parse_time(a.t_from, "--from"),
                     t_to=None if a.t_to is None else _parse_time(a.t_to, "--to"))
        elif a.command == "heatmap":
            heatmap(a.run, a.output, a.at, force=a.force)
        elif a.command == "pareto":
            pareto(a.inputs, a.output, a.x, a.y, force=a.force)
        elif a.command == "energy":
            energy(a.inputs, a.output, a.by, force=a.force)
        else:
            compare(a.inputs, a.output, a.metrics.split(",") if a.metrics else None, force=a.force)
    except (PlotError, ValueError, OSError, KeyError, RuntimeError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"ptsim-plot: {msg}", file=sys.stderr)
        return 2
    if ptsim_output._named_descriptor(a.output) != 1:  # (not into the image itself)
        print(a.output)
    return 0
