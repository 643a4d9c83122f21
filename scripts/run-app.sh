#!/usr/bin/env bash
# Quick start 1: installs the dependencies, builds, and opens the ThreadLab window. Arguments go to
# the app, e.g. `scripts/run-app.sh info` for the command line instead of the window.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

scripts/install-deps.sh
scripts/build.sh

app="${THREADLAB_BUILD_DIR:-build}/app/threadlab"
if [[ ! -x "${app}" ]]; then
  printf 'run-app: error: %s was not built.\n' "${app}" >&2
  exit 1
fi
if (($# == 0)) && [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  printf 'run-app: warning: no DISPLAY or WAYLAND_DISPLAY: the window needs a desktop session' >&2
  printf " (try '%s info' or '%s --help' for the command line).\n" "${app}" "${app}" >&2
fi
printf 'run-app: starting %s %s\n' "${app}" "$*"
exec "${app}" "$@"
