#!/usr/bin/env bash
# Gradescope-style autograder image: runs once when the image is built, as root, on the grader's
# Ubuntu or Debian base, from the folder the autograder zip was unpacked into (/autograder/source).
# The zip holds this file, run_autograder, config.env and the package built by scripts/package.sh
# (threadlab_<version>_amd64.deb); apt resolves the package's dependencies from the distribution.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
deb="$(ls threadlab_*_amd64.deb | sort -V | tail -n1)"
apt-get update
apt-get install -y --no-install-recommends "./${deb}"
threadlab --version
# The Lab's sandbox uses user namespaces where the kernel allows them, then Landlock, seccomp and
# rlimits; `threadlab lab check` says which of them this machine gives (SECURITY.md).
threadlab lab list >/dev/null
