#!/usr/bin/env bash
# Debian 12 ships the keyboard stack shared only (libevdev-dev alone has an archive, libevdev.a), so
# the static build compiles Debian's sources into build/input/: libxkbcommon.a, libudev.a,
# libmtdev.a and libinput.a. The static link needs, in this order, after -L build/input (libevdev.a
# is in the default path):  -linput -lmtdev -levdev -ludev -lxkbcommon -lm   (ld's warning that
# getpwnam & co. need glibc's shared NSS comes from systemd code libudev does not call.)
# - libxkbcommon: the version libxkbcommon-dev installs, with Debian's paths: keymaps from
#   /usr/share/X11/xkb (xkb-data), compose tables from /usr/share/X11/locale (libx11-data); without
#   X11, Wayland, its tools or xkbregistry (which needs libxml2).
# - libudev: systemd's own, libudev1's version, by its static-libudev option (no Debian suite has
#   libudev-zero); the link takes only what libudev calls. It reads udevd's database: libinput takes
#   a device once udevd has seen it (it waits 2 s for that); the initramfs runs udevd.
# - libinput, mtdev: the Debian mirror here serves neither Debian 12's libinput 1.22.1 tarball nor
#   mtdev 1.1.6's files, so they are Debian 13's, checked against the sha256 in trixie's Sources:
#   libinput 1.28.1 with Debian's patches, mtdev 1.1.7 (its packaging is not served). libinput keeps
#   its ABI: code compiled with libinput-dev's 1.22 header links to it. It reads device quirks from
#   /usr/share/libinput, but rejects Debian 12's (renamed keys): build/input/quirks has its own.
# Done once; the archives are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/input
[ -f "$out/libinput.a" ] && exit 0
missing=()
# gperf, python3-jinja2, libcap-dev, libmount-dev: systemd's configure; libinput-dev, libudev-dev: headers.
for pkg in dpkg-dev curl gcc meson ninja-build bison gperf pkg-config python3-jinja2 libcap-dev libmount-dev \
    libevdev-dev libxkbcommon-dev libinput-dev libudev-dev xkb-data; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
pool=http://deb.debian.org/debian/pool/main
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
quiet() { "$@" >"$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }; }
# A source package by its .dsc, which names its files; dpkg-source checks them, applies Debian's patches.
debsource() { # pool folder, name, version
    curl -sSfL -o "$work/$2_$3.dsc" "$pool/$1/$2_$3.dsc"
    for file in $(sed -n '/^Files:/,/^$/p' "$work/$2_$3.dsc" | awk 'NF == 3 { print $3 }'); do
        curl -sSfL -o "$work/$file" "$pool/$1/$file"
    done
    dpkg-source --no-check -x "$work/$2_$3.dsc" "$work/$2" >/dev/null
}
tarball() { # pool folder, file, its sha256, where to unpack
    curl -sSfL -o "$work/$2" "$pool/$1/$2"
    echo "$3  $work/$2" | sha256sum -c --quiet
    mkdir -p "$4" && tar -xf "$work/$2" -C "$4"
}
mkdir -p "$out"
version=$(dpkg-query -W -f='${Version}' libxkbcommon-dev)
debsource libx/libxkbcommon libxkbcommon "$version"
quiet meson setup "$work/xkb" "$work/libxkbcommon" --prefix=/usr -Dbuildtype=release -Ddefault_library=static \
    -Dxkb-config-root=/usr/share/X11/xkb -Denable-x11=false -Denable-wayland=false -Denable-docs=false \
    -Denable-tools=false -Denable-xkbregistry=false
quiet ninja -C "$work/xkb" libxkbcommon.a
cp "$work/xkb/libxkbcommon.a" "$out/"
echo "$out/libxkbcommon.a: libxkbcommon $version from Debian's source"
version=$(dpkg-query -W -f='${Version}' libudev1)
debsource s/systemd systemd "$version"
# Every optional dependency of systemd off: libudev needs none of them.
off=$(grep -B1 "choices : \['auto', 'true', 'false'\]" "$work/systemd/meson_options.txt" | sed -n "s/^option('\([^']*\)'.*/-D\1=false/p")
quiet meson setup "$work/udev" "$work/systemd" --prefix=/usr -Dbuildtype=release -Dauto_features=disabled $off \
    -Dstatic-libudev=true -Dtests=false
quiet ninja -C "$work/udev" version.h  # libudev.a's sources include it without depending on it
quiet ninja -C "$work/udev" libudev.a
cp "$work/udev/libudev.a" "$out/"
echo "$out/libudev.a: systemd $version's libudev from Debian's source"
tarball m/mtdev mtdev_1.1.7.orig.tar.gz a55bd02a9af4dd266c0042ec608744fff3a017577614c057da09f1f4566ea32c "$work"
(cd "$work" && gcc -O2 -fPIC -Imtdev-1.1.7/include -c mtdev-1.1.7/src/*.c && ar rcs "$OLDPWD/$out/libmtdev.a" ./*.o)
echo "$out/libmtdev.a: mtdev 1.1.7 from Debian 13's tarball"
src=$work/libinput-1.28.1
tarball libi/libinput libinput_1.28.1.orig.tar.gz a13f8c9a7d93df3c85c66afd135f0296701d8d32f911991b7aa4273fdd6a42a3 "$work"
tarball libi/libinput libinput_1.28.1-1+deb13u1.debian.tar.xz \
    413b1238c335cced8f2698fc0bc8c0c6605034324a9528d841726ba1d3575f56 "$src"
for patch in $(grep -v '^#' "$src/debian/patches/series"); do patch -s -p1 -d "$src" < "$src/debian/patches/$patch"; done
# libinput finds mtdev and libudev by pkg-config: these, not Debian's shared ones.
mkdir -p "$work/pc"
pc() { printf 'Name: %s\nDescription: static\nVersion: %s\nCflags: -I%s\nLibs: -L%s -l%s\n' "$1" "$2" "$3" "$PWD/$out" "${1#lib}" > "$work/pc/$1.pc"; }
pc mtdev 1.1.7 "$work/mtdev-1.1.7/include"
pc libudev "${version%%.*}" "$work/systemd/src/libudev"
PKG_CONFIG_PATH=$work/pc quiet meson setup "$work/input" "$src" --prefix=/usr -Dbuildtype=release \
    -Dlibwacom=false -Ddebug-gui=false -Dtests=false -Ddocumentation=false -Dzshcompletiondir=no
# libinput builds only a shared library, from its own objects and three internal archives: the one
# archive gets all their objects (compiled position-independent, fine in a static executable).
library=$(ninja -C "$work/input" -t targets all | sed -n 's/^\(libinput\.so\.[0-9.]*\):.*/\1/p')
quiet ninja -C "$work/input" "$library"
ar rcs "$out/libinput.a.partial" "$work/input"/*.p/*.o
mkdir -p "$out/quirks" && cp "$src"/quirks/*.quirks "$out/quirks/"
mv "$out/libinput.a.partial" "$out/libinput.a"
echo "$out/libinput.a: libinput 1.28.1-1+deb13u1 from Debian 13's source"
