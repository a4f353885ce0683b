#!/bin/sh
# --model-selection-strategy weighted through aiperf profile against
# aiperf-mock: with --model-weights 0.7,0.2,0.1 (or a config file's
# models.items[].weight) the models of 2,000 requests over 2,000 dataset
# entries are within 0.04 of their weights (about 4 standard deviations of
# a share of 2,000 draws), the counts are exact for a fixed seed (the same
# in two runs, and the ones pinned here: random.choices on
# composer.turn.model_selection), a zero weight is never sent, and the
# original's checks refuse weights that are missing, do not sum to 1.0
# (+/- 0.01) or are out of range.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 0 --itl-ms 0 --output-tokens 1 || exit 1
export MOCK_URL

# run DIR [options]: 2,000 requests, each of its own dataset entry; the
# models sent, counted, in DIR.models ("COUNT NAME" lines, by name)
run() {
	d=$1
	shift
	aiperf profile --url "$MOCK_URL" --endpoint-type chat --tokenizer builtin \
		--request-count 2000 --num-dataset-entries 2000 --isl 4 --osl 1 \
		--concurrency 16 --export-level raw --ui-type none --artifact-dir "$d" \
		"$@" >"$d.out" 2>"$d.err" || { cat "$d.err"; return 1; }
	jq -r .payload.model "$d/profile_export_raw.jsonl" | sort | uniq -c |
		awk "{ print \$1, \$2 }" >"$d.models"
}

# share DIR NAME WANT: NAME's share of DIR's requests is within 0.04 of WANT
share() {
	awk -v n="$2" -v w="$3" "\$2 == n { c = \$1 } { t += \$1 }
		END { s = c / t; d = s - w; if (d < 0) d = -d; if (d > 0.04) { print n, s; exit 1 } }" "$1.models"
}

test_expect_success 'weighted: 2,000 requests in the weights shares' '
	run w1 -m a,b,c --model-selection-strategy weighted --model-weights 0.7,0.2,0.1 --random-seed 11 &&
	test "$(awk "{ t += \$1 } END { print t }" w1.models)" = 2000 &&
	share w1 a 0.7 && share w1 b 0.2 && share w1 c 0.1
'

test_expect_success 'the same seed, the same counts (pinned)' '
	run w2 -m a,b,c --model-selection-strategy weighted --model-weights 0.7,0.2,0.1 --random-seed 11 &&
	test_cmp w1.models w2.models &&
	jq -r .payload.model w1/profile_export_raw.jsonl | sort >s1 &&
	jq -r .payload.model w2/profile_export_raw.jsonl | sort >s2 && test_cmp s1 s2 &&
	jq -r ".data[].payloads[0].model" w1/inputs.json >e1 &&
	jq -r ".data[].payloads[0].model" w2/inputs.json >e2 && test_cmp e1 e2 &&
	printf "%s\n" "1383 a" "411 b" "206 c" >want && test_cmp want w1.models
'

test_expect_success 'a zero weight is never drawn' '
	run z -m a,b,c --model-selection-strategy weighted --model-weights 0.5,0,0.5 --random-seed 3 &&
	! grep -q " b\$" z.models && share z a 0.5
'

test_expect_success 'from a config file: models.items[].weight' '
	cat >cfg.yaml <<-EOF2 &&
	schema_version: "2.0"
	random_seed: 11
	benchmark:
	  models:
	    strategy: weighted
	    items:
	      - {name: a, weight: 0.7}
	      - {name: b, weight: 0.2}
	      - {name: c, weight: 0.1}
	  endpoint: {url: "$MOCK_URL", type: chat}
	  tokenizer: {name: builtin}
	EOF2
	run f --config cfg.yaml &&
	test_cmp w1.models f.models
'

test_expect_success 'weights are ignored by the other strategies' '
	run rr -m a,b --model-weights 0.9,0.1 --random-seed 1 &&
	printf "%s\n" "1000 a" "1000 b" >want && test_cmp want rr.models
'

# refused MESSAGE OPTIONS...: aiperf profile exits 2 with MESSAGE
refused() {
	msg=$1
	shift
	st=0
	aiperf profile --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--ui-type none "$@" >out 2>err || st=$?
	if [ "$st" != 2 ] || ! grep -qF -- "$msg" err; then
		echo "status $st"; cat err; return 1
	fi
}

test_expect_success 'the original checks, its messages' '
	refused "All models must have weights specified when using weighted strategy" \
		-m a,b --model-selection-strategy weighted &&
	refused "Model weights must sum to 1.0, got 0.8999999999999999" \
		-m a,b --model-selection-strategy weighted --model-weights 0.3,0.6 &&
	refused "invalid weight" -m a,b --model-selection-strategy weighted --model-weights 1.5,-0.5 &&
	refused "1 weights for 2 models" -m a,b --model-selection-strategy weighted --model-weights 1 &&
	refused "invalid weight" -m a,b --model-selection-strategy weighted --model-weights 0.5,nan &&
	refused "model-selection-strategy" -m a --model-selection-strategy Weightedx
'

test_expect_success 'config: a weight that is not a number, some weights missing' '
	sed "s/weight: 0.1}/weight: [1]}/" cfg.yaml >bad.yaml &&
	st=0 && aiperf profile --config bad.yaml --request-count 1 >out 2>err || st=$? &&
	test "$st" -ne 0 && grep -q "weight: a number" err &&
	sed "s/{name: c, weight: 0.1}/{name: c}/" cfg.yaml >some.yaml &&
	st=0 && aiperf profile --config some.yaml --request-count 1 >out 2>err || st=$? &&
	test "$st" = 2 && grep -q "All models must have weights specified" err
'

test_done
