#!/usr/bin/env bash
# The Debian package end to end (docs/packaging.md): build it with CPack from BUILD_DIR (where
# `mr` is built), then either
#   (default)  unpack it into a scratch directory (dpkg -x) and use it from there, or
#   --install  install it with apt (as root; on a clean Debian 12 this pulls its Depends)
#              and use it from /usr;
# then build the packaged example plug-in out of tree with find_package(mrlab) and load it
# with the packaged mr (its help lists the plug-in's option, the simulator runs it, and a
# one-worker local cluster runs a job under it).
# Usage: scripts/check-deb.sh [--install] [BUILD_DIR]      (default BUILD_DIR: build)
set -euo pipefail
mode=unpack
if [[ ${1:-} == --install ]]; then mode=install; shift; fi
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls -t "$build"/mrlab_*.deb | head -1)
echo "check-deb: built $deb"
dpkg-deb -I "$deb" | grep -E "Package|Version|Depends"

if [[ $mode == install ]]; then
  apt-get install -y "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; exit 1; }
  prefix=/usr
else
  dpkg -x "$deb" "$work/root"
  prefix=$work/root/usr
fi
mr=$prefix/bin/mr
"$mr" --version

cmake -S "$prefix/share/mrlab/examples/plugin" -B "$work/plugin" -DCMAKE_PREFIX_PATH="$prefix" >"$work/plugin.log" 2>&1 &&
  cmake --build "$work/plugin" >>"$work/plugin.log" 2>&1 || { cat "$work/plugin.log"; exit 1; }
lib=$work/plugin/libfewest_maps.so
help=$("$mr" master --help --policy-plugin "$lib")
grep -q -- "--fewest-by" <<<"$help" || { echo "check-deb: the plug-in's option is not in mr master --help"; exit 1; }
"$mr" model tasksim --policy-plugin "$lib" --policy fewest-maps --workload "$src/examples/workloads/model/fluid-ten-jobs.csv" \
  --workers 4 --map-slots 2 --reduce-slots 1 --shuffle-bandwidth 20MB/s | tail -1
"$mr" run synthetic --policy-plugin "$lib" --policy fewest-maps --workers 1 --maps 4 --map-seconds 0.1 \
  --output "$work/out" --quiet
[[ -f $work/out/_SUCCESS ]] || { echo "check-deb: the job under the plug-in did not succeed"; exit 1; }
echo "check-deb: $mode: the packaged mr loads a plug-in built against the packaged headers: ok"
