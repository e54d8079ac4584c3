#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (ASan, release) into .build-fuzz and runs them.
#
#   scripts/fuzz.sh full [TARGET...]    each to 1,000,000 executions (`make fuzz`)
#   scripts/fuzz.sh short [TARGET...]   each for 10 s, then every input of fuzz/regressions/ (`make test`)
#   scripts/fuzz.sh replay [TARGET...]  only the inputs of fuzz/regressions/
#   scripts/fuzz.sh build               only the build
#
# Targets: layout protocol settings boot png. New inputs go to .build-fuzz/corpus/TARGET (the
# checked-in seeds of fuzz/corpus/TARGET are only read), crashing ones to .build-fuzz/artifacts/TARGET/.
# Prints a table of executions per target; exits 1 when a target crashed or a regression input fails.
set -uo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build-fuzz
ALL_TARGETS=(layout protocol settings boot png)
RUNS=${FUZZ_RUNS:-1000000}
SECONDS_SHORT=${FUZZ_SECONDS:-10}
# A slower input than this is a finding: the daemon parses on its one thread.
TIMEOUT=${FUZZ_TIMEOUT:-10}

mode=${1:-}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

binary() {
    case $1 in
        layout) echo FuzzLayout ;; protocol) echo FuzzProtocol ;; settings) echo FuzzSettings ;;
        boot) echo FuzzBoot ;; png) echo FuzzPNG ;;
        *) echo "unknown fuzz target $1 (one of: ${ALL_TARGETS[*]})" >&2; return 1 ;;
    esac
}

dictionary() {
    local target=$1 out=$SCRATCH/dict/$1.dict
    mkdir -p "$SCRATCH/dict"
    case $target in
        layout|protocol|settings) cat fuzz/dict/json.dict "fuzz/dict/$target.dict" > "$out" ;;
        *) cp "fuzz/dict/$target.dict" "$out" ;;
    esac
    echo "$out"
}

build() {
    local target product
    for target in "${targets[@]}"; do
        product=$(binary "$target") || return 1
        # One -sanitize= list: swiftc keeps only the last of several (`--sanitize` twice gives no coverage).
        # lld: gold warns about an ASan symbol.
        SKELETOND_FUZZ=1 swift build --scratch-path "$SCRATCH" -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
            -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld --product "$product" 2>&1 | grep -v '^\[' || true
        [ -x "$SCRATCH/release/$product" ] || { echo "fuzz target $product did not build" >&2; return 1; }
    done
}

# Fuzzes one target with the given libFuzzer limit; prints its table row.
fuzz() {
    local target=$1 limit=$2 product log runs secs rate result
    product=$(binary "$target")
    log=$SCRATCH/logs/$target.log
    mkdir -p "$SCRATCH/corpus/$target" "$SCRATCH/artifacts/$target" "$SCRATCH/logs"
    "$SCRATCH/release/$product" "$limit" -timeout="$TIMEOUT" -dict="$(dictionary "$target")" \
        -artifact_prefix="$SCRATCH/artifacts/$target/" -print_final_stats=1 \
        "$SCRATCH/corpus/$target" "fuzz/corpus/$target" > "$log" 2>&1
    local status=$?
    # libFuzzer's last line when all went well: "Done 1000000 runs in 93 second(s)".
    read -r runs secs < <(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second(s)$/\1 \2/p' "$log")
    if [ $status -eq 0 ] && [ -n "${runs:-}" ]; then
        result=ok
        rate=$((runs / (secs > 0 ? secs : 1)))
    else
        # A crash ends the run early; -print_final_stats still tells how far it got.
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        secs=-
        [ -n "$runs" ] && [ -n "$rate" ] && [ "$rate" -gt 0 ] && secs=$((runs / rate))
        result="FAILED: $(grep -m1 -E '^==[0-9]+== ?ERROR|^SUMMARY|Fatal error|^ALARM|deadly signal' "$log" | cut -c1-90) (log: $log)"
        failed+=("$target")
    fi
    printf '%-9s %10s %8s %9s  %s\n' "$target" "${runs:--}" "${secs:--}" "${rate:--}" "$result"
}

# Runs every checked-in crash input of a target once.
replay() {
    local target=$1 product inputs
    product=$(binary "$target")
    mapfile -t inputs < <(find "fuzz/regressions/$target" -type f ! -name '.*' ! -name '*.md' 2>/dev/null | sort)
    if [ ${#inputs[@]} -eq 0 ]; then
        printf '%-9s %s\n' "$target" "no regression inputs"
        return
    fi
    mkdir -p "$SCRATCH/logs"
    if "$SCRATCH/release/$product" -timeout="$TIMEOUT" "${inputs[@]}" > "$SCRATCH/logs/$target-replay.log" 2>&1; then
        printf '%-9s %s\n' "$target" "${#inputs[@]} regression inputs pass"
    else
        printf '%-9s %s\n' "$target" "FAILED: a regression input crashes again; see $SCRATCH/logs/$target-replay.log"
        failed+=("$target (regression)")
    fi
}

failed=()
case $mode in
    build) build || exit 1 ;;
    full|short)
        build || exit 1
        if [ "$mode" = full ]; then limit=-runs=$RUNS; else limit=-max_total_time=$SECONDS_SHORT; fi
        echo "fuzzing with $limit, per-input timeout ${TIMEOUT}s"
        printf '%-9s %10s %8s %9s  %s\n' target runs seconds 'runs/s' result
        for target in "${targets[@]}"; do fuzz "$target" "$limit"; done
        if [ "$mode" = short ]; then
            for target in "${targets[@]}"; do replay "$target"; done
        fi
        ;;
    replay)
        build || exit 1
        for target in "${targets[@]}"; do replay "$target"; done
        ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found problems in: ${failed[*]} (a crashing input: .build-fuzz/artifacts/TARGET/; see docs on fuzzing)"
    exit 1
fi
