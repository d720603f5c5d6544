#!/usr/bin/env bash
# setup-deps.sh - install every build and test dependency of exgc from Debian's
# packages. Safe to run again: it installs only what is missing. CUDA (nvcc) is
# optional: without it the GPU compile tests are skipped with a message.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  antlr4 libantlr4-runtime-dev          # the grammar tool and its C++ runtime
  llvm-14-dev llvm-14-tools             # Support (cl::opt, ADT), lit, FileCheck
  libgtest-dev libgmock-dev             # GoogleTest
  libz3-dev                             # exact integer reasoning
  uuid-dev                              # needed by the ANTLR C++ runtime
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all dependencies present"
  exit 0
fi

echo "setup-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
