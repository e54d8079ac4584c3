#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (ASan, release) into .build-fuzz and runs them.
#
#   scripts/fuzz.sh full [TARGET...]    each to 1,000,000 executions (`make fuzz`)
#   scripts/fuzz.sh short [TARGET...]   each to 10,000 executions from seed 1 (the same work on every
#                                       machine), then every input of fuzz/regressions/ (`make test`)
#   scripts/fuzz.sh replay [TARGET...]  only the inputs of fuzz/regressions/
#   scripts/fuzz.sh build [TARGET...]   only the build
#
# Targets: layout protocol settings boot png, FUZZ_JOBS (default: the number of cores) at a time.
# New inputs go to .build-fuzz/corpus/TARGET (the seeds of fuzz/corpus/TARGET are only read),
# an input that crashes to .build-fuzz/artifacts/TARGET/, libFuzzer's output to .build-fuzz/logs/.
# Prints a table of executions per target; exits 1 when a target crashed or a regression input fails.
set -uo pipefail
cd "$(dirname "$0")/.."

SCRATCH=.build-fuzz
ALL_TARGETS=(layout protocol settings boot png)
RUNS=${FUZZ_RUNS:-1000000}
SHORT_RUNS=${FUZZ_SHORT_RUNS:-10000}
JOBS=${FUZZ_JOBS:-$(nproc)}
# A slower input is a finding: the daemon parses on its one thread.
TIMEOUT=${FUZZ_TIMEOUT:-10}

mode=${1:-}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

product() {
    case $1 in
        layout) echo FuzzLayout ;; protocol) echo FuzzProtocol ;; settings) echo FuzzSettings ;;
        boot) echo FuzzBoot ;; png) echo FuzzPNG ;;
        *) echo "unknown fuzz target $1 (one of: ${ALL_TARGETS[*]})" >&2; return 1 ;;
    esac
}

# libFuzzer options of a target beyond the common ones: its dictionary (the JSON targets' adds
# JSON's tokens) and, for the protocol, inputs of a few lines (a line is at most 256 bytes in the
# target, so overlong ones are still reached; each line costs the decoder and the reply encoder).
options() {
    local target=$1 dict=$SCRATCH/dict/$1.dict
    case $target in
        layout|protocol|settings) cat fuzz/dict/json.dict "fuzz/dict/$target.dict" > "$dict" ;;
        *) cp "fuzz/dict/$target.dict" "$dict" ;;
    esac
    echo "-dict=$dict"
    [ "$target" = protocol ] && echo "-max_len=640"
}

build() {
    local target name
    for target in "${targets[@]}"; do
        name=$(product "$target") || return 1
        # One -sanitize= list: swiftc keeps only the last of several, and `--sanitize` given twice
        # builds without coverage. `--sanitize fuzzer` still tells SwiftPM that libFuzzer has the
        # main function. lld: gold warns about an ASan symbol.
        SKELETOND_FUZZ=1 swift build --scratch-path "$SCRATCH" -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
            -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld --product "$name" 2>&1 | grep -v '^\[' || true
        [ -x "$SCRATCH/release/$name" ] || { echo "fuzz target $name did not build" >&2; return 1; }
    done
}

# Fuzzes a target with libFuzzer limits (-runs=N, -seed=S), split into words; prints its table row.
fuzz() {
    local limit=$1 target=$2 log=$SCRATCH/logs/$2.log runs secs rate result
    mkdir -p "$SCRATCH/corpus/$target" "$SCRATCH/artifacts/$target"
    # shellcheck disable=SC2046,SC2086 # the limits and options are words
    "$SCRATCH/release/$(product "$target")" $limit -timeout="$TIMEOUT" $(options "$target") \
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
        # A Swift trap's own message first: ASan then reports a crash inside the Swift backtracer.
        result="FAILED: $( (grep -m1 -E 'Swift runtime failure|Fatal error' "$log" ||
            grep -m1 -E '^==[0-9]+== ?ERROR|^SUMMARY|^ALARM|deadly signal' "$log") | sed 's/^[* ]*//' | cut -c1-90)"
        result+=" (input: $(ls -t "$SCRATCH/artifacts/$target" | head -1), log: $log)"
    fi
    printf '%-9s %10s %8s %9s  %s\n' "$target" "${runs:--}" "${secs:--}" "${rate:--}" "$result"
}

# Runs every checked-in crash input of a target once; prints one line.
replay() {
    local target=$1 log=$SCRATCH/logs/$1-replay.log inputs
    mapfile -t inputs < <(find "fuzz/regressions/$target" -type f ! -name '.*' 2>/dev/null | sort)
    if [ ${#inputs[@]} -eq 0 ]; then
        printf '%-9s %s\n' "$target" "no regression inputs"
    elif "$SCRATCH/release/$(product "$target")" -timeout="$TIMEOUT" "${inputs[@]}" > "$log" 2>&1; then
        printf '%-9s %s\n' "$target" "${#inputs[@]} regression inputs pass"
    else
        printf '%-9s %s\n' "$target" "FAILED: $(grep '^Running: ' "$log" | tail -1 | cut -c10-) crashes again (log: $log)"
    fi
}

# Runs `$@ TARGET` for every target, JOBS at a time, and prints their lines in target order.
each_target() {
    local target
    for target in "${targets[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        "$@" "$target" > "$SCRATCH/logs/$target.row" &
    done
    wait
    for target in "${targets[@]}"; do cat "$SCRATCH/logs/$target.row"; done
}

[ "$mode" = build ] || [ "$mode" = full ] || [ "$mode" = short ] || [ "$mode" = replay ] || {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}
build || exit 1
[ "$mode" = build ] && exit 0
mkdir -p "$SCRATCH/logs" "$SCRATCH/dict"
output=$SCRATCH/logs/summary.txt
{
    if [ "$mode" != replay ]; then
        if [ "$mode" = full ]; then limit=-runs=$RUNS; else limit="-runs=$SHORT_RUNS -seed=1"; fi
        echo "fuzzing with $limit, an input slower than ${TIMEOUT}s is a finding, $JOBS at a time"
        printf '%-9s %10s %8s %9s  %s\n' target runs seconds 'runs/s' result
        each_target fuzz "$limit"
    fi
    if [ "$mode" != full ]; then each_target replay; fi
} | tee "$output"
if grep -q FAILED "$output"; then
    echo "fuzzing found problems: a crashing input is replayed with .build-fuzz/release/FuzzTARGET FILE (docs: fuzzing)"
    exit 1
fi
