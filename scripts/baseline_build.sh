#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the collnet binary of an earlier commit once, for make bench to run beside the
# current one, and prints its path. The sources go to a git worktree and the build to a
# directory of its own, both kept (under BUILD_DIR/baseline-COMMIT) so that later bench
# runs reuse them. Prints nothing (and exits 0) if the commit is not in this clone.
# Usage: scripts/baseline_build.sh BUILD_DIR COMMIT
set -euo pipefail
build=$1 commit=$2
jobs=${JOBS:-2}
full=$(git rev-parse --verify --quiet "$commit^{commit}") || {
  echo "baseline_build: commit $commit is not in this clone: no baseline" >&2
  exit 0
}
short=${full:0:7}
dir="$build/baseline-$short"
if [ ! -x "$dir/build/collnet" ]; then
  [ -d "$dir/src" ] || git worktree add --detach --force "$dir/src" "$full" > /dev/null 2>&1
  echo "baseline_build: building collnet at $short in $dir (once)" >&2
  cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build "$dir/build" -j "$jobs" --target collnet > "$dir/build.log" 2>&1 ||
    { tail -20 "$dir/build.log" >&2; exit 1; }
fi
echo "$short $(git log -1 --format=%s "$full")" > "$dir/build/BASELINE_COMMIT"
echo "$dir/build/collnet"
