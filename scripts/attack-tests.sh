#!/usr/bin/env bash
# Issue 24's attacks (Tests/SkeletonDaemonTests/AttackTests.swift) against the release daemon:
# the static one of scripts/build-static.sh (rebuilt only if the sources changed), with the
# debug test bundle `swift build --build-tests` made.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-static.sh > /dev/null
swift build --build-tests > /dev/null
SKELETOND_ATTACK_EXECUTABLE="$PWD/build/static/skeletond" swift test --skip-build --filter AttackTests
