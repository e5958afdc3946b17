#!/usr/bin/env bash
# Installs softsim's build dependencies from Debian 12 packages. Idempotent: when everything is
# present it checks with dpkg and returns quietly without touching apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libeigen3-dev
  libsuitesparse-dev libopenblas-dev libmetis-dev
  libtbb-dev
  libspectra-dev
  libcli11-dev nlohmann-json3-dev
  libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libxml2-utils
  # tetrahedralizing closed surfaces (TetGen, AGPL; CMake option SOFTSIM_WITH_TETGEN)
  libtet1.5-dev
  # the Python module (python/, docs/python.md) and its pytest suite
  pybind11-dev python3-dev python3-numpy python3-pytest
  # softsim plot (matplotlib), softsim view (three.js and dygraphs for the page) and the viewer's
  # tests in a real headless browser (Chromium driven by Selenium; Pillow reads the screenshots)
  python3-matplotlib python3-pil libjs-three libjs-dygraphs chromium chromium-driver python3-selenium
  # make fuzz: clang with libFuzzer's runtime (libclang_rt.fuzzer) and llvm-symbolizer for reports
  clang libclang-rt-14-dev llvm
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
