#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages collnet needs, only those that are missing.
set -euo pipefail

packages=(
  cmake make g++ pkg-config ccache
  verilator libsystemc-dev
  libgtest-dev googletest libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  gtkwave iverilog yosys
  time python3
  universal-ctags  # scripts/check_house.py: the length of every function
  python3-matplotlib  # scripts/plot.py (make docs-figures, the plot tests)
  xvfb  # the waveform view tests open GTKWave on a virtual display
  openmpi-bin libopenmpi-dev
  clang-14 libclang-rt-14-dev  # make fuzz (libFuzzer); make test does not use them
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "collnet: installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "collnet: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
