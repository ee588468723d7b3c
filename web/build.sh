#!/usr/bin/env bash
# Builds the raven explorer: raven-core compiled to WebAssembly and the page's scripts, all
# inlined into one self-contained HTML file (works from file://, offline, on any static host).
#
#   web/build.sh            ->  target/raven-explorer.html  (under $CARGO_TARGET_DIR if set)
#
# Needs cargo and the wasm32 target (added here through rustup when missing), base64 and awk.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
out="${1:-$target_dir/raven-explorer.html}"

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
cargo build -p raven-web --release --target wasm32-unknown-unknown
wasm="$target_dir/wasm32-unknown-unknown/release/raven_web.wasm"

# A script may not close its own <script> element early.
if grep -il '</script' web/app.js web/annulus.js web/worker.js; then
    echo "web/build.sh: a script contains '</script', which would end its element" >&2
    exit 1
fi
encoded="$(mktemp)"
trap 'rm -f "$encoded"' EXIT
base64 -w0 "$wasm" >"$encoded"
mkdir -p "$(dirname "$out")"
awk -v style=web/style.css -v worker=web/worker.js -v app=web/app.js -v annulus=web/annulus.js -v wasm="$encoded" '
    function emit(file,   line) { while ((getline line < file) > 0) print line; close(file) }
    $0 == "/*STYLE*/"  { emit(style); next }
    $0 == "/*WORKER*/" { emit(worker); next }
    $0 == "/*ANNULUS*/" { emit(annulus); next }
    $0 == "/*APP*/"    { emit(app); next }
    $0 == "/*WASM*/"   { emit(wasm); print ""; next }
    { print }
' web/index.html >"$out.tmp"
mv "$out.tmp" "$out"
echo "web/build.sh: $out ($(wc -c <"$out") bytes; the engine $(wc -c <"$wasm") bytes)"
