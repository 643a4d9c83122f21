#!/usr/bin/env bash
# Configures and builds ThreadLab into ./build with Ninja (RelWithDebInfo). Extra arguments go to
# the configure step, e.g. `scripts/build.sh -DTHREADLAB_CUDA=OFF`.
#
# Environment: THREADLAB_BUILD_DIR (default: build), THREADLAB_JOBS (default: nproc),
# THREADLAB_CUDA_ARCHITECTURES (default: the project's list, compute capability 7.5 to 9.0; CI
# builds one, e.g. 90, since it only compiles and links the GPU code and runs none of it).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

build_dir="${THREADLAB_BUILD_DIR:-build}"
jobs="${THREADLAB_JOBS:-$(nproc)}"

log() { printf 'build: %s\n' "$*"; }

# A build directory configured by another generator (Unix Makefiles, say) cannot be reused with
# Ninja; CMake would stop with a generator mismatch, so say what to do instead.
if [[ -f "${build_dir}/CMakeCache.txt" ]] &&
  ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "${build_dir}/CMakeCache.txt"; then
  printf 'build: error: %s was configured with another generator; remove it and run again.\n' \
    "${build_dir}" >&2
  exit 1
fi

# Configuring every time is cheap (CMake only regenerates what changed) and lets new -D arguments
# take effect on an existing build directory.
log "configuring ${build_dir} (RelWithDebInfo, Ninja)"
configure_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [[ -n "${THREADLAB_CUDA_ARCHITECTURES:-}" ]]; then
  log "CUDA architectures: ${THREADLAB_CUDA_ARCHITECTURES} (THREADLAB_CUDA_ARCHITECTURES)"
  configure_args+=("-DCMAKE_CUDA_ARCHITECTURES=${THREADLAB_CUDA_ARCHITECTURES}")
fi
cmake -S . -B "${build_dir}" -G Ninja "${configure_args[@]}" "$@"
log "building with ${jobs} jobs"
cmake --build "${build_dir}" --parallel "${jobs}"
log "done: ${build_dir}/app/threadlab"
