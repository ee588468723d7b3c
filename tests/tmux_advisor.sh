#!/bin/sh
# `raven play --interactive --advise` in a real terminal: tmux runs it in a detached pane,
# the script types with `send-keys` and reads the screen with `capture-pane`.
#
#   1. A bad answer ("x") is refused with a reason and the prompt comes again.
#   2. Answering "1" at every prompt plays the game to its end: a final WIN or LOSS line,
#      exit code 0.
#   3. In a second game, Ctrl-D at the first prompt abandons it: an ABANDONED line, exit 0.
#   4. In a third game, Ctrl-C at the first prompt says the game was abandoned (not that no
#      output was written), exit 130.
#
# Usage: RAVEN=target/release/raven sh tests/tmux_advisor.sh   (needs tmux on PATH)
# `cargo test --release --test it advisor::` runs it when tmux is installed.
set -eu

RAVEN=${RAVEN:-target/release/raven}
case $RAVEN in /*) ;; *) RAVEN=$(pwd)/$RAVEN ;; esac
[ -x "$RAVEN" ] || { echo "no raven binary at $RAVEN (build it, or set RAVEN)" >&2; exit 1; }

# A private tmux server: nothing of the user's own tmux is touched, and it is all killed at
# the end.
SOCKET=raven-advisor-test-$$
tmux_() { tmux -L "$SOCKET" "$@"; }
trap 'tmux_ kill-server 2>/dev/null || true' EXIT

fail() {
    echo "FAIL: $1" >&2
    echo "--- screen ---" >&2
    screen >&2 || true
    exit 1
}

# Everything the current game's pane has shown, scrollback included.
screen() { tmux_ capture-pane -p -J -S - -t "$GAME"; }

# Waits (up to 60 s) until the screen matches the extended regex $1.
wait_for() {
    tries=0
    until screen | grep -Eq "$1"; do
        tries=$((tries + 1))
        [ $tries -lt 600 ] || fail "timed out waiting for /$1/"
        sleep 0.1
    done
}

# How many prompts the screen has shown.
prompts() { screen | grep -o 'Your choice (1-[0-9]*)' | wc -l; }

# Waits (up to 60 s) until the screen has shown at least $1 prompts. raven writes a refusal
# and the prompt that follows it separately, so a capture may fall between the two: the
# count is waited for, never read once.
wait_for_prompts() {
    tries=0
    until [ "$(prompts)" -ge "$1" ]; do
        tries=$((tries + 1))
        [ $tries -lt 600 ] || fail "$2"
        sleep 0.1
    done
}

# Starts game $1 (a session of that name) with seed $2. The pane stays open after raven
# exits (the exit code is printed), so the screen can still be read; sessions are never
# killed one by one (the server would exit with the last, racing the next start), only the
# whole server at the end. history-limit applies to panes made after it is set, so it is set
# first, in the same command.
start() {
    GAME=$1
    tmux_ set-option -g history-limit 20000 \; new-session -d -s "$GAME" -x 160 -y 50 \
        "$RAVEN play --interactive --advise --stealth 3 --seed $2; echo EXIT=\$?; sleep 600"
}

# --- 1 and 2: a bad answer, then "1" at every prompt until the game ends ---
start first 7
wait_for 'Your choice \(1-[0-9]+\)'
tmux_ send-keys -t "$GAME" x Enter
wait_for "'x' is not a number: type a number from 1 to [0-9]+"
wait_for_prompts 2 "no prompt after the refused answer"
sent=1
tries=0
while ! screen | grep -q '^EXIT='; do
    if [ "$(prompts)" -gt "$sent" ]; then
        tmux_ send-keys -t "$GAME" 1 Enter
        sent=$((sent + 1))
        tries=0
    else
        tries=$((tries + 1))
        [ $tries -lt 600 ] || fail "no new prompt for 60 s after $sent answers"
        sleep 0.1
    fi
done
screen | grep -Eq '^(WIN|LOSS: .*)$' || fail "the game did not end in WIN or LOSS"
screen | grep -q '^EXIT=0$' || fail "exit code not 0"
screen | grep -q '= win probability' || fail "no advice after the rolls"
screen | grep -q '? \*' || fail "no best option marked"
echo "ok: a game of $sent answers played to its end in tmux"

# --- 3: Ctrl-D abandons the game ---
start second 8
wait_for 'Your choice \(1-[0-9]+\)'
tmux_ send-keys -t "$GAME" C-d
wait_for '^EXIT='
screen | grep -q '^ABANDONED' || fail "Ctrl-D did not abandon the game"
screen | grep -q '^EXIT=0$' || fail "Ctrl-D: exit code not 0"
echo "ok: Ctrl-D abandons the game with exit code 0"

# --- 4: Ctrl-C at a prompt says what it did ---
start third 9
wait_for 'Your choice \(1-[0-9]+\)'
tmux_ send-keys -t "$GAME" C-c
wait_for '^EXIT='
screen | grep -q 'interrupted at the prompt: the game was abandoned' \
    || fail "Ctrl-C did not say the game was abandoned"
screen | grep -q 'no output was written' && fail "Ctrl-C said no output was written"
screen | grep -q '^EXIT=130$' || fail "Ctrl-C: exit code not 130"
echo "ok: Ctrl-C at a prompt abandons the game with exit code 130 and says so"
