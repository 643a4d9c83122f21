#!/usr/bin/env bash
# Installs, with apt, everything ThreadLab needs to build and test on Debian 12 or Ubuntu 24.04.
#
# Safe to run again and again: when every package is already installed it does not touch apt at all,
# so it is fast and works offline. It never installs CUDA (optional); it says whether nvcc was
# found and so whether the GPU kernels will be built. Where nvcc came without the toolkit's
# disassembler (cuobjdump, nvdisasm), it installs NVIDIA's wheels of those two (see below).
#
# Environment: THREADLAB_SKIP_DEPS=1 makes it do nothing (for machines whose dependencies come from
# elsewhere; scripts/build.sh and friends pass through here).
set -euo pipefail

# Needed to configure, build and run the test suite; a build without any of them fails.
readonly REQUIRED_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  # GLAD 2 generates the GL/EGL loader at build time.
  python3
  python3-glad
  libimgui-dev libglfw3-dev
  # GL and EGL headers (GLVND) plus Mesa's EGL, so the headless context works without a GPU.
  # libegl1-mesa (a transitional package on Debian 12) is gone from Ubuntu 24.04: its contents are
  # libegl1 (the GLVND loader) and libegl-mesa0 (Mesa's vendor library), named here directly.
  libegl-dev libgl-dev libegl1 libegl1-mesa-dev libegl-mesa0
  # Mesa's software rasterizers (llvmpipe), for EGL surfaceless and for the window under Xvfb.
  libgl1-mesa-dri
  libstb-dev libmd4c-dev libcli11-dev nlohmann-json3-dev
  # TOML for demo scripts and settings.
  libtomlplusplus-dev
  # The CPU emulator's fibers (a context switch without a system call).
  libboost-context-dev
  # The Kernel Lab sandbox's system-call filter.
  libseccomp-dev
  # The class server and client (app/net): HTTP on the local network. It pulls in libssl-dev,
  # zlib1g-dev and libbrotli-dev, whose headers httplib.h includes as Debian builds it.
  libcpp-httplib-dev
  # Finding a class on the LAN by mDNS: Avahi's client headers. The library is loaded at run time
  # (app/net/class_discovery.cpp), so neither the build's programs nor the package need it.
  libavahi-client-dev
  libgtest-dev libgmock-dev
  # clang and its runtime libraries for the libFuzzer targets (scripts/fuzz.sh, run by CI).
  clang libclang-rt-dev
  # The UI font, and a virtual X server so the window tests run without a display.
  fonts-dejavu-core xvfb xauth
  # Presses the teacher's keys in the two-window class test (tests/gui/test_class_windows.cpp),
  # through the X server's XTEST input, as a clicker would.
  xdotool
  # The Debian package (scripts/package.sh): dpkg-shlibdeps computes its dependencies.
  dpkg-dev
)
# Nice to have: the build and the tests pass without them.
readonly OPTIONAL_PACKAGES=(
  libbenchmark-dev      # the micro-benchmarks
  fonts-jetbrains-mono  # the code font; the app falls back to the UI font
  ccache                # rebuilds compile only what changed (CMake uses it when it is there)
  mold                  # a linker several times faster than ld.bfd for the test executables
  lintian               # scripts/package.sh checks the .deb with it
  appstream             # tests/package validates the installed metainfo with appstreamcli
  # The class board page's test in a real browser (tests/net/test_board_browser.cpp; skipped without
  # it). About 80 MB to download, 27 s to install on the 2-core CI machine.
  chromium
)

log() { printf 'install-deps: %s\n' "$*"; }
warn() { printf 'install-deps: warning: %s\n' "$*" >&2; }
die() {
  printf 'install-deps: error: %s\n' "$*" >&2
  exit 1
}

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

# True when the package lists offer a version of $1 to install (unknown names and purely virtual
# packages have no candidate).
is_available() {
  local candidate
  candidate="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')"
  [[ -n "${candidate}" && "${candidate}" != "(none)" ]]
}

# The lessons' Compiled view embeds each kernel's SASS and PTX, made at build time by the toolkit's
# cuobjdump and nvdisasm. A toolkit installed from NVIDIA's Python wheels (nvidia-cuda-nvcc, ...)
# comes without them; NVIDIA publishes them as wheels of their own, installed here into
# THREADLAB_CUDA_TOOLS_DIR (CMake looks there). Best effort: without them the build still
# succeeds and the view says why it has no listings.
cuda_tools_dir() {
  if [[ -n "${THREADLAB_CUDA_TOOLS_DIR:-}" ]]; then
    printf '%s\n' "${THREADLAB_CUDA_TOOLS_DIR}"
  elif [[ "$(id -u)" == 0 ]]; then
    printf '/opt/threadlab/cuda-tools\n'
  else
    printf '%s/threadlab/cuda-tools\n' "${XDG_DATA_HOME:-${HOME}/.local/share}"
  fi
}

