#!/usr/bin/env bash
# Installs the build tree BUILD to a temporary prefix, builds docs/examples/consumer against it
# with find_package(heavyball), runs its two programs, checks that the consumer compiled without
# heavyball's own warning and instruction-set flags, and imports the installed Python module.
# Usage: tests/install/install_and_build_consumer.sh BUILD SOURCE
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/cmake/heavyball/heavyballConfig.cmake"
test -f "$work/prefix/include/heavyball/collision/gjk.hpp"
test -x "$work/prefix/bin/heavyball"
test -f "$work/prefix/share/heavyball/assets/scenes/funnel.json"
cmake -S "$source/docs/examples/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build "$work/consumer" >/dev/null
if grep -E -- '-march|-Wall|-Wextra|-ffp-contract|-fsanitize' "$work/consumer/compile_commands.json"; then
  echo "the consumer inherited heavyball's build flags" >&2
  exit 1
fi
"$work/consumer/distance"
"$work/consumer/drop" "$work/drop.h5"
test -s "$work/drop.h5"
"$work/consumer/snapshot"
if [ -f "$work/prefix/include/heavyball/render/orbit_camera.hpp" ]; then
  "$work/consumer/camera"
fi
# The installed command line finds the installed scenes, away from the source tree.
(cd "$work" && env -u HEAVYBALL_ASSETS "$work/prefix/bin/heavyball" simulate \
   --scene "$work/prefix/share/heavyball/assets/scenes/funnel-pair.json" --seconds 0.1 >/dev/null)
# The Python module, when built, from the prefix's site directory.
site=$(find "$work/prefix/lib" -path '*/dist-packages/heavyball.*.so' -printf '%h\n' | head -n 1)
if [ -n "$site" ]; then
  test -f "$site/heavyball.pyi"  # the type stubs beside the module
  (cd "$work" && env -u HEAVYBALL_DATA PYTHONPATH="$site" /usr/bin/python3 -c '
import heavyball, sys
# The installed module finds the installed assets, away from the source tree.
assert str(heavyball.data_dir()) == sys.argv[1] + "/share/heavyball", heavyball.data_dir()
assert heavyball.assets()["025_mug"]["mesh"].is_file()
a = heavyball.query({"a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 1},
                     "pose_b": {"p": [3, 0, 0]}})
assert abs(a["distance"] - 1) < 1e-9, a
print("python module", heavyball.__version__, "imported from", heavyball.__file__)' "$work/prefix")
fi
echo "installed, and the consumer built and ran against it"
