#!/usr/bin/env bash
# setup.sh — installs the Debian packages warpscope builds and tests with, when missing.
# Called by scripts/demo.sh and scripts/test.sh; safe to run again (installs nothing then).
# Also nvdisasm (the SASS model's disassembler) from the PyPI wheel nvidia-cuda-nvdisasm
# into .tools/bin/, git-ignored, when no copy is there.
set -euo pipefail

packages=(cmake make gcc pkg-config libsqlite3-dev sqlite3 libgraphviz-dev libelf-dev chromium)
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

# nvdisasm: the wheel is a zip holding nvidia/cu*/bin/nvdisasm.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -x "$root/.tools/bin/nvdisasm" ]; then
  echo "setup: installing nvdisasm (PyPI nvidia-cuda-nvdisasm) into .tools/bin" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  pip="pip3"; command -v pip3 >/dev/null 2>&1 || pip="pip"
  if "$pip" download --quiet --no-deps --dest "$tmp" nvidia-cuda-nvdisasm >&2 &&
     python3 -m zipfile -e "$tmp"/nvidia_cuda_nvdisasm-*.whl "$tmp/x" &&
     bin="$(find "$tmp/x" -type f -name nvdisasm | head -n 1)" && [ -n "$bin" ]; then
    mkdir -p "$root/.tools/bin"
    install -m 755 "$bin" "$root/.tools/bin/nvdisasm"
  else
    echo "setup: could not install nvdisasm; the SASS model needs it (or set WARPSCOPE_NVDISASM)" >&2
  fi
fi