install_cuda_disassembler() {
  local nvcc="$1" version="$2" bin tools
  bin="$(dirname "${nvcc}")"
  tools="$(cuda_tools_dir)"
  if [[ -x "${bin}/nvdisasm" && -x "${bin}/cuobjdump" ]] ||
    [[ -n "$(find "${tools}" -name nvdisasm -type f 2>/dev/null | head -n 1)" &&
      -n "$(find "${tools}" -name cuobjdump -type f 2>/dev/null | head -n 1)" ]]; then
    return 0
  fi
  local major="${version%%.*}"
  if [[ -z "${major}" ]] || ! command -v python3 >/dev/null 2>&1 ||
    ! python3 -m pip --version >/dev/null 2>&1; then
    warn "CUDA's disassembler (nvdisasm, cuobjdump) is missing and pip is not here to install it:" \
      "the Compiled view will have no kernel listings."
    return 0
  fi
  log "CUDA: ${bin} has no nvdisasm/cuobjdump: installing NVIDIA's wheels of them (${major}.x) into ${tools}"
  if ! timeout 300 python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps \
    --target "${tools}" "nvidia-cuda-nvdisasm==${major}.*" "nvidia-cuda-cuobjdump==${major}.*"; then
    warn "could not install nvidia-cuda-nvdisasm/cuobjdump with pip: the Compiled view will have" \
      "no kernel listings (the build does not need them)."
  fi
}

report_cuda() {
  local nvcc=""
  if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    nvcc=/usr/local/cuda/bin/nvcc
  elif command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
  fi
  if [[ -n "${nvcc}" ]]; then
    local version
    version="$("${nvcc}" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -n 1)"
    log "CUDA: ${nvcc} (release ${version:-unknown}) found: the GPU kernels will be built."
    [[ "${1:-}" == install ]] && install_cuda_disassembler "${nvcc}" "${version}"
  else
    log "CUDA: nvcc not found: the GPU kernels will not be built; every kernel runs on the CPU" \
      "emulator. Install the CUDA Toolkit to /usr/local/cuda for the GPU path (optional)."
  fi
}

main() {
  if [[ "${THREADLAB_SKIP_DEPS:-0}" == 1 ]]; then
    log "THREADLAB_SKIP_DEPS=1: not checking system packages."
    report_cuda
    return 0
  fi
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    die "this script needs apt (Debian 12 or Ubuntu 24.04). Install the equivalents of:" \
      "${REQUIRED_PACKAGES[*]} ${OPTIONAL_PACKAGES[*]}; then run with THREADLAB_SKIP_DEPS=1."
  fi

  local -a missing_required=() missing_optional=()
  local package
  for package in "${REQUIRED_PACKAGES[@]}"; do
    is_installed "${package}" || missing_required+=("${package}")
  done
  for package in "${OPTIONAL_PACKAGES[@]}"; do
    is_installed "${package}" || missing_optional+=("${package}")
  done
  if ((${#missing_required[@]} + ${#missing_optional[@]} == 0)); then
    log "all $((${#REQUIRED_PACKAGES[@]} + ${#OPTIONAL_PACKAGES[@]})) packages are installed."
    report_cuda install
    return 0
  fi

  local -a sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 ||
      die "not root and sudo is missing; as root run: apt-get install" \
        "${missing_required[*]} ${missing_optional[*]}"
    sudo=(sudo)
  fi
  # DEBIAN_FRONTEND goes through `env` because sudo does not pass the caller's environment on. The
  # lock timeout waits for unattended-upgrades on a freshly booted Ubuntu instead of failing.
  local -a apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)

  log "installing: ${missing_required[*]} ${missing_optional[*]}"
  # A failed update (offline, one broken mirror) is not fatal: the cached lists may still do.
  "${apt[@]}" update || warn "apt-get update failed; trying with the package lists already here."

  # Asking apt for a package it does not know fails the whole install, so ask only for what this
  # release offers and name the rest.
  local -a to_install=() unavailable_required=() unavailable_optional=()
  for package in "${missing_required[@]}"; do
    if is_available "${package}"; then to_install+=("${package}"); else unavailable_required+=("${package}"); fi
  done
  for package in "${missing_optional[@]}"; do
    if is_available "${package}"; then to_install+=("${package}"); else unavailable_optional+=("${package}"); fi
  done
  if ((${#to_install[@]} > 0)); then
    # Recommends stay out: every package the build needs is named above, and CI time is short.
    "${apt[@]}" install -y --no-install-recommends "${to_install[@]}"
  fi

  local distro hint=""
  distro="$(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null || true)"
  distro="${distro:-this system}"
  if grep -qs '^ID=ubuntu' /etc/os-release; then
    hint=" Ubuntu keeps several of them in 'universe': sudo add-apt-repository universe, then run again."
  fi
  if ((${#unavailable_optional[@]} > 0)); then
    warn "not available from apt on ${distro}, skipped (optional): ${unavailable_optional[*]}.${hint}"
  fi
  if ((${#unavailable_required[@]} > 0)); then
    die "not available from apt on ${distro}: ${unavailable_required[*]}. The build needs them:" \
      "install them another way and run the scripts with THREADLAB_SKIP_DEPS=1.${hint}"
  fi
  log "done."
  report_cuda install
}

main "$@"
