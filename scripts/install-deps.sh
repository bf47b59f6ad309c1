#!/usr/bin/env bash
# Installs every Debian package mrlab needs to build, test and benchmark.
# Safe to re-run: packages already present are skipped by apt.
set -euo pipefail

BUILD_PKGS=(
  build-essential cmake pkg-config
  libasio-dev libboost-dev libboost-program-options-dev
  libprotobuf-dev protobuf-compiler
  librocksdb-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libre2-dev libgtest-dev libgmock-dev libssl-dev
  librsvg2-dev libcairo2-dev
  libisal-dev libyaml-cpp-dev
  libxml2-dev
)
TEST_PKGS=( coreutils grep python3 chromium gnuplot-nox libxml2-utils )
# libFuzzer targets (scripts/fuzz.sh): clang with its runtime libraries.
FUZZ_PKGS=( clang-14 libclang-rt-14-dev )
BENCH_PKGS=( libmrmpi-dev mpi-default-dev mpi-default-bin gnuplot-nox )

want=("${BUILD_PKGS[@]}" "${TEST_PKGS[@]}")
if [[ "${MR_INSTALL_BENCH:-0}" == 1 ]]; then want+=("${BENCH_PKGS[@]}"); fi
if [[ "${MR_INSTALL_FUZZ:-0}" == 1 ]]; then want+=("${FUZZ_PKGS[@]}"); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
