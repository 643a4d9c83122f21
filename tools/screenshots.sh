#!/usr/bin/env bash
# Regenerates the README's window screenshot with the app itself: a real GLFW window under Xvfb on
# this machine (the emulator backend when there is no GPU). The GPU pictures come from
# tools/gpu/pass.sh on the GPU test machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
binary=${THREADLAB_BINARY:-build/app/threadlab}
mkdir -p assets/screenshots
xvfb-run -a -s "-screen 0 1920x1080x24" "$binary" gui --frames 30 --width 1600 --height 1000 --scale 1 \
  --action 'threadlab:set?lesson=vector-add&n=1000&grid=4&block=256&color=block&launch' \
  --screenshot assets/screenshots/window-emulator.png
echo "wrote assets/screenshots/window-emulator.png"
