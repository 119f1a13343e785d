#!/usr/bin/env bash
# The presets against published measurements: the cases live in validation/ (one folder per
# measurement, naming its source) and `ptsim compare` runs them. This prints the README's table
# ("Against public measurements"); with --readme it writes it into README.md between the
# markers, as the test calibration_readme_compare expects it (after a model change moves it).
# Usage: bench/compare.sh [--readme] [PTSIM_BINARY]     (default: build/ptsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readme=0
if [[ "${1:-}" == "--readme" ]]; then readme=1; shift; fi
ptsim="${1:-$root/build/ptsim}"
[[ -x "$ptsim" ]] || { echo "compare.sh: no ptsim executable at $ptsim" >&2; exit 2; }
if ((readme == 0)); then
  exec "$ptsim" compare --dir "$root/validation" --format markdown
fi
table="$(mktemp)"
trap 'rm -f "$table"' EXIT
# A case outside its tolerance exits 1 only when marked expect: pass; the table is still whole.
"$ptsim" compare --dir "$root/validation" --format markdown >"$table" || [[ $? == 1 ]]
/usr/bin/python3 - "$root/README.md" "$table" <<'PY'
import sys
readme, table = sys.argv[1], open(sys.argv[2], encoding="utf-8").read().strip()
text = open(readme, encoding="utf-8").read()
begin, end = "<!-- ptsim compare: begin -->\n", "<!-- ptsim compare: end -->"
head, rest = text.split(begin, 1)
tail = rest.split(end, 1)[1]
open(readme + ".part", "w", encoding="utf-8").write(head + begin + table + "\n" + end + tail)
import os
os.replace(readme + ".part", readme)
PY
echo "compare.sh: README.md's table updated" >&2
