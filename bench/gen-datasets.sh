#!/bin/sh
# bench/gen-datasets.sh: aiperf-gen on dataset files against jq -c over the
# same file in the same run: wall time, requests/s, MB/s and peak RSS.
#   ShareGPT: --public-dataset sharegpt --input-file on a generated
#     ShareGPT-format file (one JSON array, conversations of 0-10 turns of
#     Shakespeare, lengths like the real file's: about 7 KB an entry), every
#     entry tokenized and filtered; one record per entry written
#     (--request-count = entries), as jq -c '.[]' writes one line per entry.
#   single_turn: a 1 GB JSONL file ({"text": ...} a line, lengths drawn from
#     a log-normal around 600 characters): aiperf-gen --custom-dataset-type
#     single_turn, one record a line (streamed: memory flat), against jq -c .
#     (skipped with a message where aiperf-gen refuses the type).
# Not a test: numbers only. The file is made once per run in a scratch
# folder; SHAREGPT_FILE=path uses that file instead (the real one, say).
# Usage: sh bench/gen-datasets.sh [MB]   (default 200 MB)
set -eu
cd "$(dirname "$0")/.."
MB=${1:-200}
GEN=bin/aiperf-gen
CORPUS=data/corpus/tinyshakespeare.txt
[ -x "$GEN" ] || { echo "build first: make" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not installed (apt-get install time)" >&2; exit 2; }
DIR=$(mktemp -d /tmp/aiperf-gen-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT INT TERM
export HF_HUB_OFFLINE=1

# run NAME LABEL CMD...: wall seconds and peak RSS (KB) into $DIR/NAME.{s,kb},
# stdout into $DIR/NAME.out (its line count into $DIR/NAME.lines).
run() {
	name=$1
	printf '%s\n' "$2" >"$DIR/$name.label"
	shift 2
	/usr/bin/time -f '%e %M' -o "$DIR/$name.t" "$@" >"$DIR/$name.out"
	cut -d' ' -f1 "$DIR/$name.t" >"$DIR/$name.s"
	cut -d' ' -f2 "$DIR/$name.t" >"$DIR/$name.kb"
	wc -l <"$DIR/$name.out" >"$DIR/$name.lines"
	rm -f "$DIR/$name.out"
}

# report TITLE BYTES ENTRIES A B: the two runs side by side, then the ratios
# (a run's label is in $DIR/NAME.label).
report() {
	printf '%s: %d bytes, %d entries, %d CPUs\n' "$1" "$2" "$3" "$(nproc)"
	for n in "$4" "$5"; do
		awk -v name="$(cat "$DIR/$n.label")" -v s="$(cat "$DIR/$n.s")" -v kb="$(cat "$DIR/$n.kb")" \
			-v b="$2" -v e="$3" -v l="$(cat "$DIR/$n.lines")" 'BEGIN {
			if (s <= 0) s = 0.01
			printf "  %-36s %7.2f s %9.0f req/s %7.1f MB/s %9d KB RSS (%d lines)\n",
				name, s, e / s, b / 1e6 / s, kb, l }'
	done
	awk -v a="$(cat "$DIR/$4.s")" -v b="$(cat "$DIR/$5.s")" \
		-v ra="$(cat "$DIR/$4.kb")" -v rb="$(cat "$DIR/$5.kb")" 'BEGIN {
		if (a <= 0) a = 0.01
		printf "  ratio %s: speed %.2fx jq'"'"'s, peak RSS %.2fx jq'"'"'s\n",
			"aiperf-gen/jq", b / a, ra / rb }' "$4"
}

# --- ShareGPT ---------------------------------------------------------------
if [ -n "${SHAREGPT_FILE:-}" ]; then
	SG=$SHAREGPT_FILE
else
	SG=$DIR/sharegpt.json
	python3 - "$CORPUS" "$SG" "$MB" <<'P'
import json, random, sys
random.seed(1)
text = open(sys.argv[1]).read()
n = len(text)
want = int(sys.argv[3]) * 1000 * 1000
accent = ["é", "ü", "日本", "🙂", "\"", "\\", "\n\n", "```"]
def turn(mean):
    k = max(1, int(random.lognormvariate(0, 1.0) * mean))
    i = random.randrange(0, n - k - 1) if k < n - 1 else 0
    s = text[i:i + k]
    if random.random() < 0.2:
        s += random.choice(accent)
    return s
out = open(sys.argv[2], "w")
out.write("[")
size, i = 1, 0
while size < want:
    nt = random.choice([0, 1] + [2] * 6 + [4] * 4 + [6] * 3 + [10] * 2)
    conv = [{"from": "human" if t % 2 == 0 else "gpt",
             "value": turn(300 if t % 2 == 0 else 1300)} for t in range(nt)]
    row = json.dumps({"id": "b%07d" % i, "conversations": conv},
                     ensure_ascii=random.random() < 0.5)
    out.write(("," if i else "") + "\n" + row)
    size += len(row.encode()) + 2
    i += 1
out.write("\n]\n")
P
fi
SGBYTES=$(wc -c <"$SG")
SGN=$(jq length "$SG")

run gen "aiperf-gen --public-dataset sharegpt" "$GEN" -m m --tokenizer builtin --random-seed 1 --public-dataset sharegpt \
	--input-file "$SG" --request-count "$SGN"
run jq "jq -c '.[]'" jq -c '.[]' "$SG"
[ "$(cat "$DIR/jq.lines")" -eq "$SGN" ] || { echo "jq line count differs" >&2; exit 1; }
[ "$(cat "$DIR/gen.lines")" -eq "$SGN" ] || { echo "aiperf-gen record count differs" >&2; exit 1; }
report "ShareGPT ($SG)" "$SGBYTES" "$SGN" gen jq

# --- single_turn, 1 GB --------------------------------------------------------
# A 1 GB single_turn JSONL file, aiperf-gen --input-file --custom-dataset-type
# single_turn --request-count LINES against jq -c . on the same file, through
# run and report as above (a build whose aiperf-gen refuses the type skips it).
printf '{"text": "What is the capital of France, and why?"}\n' >"$DIR/probe.jsonl"
if ! "$GEN" -m m --tokenizer builtin --input-file "$DIR/probe.jsonl" \
	--custom-dataset-type single_turn --request-count 1 >/dev/null 2>"$DIR/probe.err"; then
	echo "single_turn 1 GB: skipped: this build's aiperf-gen does not take it ($(head -1 "$DIR/probe.err"))"
	exit 0
fi
python3 - "$CORPUS" "$DIR/single.jsonl" <<'P'
import json, random, sys
random.seed(2)
text = open(sys.argv[1]).read()
n = len(text)
size, want = 0, 1000 * 1000 * 1000
with open(sys.argv[2], "w") as out:
    while size < want:
        k = max(1, int(random.lognormvariate(0, 1.0) * 600))
        i = random.randrange(0, n - k - 1)
        line = json.dumps({"text": text[i:i + k]}) + "\n"
        out.write(line)
        size += len(line)
P
STBYTES=$(wc -c <"$DIR/single.jsonl")
STN=$(wc -l <"$DIR/single.jsonl")
run gen1 "aiperf-gen single_turn" "$GEN" -m m --tokenizer builtin --random-seed 1 --input-file "$DIR/single.jsonl" \
	--custom-dataset-type single_turn --request-count "$STN"
run jq1 "jq -c ." jq -c . "$DIR/single.jsonl"
report "single_turn ($DIR/single.jsonl)" "$STBYTES" "$STN" gen1 jq1
