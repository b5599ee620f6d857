#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench: one machine across two "hosts" — two network namespaces of this machine,
# joined by a virtual Ethernet pair — through Open MPI's own launcher over TCP, as on a
# cluster (docs/partitions.md): mpirun runs in the first namespace, starts its daemon in the
# second through a remote-shell agent that enters the namespace instead of ssh, and the
# two partitions exchange their boundary over TCP. The JSON must be one process's, apart
# from host times. Needs root (namespaces); the namespaces are removed afterwards.
# Usage: scripts/bench_two_hosts.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/bench_lib.sh"
build=${1:-build}
collnet="$(cd "$build" && pwd)/collnet"
out="$build/bench/two_hosts"
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "## Two hosts over TCP (network namespaces), against one process"
echo
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
  echo "Not run: network namespaces need root and iproute2's ip."
  echo
  exit 0
fi
a=collnet-a-$$ b=collnet-b-$$
cleanup() { ip netns del "$a" 2>/dev/null || true; ip netns del "$b" 2>/dev/null || true; }
trap cleanup EXIT
ip netns add "$a"
ip netns add "$b"
ip link add "cn$$a" type veth peer name "cn$$b"
ip link set "cn$$a" netns "$a"
ip link set "cn$$b" netns "$b"
ip -n "$a" addr add 10.77.0.1/24 dev "cn$$a"
ip -n "$b" addr add 10.77.0.2/24 dev "cn$$b"
for ns in "$a" "$b"; do
  ip -n "$ns" link set lo up
done
ip -n "$a" link set "cn$$a" up
ip -n "$b" link set "cn$$b" up

# The launcher's remote shell: host 10.77.0.N is namespace a or b.
cat >"$out/rsh" <<EOF
#!/bin/sh
host=\$1
shift
case \$host in
  10.77.0.1) exec ip netns exec $a sh -c "\$*" ;;
  10.77.0.2) exec ip netns exec $b sh -c "\$*" ;;
esac
echo "rsh: no host \$host" >&2
exit 1
EOF
chmod +x "$out/rsh"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "| run | one process: cycles, s | two hosts: cycles, s | waiting in the exchanges, s | same JSON |"
echo "|---|---|---|---|---|"
while IFS='|' read -r name args; do
  # shellcheck disable=SC2086
  "$collnet" run $args --json "$out/one.json" </dev/null >/dev/null || true
  # shellcheck disable=SC2086
  ip netns exec "$a" mpirun -q -np 2 -H 10.77.0.1,10.77.0.2 --mca plm_rsh_agent "$out/rsh" \
    --mca btl tcp,self --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24 \
    --bind-to none --stdin none "$collnet" run $args --json "$out/two.json" >/dev/null || true
  python3 - "$name" "$out/one.json" "$out/two.json" <<'PY'
import json, sys
name, one, two = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
parts = two.pop("partitions", None)
times = one.pop("wall_seconds", 0), two.pop("wall_seconds", 0)
same = one == two and parts is not None and len(parts["each"]) == 2
waits = ", ".join("%.2f" % p["sync_seconds"] for p in parts["each"]) if parts else "-"
print("| %s | %s, %.2f | %s, %.2f | %s | %s |" % (name, one.get("cycles"), times[0], two.get("cycles"), times[1],
                                                 waits, "yes" if same else "NO"))
PY
done <<'EOF'
alltoall 256 B per pair, 4x4x4, bit errors 1e-4|alltoall --torus 4x4x4 --count 32 --link-ber 1e-4
allreduce 1024 f64, 4x4x4, tree|allreduce --torus 4x4x4 --count 1024 --type f64
EOF
echo
