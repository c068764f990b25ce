#!/usr/bin/env bash
# `dist/check-glibc.sh BINARY...`: prints the highest glibc symbol version each Linux binary needs
# (`objdump -T`), and fails when one needs more than glibc 2.17, the glibc of manylinux2014 that
# dist/build.sh links against. dist/test.sh and the release workflow run it.
set -euo pipefail
MAX=2.17
command -v objdump >/dev/null || {
    echo "dist/check-glibc.sh: objdump (binutils) is needed" >&2
    exit 1
}
status=0
for binary in "$@"; do
    needed=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1 || true)
    if [ -z "$needed" ]; then
        echo "dist/check-glibc.sh: objdump -T finds no glibc symbol version in $binary" >&2
        status=1
    elif [ "$(printf 'GLIBC_%s\n%s\n' "$MAX" "$needed" | sort -V | tail -1)" != "GLIBC_$MAX" ]; then
        echo "dist/check-glibc.sh: $binary needs $needed, above glibc $MAX" >&2
        status=1
    else
        echo "$binary needs $needed (at most GLIBC_$MAX)"
    fi
done
exit "$status"
