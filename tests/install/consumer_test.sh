#!/usr/bin/env bash
# Installs the built project into a scratch prefix, then builds and runs a consumer
# project against it with find_package(ptsim).
set -euo pipefail
build="$1"; src="$2"
work="$build/install-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
test -x "$work/prefix/bin/ptsim"
test -f "$work/prefix/share/ptsim/scenarios/default.yaml"
# The installed front end runs validate itself and finds its module (the full command
# line, in <libdir>/ptsim) for everything else.
"$work/prefix/bin/ptsim" validate "$work/prefix/share/ptsim/scenarios/default.yaml" >/dev/null
"$work/prefix/bin/ptsim" --version | grep -q '^ptsim '
rm -rf "$work"
