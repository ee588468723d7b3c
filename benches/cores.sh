#!/usr/bin/env bash
# How the decompositions scale with cores: `raven decisions` of every bundled strategy at
# stealth 8, 10 and 12 in one run, at 1, 2, 4, 8 and 16 threads, for each binary named (paired:
# the binaries take turns at each thread count). Prints one line per run (binary, threads,
# wall seconds, CPU seconds, peak memory) and checks that every run's CSV is byte-identical to
# the first run's (the first binary at the first thread count).
#
#   benches/cores.sh target/release/raven [other-raven ...]
#
# THREADS and ROUNDS override the thread counts (default "1 2 4 8 16") and the rounds (1).
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: benches/cores.sh RAVEN [RAVEN ...]" >&2
  exit 2
fi
threads=${THREADS:-1 2 4 8 16}
rounds=${ROUNDS:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
strategies=(reckless cautious medic-main side-maximiser reference no-first-aid duo lone-wolf)
args=()
for s in "${strategies[@]}"; do args+=(--strategy "$s"); done
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores"
printf '%-24s %7s %8s %8s %9s\n' binary threads wall_s cpu_s peak_MB
first=""
for round in $(seq "$rounds"); do
  for t in $threads; do
    i=0
    for bin in "$@"; do
      i=$((i + 1))
      csv="$out/$i-$t-$round.csv"
      python3 - "$bin" decisions "${args[@]}" --stealth 8,10,12 --threads "$t" --quiet \
        --out "$csv" <<'PY' >"$out/time"
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
wall = time.monotonic() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{wall:.2f} {used.ru_utime + used.ru_stime:.2f} {used.ru_maxrss // 1024}")
PY
      read -r wall cpu mb <"$out/time"
      printf '%-24s %7s %8s %8s %9s\n' "$bin" "$t" "$wall" "$cpu" "$mb"
      [ -n "$first" ] || first=$csv
      cmp -s "$first" "$csv" || echo "  DIFFERS from the first run"
    done
  done
done
