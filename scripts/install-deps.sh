#!/usr/bin/env bash
# Installs what building needs on a fresh Debian machine, and with --test what the tests need
# besides (Swift, make, python3, pkg-config and zlib are assumed; systemd is installed for
# systemd-analyze, which the unit checks use). Idempotent and quiet when everything is there.
set -euo pipefail
missing=()
pkg-config --exists libdrm 2>/dev/null || missing+=(libdrm-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
pkg-config --exists libpng 2>/dev/null || missing+=(libpng-dev)
pkg-config --exists freetype2 2>/dev/null || missing+=(libfreetype-dev)
pkg-config --exists harfbuzz 2>/dev/null || missing+=(libharfbuzz-dev)
pkg-config --exists fribidi 2>/dev/null || missing+=(libfribidi-dev)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
command -v systemd-analyze >/dev/null || missing+=(systemd)
# The Wayland output: libwayland-client, and wayland-scanner with the protocols' XML at build time.
pkg-config --exists wayland-client 2>/dev/null && command -v wayland-scanner >/dev/null || missing+=(libwayland-dev)
pkg-config --exists wayland-protocols 2>/dev/null || missing+=(wayland-protocols)
# The X11 output: libxcb and its Composite extension (libXau and libXdmcp come with them, for the
# static build).
pkg-config --exists xcb 2>/dev/null || missing+=(libxcb1-dev)
pkg-config --exists xcb-composite 2>/dev/null || missing+=(libxcb-composite0-dev)
# Prompts: libinput reads the keyboards, xkbcommon their keymaps (XKB's data: xkb-data; dead
# keys' Compose tables: libx11-data).
pkg-config --exists libinput 2>/dev/null || missing+=(libinput-dev)
pkg-config --exists xkbcommon 2>/dev/null || missing+=(libxkbcommon-dev)
[ -d /usr/share/X11/xkb/symbols ] || missing+=(xkb-data)
[ -f /usr/share/X11/locale/en_US.UTF-8/Compose ] || missing+=(libx11-data)
# `make test` (--test): Chromium for `skeletond capture`'s tests and the web kiosk's.
# weston (headless, with weston-screenshooter) for the Wayland output's tests.
if [ "${1:-}" = "--test" ]; then
    command -v chromium >/dev/null || missing+=(chromium)
    command -v weston-screenshooter >/dev/null || missing+=(weston)
    # cage (with Xwayland, which Debian's cage starts) and grim for the web kiosk's fast form.
    command -v cage >/dev/null || missing+=(cage)
    command -v Xwayland >/dev/null || missing+=(xwayland)
    command -v grim >/dev/null || missing+=(grim)
    # The same on X: xinit starts Xvfb (Xorg's code without a card), xwd reads its screen.
    command -v xinit >/dev/null || missing+=(xinit)
    command -v Xvfb >/dev/null || missing+=(xvfb)
    command -v xwd >/dev/null || missing+=(x11-apps)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "installing jsonschema (PyPI)"
    python3 -m pip install --quiet jsonschema
fi
