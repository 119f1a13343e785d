#!/usr/bin/env bash
# The presets against published measurements: the cases live in validation/ (one folder per
# measurement, naming its source) and `ptsim compare` runs them. This prints the README's table
# ("Against public measurements").
# Usage: bench/compare.sh [PTSIM_BINARY]     (default: build/ptsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ptsim="${1:-$root/build/ptsim}"
[[ -x "$ptsim" ]] || { echo "compare.sh: no ptsim executable at $ptsim" >&2; exit 2; }
exec "$ptsim" compare --dir "$root/validation" --format markdown
