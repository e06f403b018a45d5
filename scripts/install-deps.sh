#!/usr/bin/env bash
# Installs heavyball's build and test dependencies from Debian 12 packages (needs root or sudo).
set -euo pipefail
packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev pkg-config ccache
  libeigen3-dev libqhull-dev libtinyobjloader-dev libspdlog-dev libfmt-dev
  libcli11-dev nlohmann-json3-dev libtbb-dev libsleef-dev liburdfdom-dev libgtest-dev libbenchmark-dev libhdf5-dev zlib1g-dev libdeflate-dev
  libccd-dev libfcl-dev libbullet-dev libmujoco-dev
  libglfw3-dev libimgui-dev libstb-dev python3-glad libgl-dev libegl-dev
  xvfb xauth libgl1-mesa-dri libglx-mesa0 libegl-mesa0
  python3-matplotlib python3-dev pybind11-dev python3-numpy python3-pytest python3-h5py
  slurmctld slurmd slurm-client munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
