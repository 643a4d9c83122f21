#!/usr/bin/env bash
# Builds the GPU-facing binaries for sm_90 in build-gpu/ and stages them in .gpu/bin/ for the GPU
# test machine. Run from anywhere; needs nvcc.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
# The device reaches no package registry: the GL loaders and GLFW come from the shared recipe, and the
# libraries ThreadLab links beyond it (stb for PNGs, md4c for lesson texts, toml++ for demo scripts and
# settings) are fetched beside them.
if [[ ! -d .gpu/debs/lib ]]; then
  bash ../shared/gpu/fetch-debs.sh
fi
if ! ls .gpu/debs/lib/libstb0_*.deb .gpu/debs/lib/libmd4c0_*.deb .gpu/debs/lib/libtomlplusplus3_*.deb >/dev/null 2>&1; then
  (cd .gpu/debs/lib && apt-get download -q libstb0 libmd4c0 libtomlplusplus3 >/dev/null)
fi
cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build-gpu threadlab threadlab_gpu_tests threadlab_gpu_fault_tests threadlab_gl_tests
mkdir -p .gpu/bin
cp build-gpu/app/threadlab build-gpu/tests/gpu/threadlab_gpu_tests build-gpu/tests/gpu/threadlab_gpu_fault_tests \
  build-gpu/tests/gl/threadlab_gl_tests .gpu/bin/
cp tools/gpu/pass.sh .gpu/bin/
# Fonts for screenshots: the device image has no font packages.
mkdir -p .gpu/fonts
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
  /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf \
  /usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf .gpu/fonts/
strip --strip-debug .gpu/bin/threadlab .gpu/bin/threadlab_gpu_tests .gpu/bin/threadlab_gpu_fault_tests \
  .gpu/bin/threadlab_gl_tests
du -sh .gpu
