#!/bin/sh
# Runs one bench script for an earlier build and for this tree, alternating,
# in the same session: the way to show that a change did not make a figure
# worse on a noisy shared machine. REV is built in a temporary worktree.
# Usage: bench/builds.sh REV SCRIPT [ARGS...]   (env ROUNDS, default 2)
#   e.g. bench/builds.sh 060322b tokenizer.sh llama3 qwen3 o200k_base
set -eu
[ $# -ge 2 ] || { echo "usage: bench/builds.sh REV SCRIPT [ARGS...]" >&2; exit 2; }
TOP=$(cd "$(dirname "$0")/.." && pwd)
REV=$1 SCRIPT=$2
shift 2
ROUNDS=${ROUNDS:-2}
[ -f "$TOP/bench/$SCRIPT" ] || { echo "builds: no bench/$SCRIPT" >&2; exit 2; }
BASE=$(mktemp -d)
trap 'git -C "$TOP" worktree remove --force "$BASE" 2>/dev/null; rm -rf "$BASE"' EXIT
git -C "$TOP" worktree add -q --detach "$BASE" "$REV"
# ../shared beside the base tree, as beside this one
[ -e "$BASE/../shared" ] || ln -s "$TOP/../shared" "$(dirname "$BASE")/shared" 2>/dev/null || true
# a script newer than REV runs there as it is here
[ -f "$BASE/bench/$SCRIPT" ] || cp "$TOP/bench/$SCRIPT" "$BASE/bench/"
echo "builds: building $REV in $BASE" >&2
make -C "$BASE" -s -j2 all >/dev/null
make -C "$TOP" -s -j2 all >/dev/null
r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "== round $r: base $REV ($(git -C "$BASE" log -1 --format=%h))"
	sh "$BASE/bench/$SCRIPT" "$@"
	echo "== round $r: this tree ($(git -C "$TOP" log -1 --format=%h)$(git -C "$TOP" diff --quiet || echo +changes))"
	sh "$TOP/bench/$SCRIPT" "$@"
	r=$((r + 1))
done
