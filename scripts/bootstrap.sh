#!/usr/bin/env bash
# Sets up everything ptsim needs on Debian 12, builds it, then runs the default
# scenario (`run`) or every test (`test`). Idempotent: quiet when all is present.
#   scripts/bootstrap.sh run    # install what is missing, build, run scenarios/default.yaml
#   scripts/bootstrap.sh test   # install what is missing, build, run the whole test suite
#                               # and each libFuzzer harness for a while
# PTSIM_QUICK=1 skips the fuzzing pass. PTSIM_SANITIZERS=1 adds a pass of the whole suite
# under AddressSanitizer and UndefinedBehaviorSanitizer (not yet clean: see README).
set -euo pipefail

mode="${1:-run}"
case "$mode" in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PTSIM_BUILD_DIR:-$root/build}"

# Debian packages for the build, the tests and the plots (one list, kept here).
packages=(
  g++ cmake make pkg-config
  libsystemc-dev libboost-dev libhdf5-dev doctest-dev libyaml-cpp-dev libcli11-dev libeigen3-dev
  libdeflate-dev libopenmpi-dev openmpi-bin libbenchmark-dev clang libclang-rt-14-dev
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

# A second build with sanitizers, and a clang build of the libFuzzer harnesses.
sanitizer_pass() {
  local dir="$build-asan"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTSIM_SANITIZE=ON -DPTSIM_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$dir" -j "$jobs" >/dev/null 2>"$dir/build.log" || { cat "$dir/build.log" >&2; exit 1; }
  echo "== the test suite under AddressSanitizer and UndefinedBehaviorSanitizer"
  # SystemC switches stacks for its threads; ASan cannot follow that for fake stacks.
  ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$root/tests/sanitizers/lsan.supp" \
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}
fuzz_pass() {
  local dir="$build-fuzz"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTSIM_FUZZ=ON \
      -DPTSIM_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build "$dir" -j "$jobs" --target fuzz_scenario fuzz_overrides fuzz_flp fuzz_units >/dev/null \
    2>"$dir/build.log" || { cat "$dir/build.log" >&2; exit 1; }
  echo "== fuzzing (a fixed seed and input count per harness, at most ${PTSIM_FUZZ_SECONDS:-60} s each)"
  "$root/scripts/run_fuzzers.sh" "$dir" "${PTSIM_FUZZ_SECONDS:-60}"
}

case "$mode" in
  run) "$build/ptsim" run ;;
  test)
    if [ "${PTSIM_QUICK:-0}" != 1 ]; then
      fuzz_pass
    fi
    if [ "${PTSIM_SANITIZERS:-0}" = 1 ]; then
      sanitizer_pass
    fi
    # Last, so that its summary closes the output.
    echo "== the test suite"
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  build) ;;
esac
