"""What `ptsim-plot timeline` draws (ptsim_plot.timeline): grouping, window, colours, envelope.

A server has dozens of components, blocks and domains, so series are grouped before they
are drawn: per module (the parts that share an index: gpu3, hbm3, nvlink3 and pcie_gpu3 are
the module of GPU 3), per kind (every GPU together) or not at all, optionally cut to the N largest
groups with the rest as one "other" series. Groups aggregate as the quantity does: power
sums, temperature takes the hottest, frequency and utilisation average. One colour per
group across the four panels. A window (--from/--to) selects a time span, and a series
with more samples than the axes have pixels is drawn as its per-pixel mean with the
min-max band around it, so a 30 fps load does not alias into a false pattern.
"""
import math
import re

import numpy as np

GROUPINGS = ("auto", "none", "module", "kind")
# auto groups when a panel would have more series than a legend can show.
AUTO_MAX_SERIES = 8
AUTO_TOP = 10
OTHER_COLOR = "0.55"
# How each quantity aggregates over a group.
_AGGREGATE = {"frequency_MHz": "mean", "power_W": "sum", "temperature_C": "max", "utilization_pct": "mean"}
# What ranks groups for --top: the mean for all but temperature (its peak).
_RANK = {"frequency_MHz": np.mean, "power_W": np.mean, "temperature_C": np.max, "utilization_pct": np.mean}
_INDEX = re.compile(r"^(.*?)(\d+)$")


class TimelineError(ValueError):
    """A bad grouping, top count or window."""


def module_keys(names):
    """Name -> its module: the parts that share an index and whose families have the same
    index set (gpu0..7, hbm0..7, nvlink0..7, pcie_gpu0..7) form module 'gpu3 module'; a
    second family (cpu0..1, ddr0..1, nic0..1) forms 'cpu0 module' apart from GPU 0. A name
    without a trailing index is its own module. Names are taken across the panels, so a
    module has one key (and one colour) everywhere."""
    indices = {}
    for n in names:
        m = _INDEX.match(n)
        if m and m.group(1):
            indices.setdefault(m.group(1), set()).add(int(m.group(2)))
    label = {}  # index set -> the first prefix seen with it
    for prefix, idx in indices.items():
        label.setdefault(frozenset(idx), prefix)
    keys = {}
    for n in names:
        m = _INDEX.match(n)
        if m and m.group(1):
            keys[n] = f"{label[frozenset(indices[m.group(1)])]}{int(m.group(2))} module"
        else:
            keys[n] = n
    return keys


def kinds_of(scenario):
    """Component name -> kind, and domain name -> the kind of its first component, from the
    stored scenario ({dotted path: value text})."""
    kinds = {}
    for path, value in scenario.items():
        parts = path.split(".")
        if len(parts) == 4 and parts[:2] == ["platform", "components"] and parts[3] == "kind":
            kinds[parts[2]] = value
    for path, value in scenario.items():
        parts = path.split(".")
        if len(parts) == 5 and parts[:2] == ["platform", "domains"] and parts[3] == "components" and parts[4] == "0":
            kinds.setdefault(parts[2], kinds.get(value, value))
    return kinds


def kind_of(name, kinds):
    """A component's or domain's kind; a block takes its component's (same name, or its name
    without the trailing index); anything else is itself."""
    if name in kinds:
        return kinds[name]
    m = _INDEX.match(name)
    if m and m.group(1):
        base = m.group(1).rstrip("_")
        return kinds.get(base, base)
    return name


def _aggregate(values, how):
    stack = np.vstack(values)
    return {"sum": stack.sum(axis=0), "max": stack.max(axis=0), "mean": stack.mean(axis=0)}[how]


def group_series(series, quantity, key_of, top=None):
    """{name: values} -> ({label: values}, {label: [member names]}), groups in order of
    first member; with top, the `top` highest-ranked groups and an 'other' group of the rest."""
    members = {}
    for name in series:
        members.setdefault(key_of(name), []).append(name)
    how = _AGGREGATE[quantity]
    groups = {k: (series[ns[0]] if len(ns) == 1 else _aggregate([series[n] for n in ns], how))
              for k, ns in members.items()}
    if top is not None and len(groups) > top:
        rank = _RANK[quantity]
        keep = sorted(groups, key=lambda k: -float(rank(groups[k])) if len(groups[k]) else 0.0)[:top]
        rest = [k for k in groups if k not in keep]
        other = _aggregate([groups[k] for k in rest], how)
        rest_members = [n for k in rest for n in members[k]]
        groups = {k: groups[k] for k in groups if k in keep}
        members = {k: members[k] for k in groups}
        groups["other"] = other
        members["other"] = rest_members
    return groups, members


def _label(key, names, how):
    if key == "other":
        return f"other ({len(names)}, {how})"
    if len(names) == 1:
        return names[0]
    return f"{key} ({len(names)}, {how})"


def envelope(time, values, bins):
    """Per-bin (time at the bin's end, mean, min, max) over `bins` equal runs of samples."""
    n = len(time)
    edges = np.linspace(0, n, bins + 1).astype(int)
    t, mean, lo, hi = [], [], [], []
    for a, b in zip(edges[:-1], edges[1:]):
        if b <= a:
            continue
        chunk = values[a:b]
        t.append(time[b - 1])
        mean.append(chunk.mean())
        lo.append(chunk.min())
        hi.append(chunk.max())
    return np.array(t), np.array(mean), np.array(lo), np.array(hi)


def choose_grouping(group, panels, names):
    """The grouping and top count that auto picks: none while every panel fits a legend,
    else per module where names carry indices (at least two modules), else per kind; then
    the AUTO_TOP largest groups."""
    if group != "auto":
        return group
    if max(len(p) for p in panels) <= AUTO_MAX_SERIES:
        return "none"
    keys = module_keys(names)
    return "module" if len({keys[n] for n in names if keys[n] != n}) >= 2 else "kind"


def select_window(time, t_from, t_to):
    """Indices of the samples whose periods end within [t_from, t_to]."""
    lo = -math.inf if t_from is None else t_from
    hi = math.inf if t_to is None else t_to
    if lo >= hi:
        raise TimelineError(f"--from must be before --to (found {t_from} s and {t_to} s)")
    idx = np.nonzero((time >= lo) & (time <= hi))[0]
    if len(idx) == 0:
        span = f"{time[0]:g} to {time[-1]:g} s" if len(time) else "no samples"
        raise TimelineError(f"no samples between {lo:g} s and {hi:g} s (the run has {span})")
    return idx


def assign_colors(keys, palette):
    """One colour per group key, the same in every panel; 'other' is grey."""
    colors, i = {}, 0
    for k in keys:
        if k in colors:
            continue
        if k == "other":
            colors[k] = OTHER_COLOR
        else:
            colors[k] = palette[i % len(palette)]
            i += 1
    return colors
