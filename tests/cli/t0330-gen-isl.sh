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

if ! command -v aiperf-tok >/dev/null 2>&1; then
	echo "ok 1 # skip aiperf-tok is not built"
	echo "1..1"
	exit 0
fi

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

test_expect_success 'isl-stddev: lengths vary, prompts match their sampled length' '
	aiperf-gen -m m --tokenizer builtin --random-seed 5 --isl 64 --isl-stddev 16 \
		--num-dataset-entries 100 --request-count 1 --inputs-json in.json >/dev/null &&
	sed -n "s/^ *\"content\": //p" in.json |
		aiperf-tok --tokenizer builtin --json --count >n &&
	test "$(sort -u n | wc -l)" -gt 20
'

test_done
