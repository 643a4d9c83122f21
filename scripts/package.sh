#!/usr/bin/env bash
# Builds ThreadLab's Debian package, threadlab_<version>_amd64.deb, into dist/ from the normal
# build (scripts/build.sh, so the same build directory and options), with CPack's DEB generator:
# the executable stripped, its shared-library dependencies computed by dpkg-shlibdeps, the man page
# and bash completion written from the CLI's own help. Then lintian checks it where it is
# installed (scripts/install-deps.sh installs it): errors fail this script, warnings are printed.
#
# Environment: as scripts/build.sh (THREADLAB_BUILD_DIR, THREADLAB_CUDA_ARCHITECTURES, ...);
# THREADLAB_DIST_DIR (default: dist).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"
build_dir="${THREADLAB_BUILD_DIR:-build}"
dist_dir="${THREADLAB_DIST_DIR:-dist}"

log() { printf 'package: %s\n' "$*"; }

for tool in dpkg-deb dpkg-shlibdeps gzip; do
  if ! command -v "${tool}" >/dev/null 2>&1; then
    printf 'package: error: %s is missing (Debian package dpkg-dev); run scripts/install-deps.sh\n' \
      "${tool}" >&2
    exit 1
  fi
done

scripts/build.sh "$@"
cmake --build "${build_dir}" --target threadlab_cli_docs
mkdir -p "${dist_dir}"
log "running CPack (DEB) in ${build_dir}"
(cd "${build_dir}" && cpack -G DEB -B "${repo_root}/${build_dir}/package" >/dev/null)
deb="$(ls -t "${build_dir}"/package/threadlab_*_amd64.deb | head -n1)"
cp "${deb}" "${dist_dir}/"
deb="${dist_dir}/$(basename "${deb}")"
log "built ${deb} ($(du -h "${deb}" | cut -f1))"
dpkg-deb --field "${deb}" Package Version Depends Recommends Suggests | sed 's/^/package:   /'

if command -v lintian >/dev/null 2>&1; then
  log "lintian ${deb}"
  # Errors fail the package; warnings and notes are listed for a reader.
  lintian_out="$(lintian --allow-root --tag-display-limit 0 --display-info "${deb}" 2>&1 || true)"
  printf '%s\n' "${lintian_out}" | sed 's/^/package:   /'
  if printf '%s\n' "${lintian_out}" | grep -q '^E: '; then
    printf 'package: error: lintian reports errors (E:) on %s\n' "${deb}" >&2
    exit 1
  fi
else
  log "lintian is not installed: the package was not checked (scripts/install-deps.sh installs it)"
fi
printf '%s\n' "${deb}"
