#!/bin/sh
# aiperf-trace against the independent Python reference (tests/trace/ref.py)
# on the real mooncake traces: analyze field by field, synthesize byte by byte.
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
REF="$TOP/tests/trace/ref.py"
DATA="$SHARED/data/mooncake"

if ! command -v python3 >/dev/null || [ ! -f "$DATA/conversation_trace.jsonl" ]; then
	test_skip_all "python3 or shared mooncake data missing"
fi

for f in conversation_trace synthetic_trace; do
	test_expect_success "analyze $f equals the reference" "
		aiperf-trace analyze --json '$DATA/$f.jsonl' >c.json &&
		python3 '$REF' analyze '$DATA/$f.jsonl' >py.json &&
		python3 '$REF' compare py.json c.json
	"
done

test_expect_success 'analyze --block-size 64 equals the reference' "
	aiperf-trace analyze --json --block-size 64 '$DATA/synthetic_trace.jsonl' >c.json &&
	python3 '$REF' analyze --block-size 64 '$DATA/synthetic_trace.jsonl' >py.json &&
	python3 '$REF' compare py.json c.json
"

test_expect_success 'analyze reads .zst and stdin the same' "
	aiperf-trace analyze --json '$DATA/synthetic_trace.jsonl' >plain.json &&
	zstd -q -c '$DATA/synthetic_trace.jsonl' >t.jsonl.zst &&
	aiperf-trace analyze --json t.jsonl.zst >zst.json &&
	aiperf-trace analyze --json <'$DATA/synthetic_trace.jsonl' >stdin.json &&
	test_cmp plain.json zst.json && test_cmp plain.json stdin.json
"

test_expect_success '--output-file writes the JSON without a final newline' "
	aiperf-trace analyze --output-file r.json '$DATA/synthetic_trace.jsonl' >console.txt 2>err.txt &&
	aiperf-trace analyze --json '$DATA/synthetic_trace.jsonl' >j.json &&
	printf '%s' \"\$(cat j.json)\" >want.json && cmp want.json r.json &&
	echo 'Analysis report saved to r.json' >want.err && test_cmp want.err err.txt &&
	grep -q '^Trace Analysis Report$' console.txt
"

test_expect_success '--output-file creates missing directories' "
	aiperf-trace analyze --json --output-file out/sub/r.json '$DATA/synthetic_trace.jsonl' >j.json 2>/dev/null &&
	printf '%s' \"\$(cat j.json)\" >want.json && cmp want.json out/sub/r.json
"

test_expect_success 'several files are one trace' "
	head -100 '$DATA/synthetic_trace.jsonl' >a.jsonl &&
	tail -n +101 '$DATA/synthetic_trace.jsonl' >b.jsonl &&
	aiperf-trace analyze --json a.jsonl b.jsonl >ab.json &&
	aiperf-trace analyze --json '$DATA/synthetic_trace.jsonl' >all.json &&
	test_cmp all.json ab.json
"

for args in "--prefix-len-multiplier 2 --prompt-len-multiplier 2" \
	"--prefix-len-multiplier 1.5 --prefix-root-multiplier 4 --random-seed 7" \
	"--prefix-len-multiplier 0.5 --speedup-ratio 3 --max-isl 8000 --max-osl 100" \
	"--prompt-len-multiplier 0.3 --prefix-root-multiplier 3 --random-seed 123"; do
	test_expect_success "synthesize $args equals the reference" "
		aiperf-trace synthesize --block-size 16 $args '$DATA/conversation_trace.jsonl' >c.jsonl &&
		python3 '$REF' synthesize --block-size 16 $args '$DATA/conversation_trace.jsonl' >py.jsonl &&
		test \$(wc -l <c.jsonl) -gt 6000 && cmp c.jsonl py.jsonl
	"
done

test_expect_success 'synthesize --strict fails like the original on a short shared prefix' "
	! aiperf-trace synthesize --strict --prefix-len-multiplier 2 '$DATA/conversation_trace.jsonl' >/dev/null 2>err &&
	grep -q 'conversation_trace.jsonl:41: input_len (1902) < prefix_len (2048)' err
"

test_done
