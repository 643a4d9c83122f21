#!/usr/bin/env bash
# Gradescope: builds ThreadLab into /autograder/threadlab once, when the image is made, from the
# source archive the autograder zip carries (README.md: `git archive` of the checkout you teach
# with, so every submission is graded by the same ThreadLab).
set -euo pipefail
mkdir -p /autograder/threadlab
tar -xzf /autograder/source/threadlab-src.tar.gz -C /autograder/threadlab
cd /autograder/threadlab
bash scripts/install-deps.sh
bash scripts/build.sh -DTHREADLAB_CUDA=OFF
