#!/usr/bin/env bash
# The installed package as a plug-in author uses it (docs/packaging.md): `cmake --install` of
# this build into a scratch prefix, the example plug-in configured and built out of tree
# against it with find_package(mrlab), and the installed `mr` loading that plug-in (its help
# lists the policy; the task-level simulator runs it). REQUIRES: `mr` built in BUILD_DIR.
# Usage: install_test.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR     Exit: 0 pass, 1 fail.
set -euo pipefail
src=$1 build=$2 scratch=$3
mkdir -p "$scratch"
work=$(mktemp -d "$scratch/install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" --strip >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
for f in bin/mr include/mrlab/scheduler/policy_plugin.h lib/cmake/mrlab/mrlabConfig.cmake \
         share/mrlab/examples/plugin/fewest_maps.cc share/mrlab/yarn/fair-scheduler.xsd; do
  [[ -e $prefix/$f ]] || { echo "install_test: $f not installed"; exit 1; }
done

# Out of tree: the installed copy of the example, against the installed package only.
if ! { cmake -S "$prefix/share/mrlab/examples/plugin" -B "$work/plugin" -DCMAKE_PREFIX_PATH="$prefix" \
         -DCMAKE_BUILD_TYPE=Release && cmake --build "$work/plugin"; } >"$work/plugin.log" 2>&1; then
  cat "$work/plugin.log"; exit 1
fi
lib=$work/plugin/libfewest_maps.so
[[ -f $lib ]] || { echo "install_test: the plug-in was not built"; exit 1; }

mr=$prefix/bin/mr
help=$("$mr" master --help --policy-plugin "$lib")
grep -q -- "--fewest-by" <<<"$help" ||
  { echo "install_test: the installed mr does not show the plug-in's option"; exit 1; }
out=$("$mr" model tasksim --policy-plugin "$lib" --policy fewest-maps \
        --workload "$src/examples/workloads/model/fluid-ten-jobs.csv" --workers 4 --map-slots 2 \
        --reduce-slots 1 --shuffle-bandwidth 20MB/s)
grep -q "^# policy=fewest-maps jobs=10 " <<<"$out" ||
  { echo "install_test: the simulator did not run the plug-in:"; echo "$out" | tail -3; exit 1; }
echo "install_test: installed, built fewest_maps out of tree, loaded it: ok"
