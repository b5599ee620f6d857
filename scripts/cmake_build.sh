#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds a CMake build directory, surviving RTL changes. Verilator's CMake support lists a
# model's generated files when CMake configures; an RTL change re-Verilates into new file
# names, so a build that fails after one is configured again (all models re-Verilated
# first, with -k) and built once more.
# Usage: scripts/cmake_build.sh BUILD_DIR JOBS [cmake --build arguments, e.g. --target collnet]
set -euo pipefail
dir=$1 jobs=$2
shift 2
cmake --build "$dir" -j "$jobs" "$@" -- -k || {
  echo "build: configuring again for the re-Verilated models"
  cmake "$dir" > /dev/null
  cmake --build "$dir" -j "$jobs" "$@"
}
