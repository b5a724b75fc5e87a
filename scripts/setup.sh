#!/usr/bin/env bash
# setup.sh — installs the Debian packages warpscope builds and tests with, when missing.
# Called by scripts/demo.sh and scripts/test.sh; safe to run again (installs nothing then).
set -euo pipefail

packages=(cmake make gcc pkg-config libsqlite3-dev sqlite3 libgraphviz-dev chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is in /usr/local/cuda/bin (add it to PATH)" >&2
fi
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "setup: the CUDA Toolkit (nvcc) is required: it compiles the kernels to PTX" >&2; exit 1; }
