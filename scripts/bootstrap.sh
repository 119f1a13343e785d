#!/usr/bin/env bash
# Sets up everything ptsim needs on Debian 12, builds it, then runs the default
# scenario (`run`) or every test (`test`). Idempotent: quiet when all is present.
#   scripts/bootstrap.sh run    # install what is missing, build, run scenarios/default.yaml
#   scripts/bootstrap.sh test   # install what is missing, build, run the whole test suite
set -euo pipefail

mode="${1:-run}"
case "$mode" in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PTSIM_BUILD_DIR:-$root/build}"

# Debian packages for the build, the tests and the plots (one list, kept here).
packages=(
  g++ cmake make pkg-config
  libsystemc-dev libboost-dev libhdf5-dev doctest-dev libyaml-cpp-dev libcli11-dev libeigen3-dev
  libopenmpi-dev openmpi-bin libbenchmark-dev
  python3-numpy python3-h5py python3-matplotlib python3-pandas python3-xarray python3-h5netcdf
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "ptsim: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

jobs="$(nproc 2>/dev/null || echo 2)"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$jobs" >/dev/null 2>"$build/build.log" || { cat "$build/build.log" >&2; exit 1; }

case "$mode" in
  run) "$build/ptsim" run ;;
  test) ctest --test-dir "$build" --output-on-failure -j "$jobs" ;;
  build) ;;
esac
