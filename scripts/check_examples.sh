#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs examples/ the way a user would: installs the build into a temporary
# prefix (cmake --install), configures examples/ against it with find_package(collnet),
# builds every example and runs each, which must print "verified" and exit 0.
# Usage: scripts/check_examples.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: check_examples.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
cmake -S "$src/examples" -B "$tmp/examples" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log" ||
  { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/examples" -j 2 > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
for example in allreduce subset send_recv; do
  out=$("$tmp/examples/$example")
  echo "$out"
  grep -q verified <<< "$out" || { echo "check_examples: $example did not verify" >&2; exit 1; }
done
# A bad argument is refused with a message naming it, not a crash.
if err=$("$tmp/examples/allreduce" 4x 2>&1); then
  echo "check_examples: allreduce accepted the shape '4x'" >&2; exit 1
fi
grep -q "'4x' is not a shape" <<< "$err" || { echo "check_examples: unexpected refusal: $err" >&2; exit 1; }
echo "check_examples: installed package found by find_package(collnet); 3 examples built and verified"
