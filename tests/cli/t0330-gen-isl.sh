#!/bin/sh
# ISL exactness: re-encode every synthetic prompt with the same tokenizer
# and compare with the requested length. A decoded corpus slice re-encodes
# to exactly k tokens except where it crosses a chunk boundary of the
# corpus (chunks are encoded separately and concatenated, so the words on
# either side can merge on re-encoding): the original has the same effect.
# We allow a difference of one token and want at least 90% exact.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"


# isl: the generated prompts' token counts minus isl, one per line
diffs() {
	aiperf-gen -m m --tokenizer builtin --random-seed 11 --isl "$1" \
		--num-dataset-entries 200 --request-count 1 --inputs-json in.json \
		>/dev/null &&
	sed -n 's/^ *"content": //p' in.json |
		aiperf-tok --tokenizer builtin --json --count |
		awk -v k="$1" '{ print $1 - k }'
}

for isl in 1 16 128 550; do
	test_expect_success "prompts of $isl tokens re-encode to $isl (+-1 at chunk joins)" "
		diffs $isl >d && test \$(wc -l <d) -eq 200 &&
		! grep -v -x -e 0 -e -1 -e 1 d &&
		test \$(grep -c -x 0 d) -ge 180
	"
done

# The lengths that --isl 64 --isl-stddev 16 --random-seed 5 samples, in
# dataset order, from Python's random module as the original draws them
# (run with /usr/bin/python3):
#   seed = int.from_bytes(sha256(b"5:dataset.prompt.length").digest()[:8], "big")
#   r = random.Random(seed)
#   per entry: n = r.gauss(64, 16), drawn again while n < 0; max(1, ceil(n))
# Every prompt re-encodes to exactly its length for this seed (no chunk join
# moves one by a token).
cat >"$TMP/isl-sd.expect" <<\EOF
101 72 36 46 74 55 71 80 70 57 56 49 48 74 67 74 85 65 67 92
69 26 56 80 69 84 66 82 74 65 75 43 10 75 46 49 84 45 48 89
46 86 77 61 75 64 33 72 78 61 73 59 92 67 27 53 66 56 63 95
43 67 70 70 52 54 55 71 56 90 55 39 62 47 31 66 60 69 67 79
58 98 65 74 93 58 49 48 69 50 69 55 95 59 58 51 52 87 58 77
EOF

test_expect_success 'isl-stddev: each prompt has the length sampled for it' '
	aiperf-gen -m m --tokenizer builtin --random-seed 5 --isl 64 --isl-stddev 16 \
		--num-dataset-entries 100 --request-count 1 --inputs-json in.json >/dev/null &&
	sed -n "s/^ *\"content\": //p" in.json |
		aiperf-tok --tokenizer builtin --json --count >n &&
	tr " " "\n" <isl-sd.expect >expect &&
	test_cmp expect n
'

test_done
