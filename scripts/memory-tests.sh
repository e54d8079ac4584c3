#!/usr/bin/env bash
# Issue 48's bounded memory in short: 200,000 mixed commands against the static release daemon
# (scripts/build-static.sh, rebuilt only if the sources changed); fails when its resident size
# grew by more than 1 MiB after the first 20,000, or its descriptors or threads changed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-static.sh > /dev/null
build/static/skeletond bench-control --memory --commands 200000
