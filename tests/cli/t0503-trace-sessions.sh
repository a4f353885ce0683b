#!/bin/sh
# aiperf-trace synthesize on interleaved multi-turn sessions, in file order and
# in aiperf profile's session order (--group-sessions), against the reference.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
REF="$TOP/tests/trace/ref.py"

if ! command -v python3 >/dev/null; then
	test_skip_all "python3 missing"
fi

awk 'BEGIN { srand(3)
	for (i = 0; i < 400; i++) {
		s = int(rand() * 40); n = int(rand() * 6) + 1
		printf "{\"session_id\":\"s%d\",\"timestamp\":%d,\"input_length\":%d,\"hash_ids\":[", s, i * 10, n * 64
		for (j = 0; j < n; j++)
			printf "%s%d", (j ? "," : ""), (j < 2 ? s % 5 * 100 + j : s * 1000 + i * 10 + j)
		print "]}"
		if (i % 50 == 0) print "{\"input_length\":200,\"hash_ids\":[1,2]}"
	} }' >"$TMP/sess.jsonl"

for args in "--group-sessions --prefix-len-multiplier 1.5 --prefix-root-multiplier 3 --random-seed 9" \
	"--prefix-len-multiplier 1.5 --prefix-root-multiplier 3 --random-seed 9" \
	"--group-sessions --prompt-len-multiplier 2.5 --speedup-ratio 4 --max-isl 300"; do
	test_expect_success "synthesize $args equals the reference" "
		aiperf-trace synthesize --block-size 64 $args sess.jsonl >c.jsonl &&
		python3 '$REF' synthesize --block-size 64 $args sess.jsonl >py.jsonl &&
		test -s c.jsonl && cmp c.jsonl py.jsonl
	"
done

test_expect_success 'analyze of the session trace equals the reference' "
	aiperf-trace analyze --json --block-size 64 sess.jsonl >c.json &&
	python3 '$REF' analyze --block-size 64 sess.jsonl >py.json &&
	python3 '$REF' compare py.json c.json
"

for seed in 1 2 3 4 5; do
	test_expect_success "analyze of random small-alphabet trace $seed equals the reference" "
		awk -v seed=$seed 'BEGIN { srand(seed)
			for (i = 0; i < 300; i++) {
				n = int(rand() * 7); r = rand()
				if (r < 0.1) { print \"{}\"; continue }
				if (r < 0.2) { printf \"{\\\"output_length\\\":%d}\\n\", i; continue }
				printf \"{\\\"input_length\\\":%d,\\\"output_length\\\":%d,\\\"hash_ids\\\":[\", int(rand() * 400), int(rand() * 50)
				for (j = 0; j < n; j++) printf \"%s%d\", (j ? \",\" : \"\"), int(rand() * 6) - 2
				print \"]}\"
			} }' >rnd.jsonl &&
		aiperf-trace analyze --json --block-size 32 rnd.jsonl >c.json &&
		python3 '$REF' analyze --block-size 32 rnd.jsonl >py.json &&
		python3 '$REF' compare py.json c.json
	"
done

test_done
