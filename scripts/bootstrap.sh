#!/usr/bin/env bash
# Sets up everything ptsim needs on Debian 12, builds it, then runs the default
# scenario (`run`) or every test (`test`). Idempotent: quiet when all is present.
#   scripts/bootstrap.sh run    # install what is missing, build, run scenarios/default.yaml
#   scripts/bootstrap.sh test   # install what is missing, build, run each libFuzzer harness
#                               # for a fixed number of inputs, the test suite under
#                               # AddressSanitizer + UndefinedBehaviorSanitizer (all but the
#                               # tests labelled no_sanitizers), then the whole test suite of
#                               # the normal build
# PTSIM_QUICK=1 skips the fuzzing and sanitizer passes (and their clang build).
set -euo pipefail

mode="${1:-run}"
case "$mode" in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PTSIM_BUILD_DIR:-$root/build}"

# Debian packages for the build, the tests and the plots (one list, kept here).
packages=(
  g++ cmake make pkg-config
  libsystemc-dev libboost-dev libhdf5-dev doctest-dev libyaml-cpp-dev libcli11-dev libeigen3-dev
  libisal-dev libnlopt-dev libopenmpi-dev openmpi-bin libbenchmark-dev clang libclang-rt-14-dev
  python3-numpy python3-h5py python3-matplotlib python3-pandas python3-xarray python3-h5netcdf python3-yaml python3-jsonschema
  chromium  # the html report test opens the page in it, headless and offline
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
# Release (-O2, no debug info): the code RelWithDebInfo builds, in about 60 % of the time.
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPTSIM_UNITY=ON >/dev/null
fi
cmake --build "$build" -j "$jobs" >/dev/null 2>"$build/build.log" || { cat "$build/build.log" >&2; exit 1; }

# One clang build serves the fuzzing and the sanitizer passes: everything is compiled with
# -fsanitize=address,undefined, and the code the fuzz harnesses feed also with libFuzzer's
# coverage hooks (-DPTSIM_FUZZ=ON); the fuzz harnesses link libFuzzer's driver, the test
# suites doctest's. No benchmarks in it. Both builds unity-build the libraries (PTSIM_UNITY).
sanitizer_build() {
  local dir="$build-san"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    # Line tables only: sanitizer reports keep file:line, the build skips full debug info.
    CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTSIM_FUZZ=ON -DPTSIM_UNITY=ON \
      -DPTSIM_BUILD_BENCH=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" >/dev/null
  fi
  cmake --build "$dir" -j "$jobs" >/dev/null 2>"$dir/build.log" || { cat "$dir/build.log" >&2; exit 1; }
}
fuzz_pass() {
  # Input counts, not time: the same inputs on an idle or a loaded machine.
  echo "== fuzzing (a fixed seed and input count per harness)"
  "$root/scripts/run_fuzzers.sh" "$build-san"
}
sanitizer_pass() {
  echo "== the test suite under AddressSanitizer and UndefinedBehaviorSanitizer"
  # detect_stack_use_after_return=0: SystemC switches stacks for its threads, which ASan's
  # fake stacks (the mechanism behind that check) cannot follow.
  # print_suppressions=0: LSan's "Suppressions used" table would land in the stderr that
  # end-to-end tests read.
  ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=1:abort_on_error=0 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    LSAN_OPTIONS=suppressions="$root/tests/sanitizers/lsan.supp":print_suppressions=0 \
    ctest --test-dir "$build-san" --output-on-failure -j "$jobs" -LE no_sanitizers
}

case "$mode" in
  run) "$build/ptsim" run ;;
  test)
    if [ "${PTSIM_QUICK:-0}" != 1 ]; then
      sanitizer_build
      fuzz_pass
      sanitizer_pass
    fi
    # Last, so that its summary closes the output.
    echo "== the test suite"
    ctest --test-dir "$build" --output-on-failure -j "$jobs"
    ;;
  build) ;;
esac
