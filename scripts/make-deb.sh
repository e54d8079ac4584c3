#!/usr/bin/env bash
# `make deb`: builds build/deb/skeletond_VERSION_ARCH.deb with Debian's tools (debhelper,
# dpkg-buildpackage) from debian/, then runs lintian on it. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v dh >/dev/null || missing+=(debhelper)
command -v lintian >/dev/null || missing+=(lintian)
command -v fakeroot >/dev/null || missing+=(fakeroot)
dpkg -s pkgconf >/dev/null 2>&1 || dpkg -s pkg-config >/dev/null 2>&1 || missing+=(pkgconf)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
scripts/install-deps.sh
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
mkdir -p build
# -d: the Swift toolchain is not a Debian package, so it cannot be a build dependency.
dpkg-buildpackage -b -us -uc -d >build/deb-build.log 2>&1 || { tail -40 build/deb-build.log; exit 1; }
mkdir -p build/deb
for file in ../skeletond_"$version"_"$arch".deb ../skeletond_"$version"_"$arch".buildinfo ../skeletond_"$version"_"$arch".changes \
        ../skeletond-dbgsym_"$version"_"$arch".deb; do
    [ -e "$file" ] && mv "$file" build/deb/
done
deb=build/deb/skeletond_"$version"_"$arch".deb
echo "$deb: $(stat -c %s "$deb") bytes"
# lintian: no errors and no warnings (an override in debian/skeletond.lintian-overrides, with a
# comment saying why, for what must stay). --fail-on warning fails on both.
lintian --fail-on warning "$deb"
