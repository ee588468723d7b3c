#!/usr/bin/env bash
# Thread scaling of `raven simulate`: 4,000,000 games at stealth 10 on 1 thread, then on 2.
# The numbers are only meaningful on a quiet machine: the load average is printed before and
# after. Usage: benches/scaling.sh [extra hyperfine options, e.g. --runs 10]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
raven=target/release/raven
args="simulate --games 4000000 --stealth 10 --quiet"
echo "cores: $(nproc); before: $(uptime)"
if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 5 "$@" \
        "$raven $args --threads 1" \
        "$raven $args --threads 2"
else
    echo "hyperfine not found (apt-get install -y hyperfine); one run each with time(1):"
    for threads in 1 2; do
        /usr/bin/time -f "--threads $threads: %e s wall, %U s user" \
            $raven $args --threads $threads >/dev/null
    done
fi
echo "after: $(uptime)"
