#!/usr/bin/env bash
# Debian 12 ships libwayland-client shared only (libwayland-dev has no .a), so the static build
# (scripts/build-static.sh) compiles Debian's own wayland source, the version libwayland-dev
# installs with Debian's patches, into build/wayland/libwayland-client.a: the client library's
# four files and the core protocol's code, which wayland-scanner generates from the source's
# protocol/wayland.xml, as the library's own build does. libffi is Debian's libffi.a. Done once;
# the archive is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/wayland
[ -f "$out/libwayland-client.a" ] && exit 0
missing=()
command -v dpkg-source >/dev/null || missing+=(dpkg-dev)
command -v curl >/dev/null || missing+=(curl)
command -v gcc >/dev/null || missing+=(gcc)
[ -f /usr/lib/x86_64-linux-gnu/libffi.a ] || [ -n "$(find /usr/lib -name libffi.a 2>/dev/null | head -1)" ] || missing+=(libffi-dev)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
version=$(dpkg-query -W -f='${Version}' libwayland-dev)
pool=http://deb.debian.org/debian/pool/main/w/wayland
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -sSfL -o "$work/wayland_$version.dsc" "$pool/wayland_$version.dsc"
# The .dsc names the other files (an orig tarball and a diff or a debian tarball).
for file in $(sed -n '/^Files:/,/^$/p' "$work/wayland_$version.dsc" | awk 'NF == 3 { print $3 }'); do
    curl -sSfL -o "$work/$file" "$pool/$file"
done
dpkg-source --no-check -x "$work/wayland_$version.dsc" "$work/src" >/dev/null
src=$work/src
# config.h as the library's meson.build finds it on Linux with glibc.
cat > "$src/config.h" <<'CONFIG'
#define HAVE_SYS_PRCTL_H 1
#define HAVE_ACCEPT4 1
#define HAVE_MKOSTEMP 1
#define HAVE_POSIX_FALLOCATE 1
#define HAVE_PRCTL 1
#define HAVE_MEMFD_CREATE 1
#define HAVE_MREMAP 1
#define HAVE_STRNDUP 1
#define HAVE_XUCRED_CR_PID 0
#define HAVE_BROKEN_MSG_CMSG_CLOEXEC 0
CONFIG
wayland-scanner -s public-code "$src/protocol/wayland.xml" "$work/wayland-protocol.c"
wayland-scanner -s client-header "$src/protocol/wayland.xml" "$work/wayland-client-protocol.h"
sed "s/@WAYLAND_VERSION_MAJOR@/${version%%.*}/; s/@WAYLAND_VERSION_MINOR@/$(echo "$version" | cut -d. -f2)/; s/@WAYLAND_VERSION_MICRO@/$(echo "${version%-*}" | cut -d. -f3)/; s/@WAYLAND_VERSION@/${version%-*}/" \
    "$src/src/wayland-version.h.in" > "$work/wayland-version.h"
mkdir -p "$out"
objects=()
for file in "$src/src/connection.c" "$src/src/wayland-os.c" "$src/src/wayland-util.c" "$src/src/wayland-client.c" "$work/wayland-protocol.c"; do
    object=$work/$(basename "$file" .c).o
    gcc -O2 -std=c99 -fvisibility=hidden -I"$src" -I"$src/src" -I"$work" $(pkg-config --cflags libffi) -c "$file" -o "$object"
    objects+=("$object")
done
ar rcs "$out/libwayland-client.a.partial" "${objects[@]}"
mv "$out/libwayland-client.a.partial" "$out/libwayland-client.a"
echo "$out/libwayland-client.a: wayland $version from Debian's source"
