# SPDX-License-Identifier: Apache-2.0
# Helpers the bench scripts share (sourced, not run).

field() {  # field FILE KEY -> value of a top-level JSON number, bool or string (unquoted)
  grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/.*: *//; s/"//g'
}

# Every simulated processor is a SystemC thread with a guarded stack: two memory mappings
# each, and Linux allows a process 65,530 by default (vm.max_map_count), less than a
# 32x32x32 machine needs; collnet refuses such a machine before building it, naming the
# setting. Run as root, this raises the setting for the bench's runs and says so.
raise_map_count() {
  local need=262144 limit
  limit=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
  if [ "$limit" -lt "$need" ] && [ "$(id -u)" = 0 ] && sysctl -qw vm.max_map_count=$need 2>/dev/null; then
    echo "vm.max_map_count raised from $limit to $need for these runs (two mappings per simulated processor)."
  else
    echo "vm.max_map_count is $(cat /proc/sys/vm/max_map_count 2>/dev/null || echo unknown): shapes that need more are refused before they start."
  fi
}
