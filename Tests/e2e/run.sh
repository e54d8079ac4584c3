#!/usr/bin/env bash
# The end-to-end stage of `make test`: installs QEMU, busybox and a Debian kernel (cached under
# build/qemu-cache), builds the static executables, then boots them on real kernel DRM drivers
# and on the firmware's framebuffer (vesafb), with the hand-over from one to the other, and
# with monitors plugged in and out, with VT switches (chvt and ctrl-alt-fN), and with a logo, a label and a bar set over the socket.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/qemu/fetch-deps.sh
scripts/build-static.sh
python3 Tests/e2e/test_harness_png.py
python3 Tests/e2e/test_harness_minimal_c.py
python3 Tests/e2e/test_skeletond_drm.py
python3 Tests/e2e/test_skeletond_fbdev.py
python3 Tests/e2e/test_skeletond_rotation.py
python3 Tests/e2e/test_skeletond_heads.py
python3 Tests/e2e/test_skeletond_hotplug.py
python3 Tests/e2e/test_skeletond_vt.py
python3 Tests/e2e/test_skeletond_content.py
python3 Tests/e2e/test_skeletond_panel_orientation.py
python3 Tests/e2e/test_skeletond_bgrt.py
