#!/usr/bin/env bash
# Debian 12 ships HarfBuzz shared only (libharfbuzz-dev has no libharfbuzz.a), so the static
# build (scripts/build-static.sh) compiles Debian's own HarfBuzz source, the very version
# libharfbuzz-dev installs with Debian's patches, from its one-file amalgamation (harfbuzz.cc,
# no graphite2, no glib, no FreeType: skeletond's text uses HarfBuzz's own font functions)
# into build/harfbuzz/libharfbuzz.a. Done once; the archive is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/harfbuzz
[ -f "$out/libharfbuzz.a" ] && exit 0
missing=()
command -v dpkg-source >/dev/null || missing+=(dpkg-dev)
command -v curl >/dev/null || missing+=(curl)
command -v g++ >/dev/null || missing+=(g++)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
version=$(dpkg-query -W -f='${Version}' libharfbuzz-dev)
upstream=${version%-*}
pool=http://deb.debian.org/debian/pool/main/h/harfbuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for file in "harfbuzz_$version.dsc" "harfbuzz_$upstream.orig.tar.xz" "harfbuzz_$version.debian.tar.xz"; do
    curl -sSfL -o "$work/$file" "$pool/$file"
done
dpkg-source --no-check -x "$work/harfbuzz_$version.dsc" "$work/src" >/dev/null
mkdir -p "$out"
g++ -O2 -fno-exceptions -fno-rtti -fno-threadsafe-statics -c "$work/src/src/harfbuzz.cc" -o "$work/harfbuzz.o"
ar rcs "$out/libharfbuzz.a.partial" "$work/harfbuzz.o"
mv "$out/libharfbuzz.a.partial" "$out/libharfbuzz.a"
echo "$out/libharfbuzz.a: HarfBuzz $version from Debian's source"
