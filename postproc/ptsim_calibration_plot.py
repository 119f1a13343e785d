"""The plot of `ptsim calibrate`: measured vs simulated, one panel per target (the line is
where they agree), and the error of each row below it, fitted and held-out rows told apart.

Usage: ptsim_calibration_plot.py FIT_CSV OUT   (OUT is written as PNG whatever its name:
ptsim calibrate passes the .part file it renames when this exits 0)
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"fitted": "tab:blue", "held_out": "tab:orange"}


def main(fit_csv, out):
    with open(fit_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    targets = list(dict.fromkeys(r["target"] for r in rows))
    if not targets:
        raise SystemExit(f"{fit_csv}: no rows")
    fig, axes = plt.subplots(2, len(targets), figsize=(4.5 * len(targets), 7.5), squeeze=False)
    for i, t in enumerate(targets):
        mine = [r for r in rows if r["target"] == t and r["simulated"] != ""]
        units = mine[0]["units"] if mine else ""
        ax = axes[0][i]
        for role, color in COLORS.items():
            pts = [r for r in mine if r["role"] == role]
            ax.scatter([float(r["measured"]) for r in pts], [float(r["simulated"]) for r in pts],
                       color=color, label=role.replace("_", "-"))
        values = [float(r[k]) for r in mine for k in ("measured", "simulated")]
        if values:
            lo, hi = min(values), max(values)
            ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8)
        ax.set_xlabel(f"measured ({units})")
        ax.set_ylabel(f"simulated ({units})")
        ax.set_title(f"{t}: {mine[0]['metric'] if mine else ''}")
        ax.legend()
        ax = axes[1][i]
        relative = bool(mine) and mine[0]["error_kind"] == "relative"
        errs = [float(r["error"]) * (100 if relative else 1) for r in mine]
        ax.bar(range(len(mine)), errs, color=[COLORS[r["role"]] for r in mine])
        ax.set_xticks(range(len(mine)))
        ax.set_xticklabels([r["row"] for r in mine])
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("row")
        ax.set_ylabel("error (%)" if relative else f"error ({units})")
    fig.tight_layout()
    fig.savefig(out, format="png", dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
