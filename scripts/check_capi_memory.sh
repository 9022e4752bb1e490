#!/usr/bin/env bash
# Runs the C ABI drivers (tests/capi/driver.c and driver.cpp) under valgrind's memcheck and as
# AddressSanitizer + UndefinedBehaviorSanitizer builds; fails on any memory error or leak (definite,
# indirect or possible) and on any failed driver check. Run from anywhere: scripts/check_capi_memory.sh
#
# The binaries are built by tests/capi_drivers.rs (the same compile commands as `cargo test`) into
# <target>/capi-drivers/. The sanitizer builds instrument the C / C++ side; the Rust library is not
# instrumented, but its heap goes through the sanitizer's malloc, so leaks, double frees and frees
# across the boundary are still caught. Suppressions: scripts/capi_valgrind.supp (one, explained).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo test --release --test capi_drivers -- --exact the_drivers_build_with_warnings_as_errors
dir="${CARGO_TARGET_DIR:-target}/capi-drivers"

# A panic's backtrace would be symbolised and cached for the rest of the process (tens of MB
# "still reachable"); the drivers check the message, not the backtrace.
export RUST_BACKTRACE=0
status=0
for driver in driver_c driver_cpp; do
    printf '\n==> valgrind %s\n' "$driver"
    log="$dir/$driver.valgrind.log"
    set +e
    valgrind --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
        --suppressions=scripts/capi_valgrind.supp --log-file="$log" "$dir/$driver" all
    rc=$?
    set -e
    grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable|suppressed:' "$log" \
        | grep -v 'loss record' || true
    case $rc in
        0) ;;
        99) echo "valgrind: memory errors or leaks in $driver (see $log)"; status=1 ;;
        *) echo "$driver: checks failed (exit $rc)"; status=1 ;;
    esac
done

for driver in driver_c_asan driver_cpp_asan; do
    printf '\n==> %s (AddressSanitizer, LeakSanitizer, UBSan)\n' "$driver"
    set +e
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 "$dir/$driver" all
    rc=$?
    set -e
    if [ $rc -ne 0 ]; then
        echo "$driver: exit $rc (a sanitizer report or failed checks above)"
        status=1
    fi
done

if [ $status -eq 0 ]; then
    printf '\nC ABI drivers: no memory errors, no leaks\n'
fi
exit $status
