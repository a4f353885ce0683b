#!/bin/sh
# Accuracy grading end to end: aiperf-mock answers from an answer key,
# aiperf-metrics grades each record against its problem (session_num mod
# n) and aiperf-export sums the grades: 12 of 16 right, 3 of 4 in each of
# four MMLU-like tasks, so 75% everywhere; one request fails (a 404) and is
# graded as the original grades it, an empty reply.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

cd "$TMP" || exit 1
# problem I: task I mod 4, gold letter (3I + 1) mod 4
task_of() { set -- "$1" abstract_algebra anatomy astronomy virology; shift $(($1 % 4 + 1)); echo "$1"; }
gold_of() { echo ABCD | cut -c$(( ($1 * 3 + 1) % 4 + 1 )); }

i=0
while [ $i -lt 16 ]; do
	printf '{"schema":"aiperf.problem/1","index":%d,"task":"%s","gold":"%s","prompt":"Question %d: which?","messages":[{"role":"user","content":"Question %d: which?"}],"max_tokens":5}\n' \
		$i "$(task_of $i)" "$(gold_of $i)" $i $i
	i=$((i + 1))
done >problems.jsonl

# the replies: 0 and 10 a wrong letter, 5 no letter, 1 and 6 right but
# unparsed, 15 never answered (its request fails); the rest the gold
reply_of() {
	case $1 in
	0|10) gold_of "$1" | tr ABCD BCDA ;;
	5) echo "I am not sure" ;;
	1|6) echo "The answer is $(gold_of "$1")." ;;
	*) gold_of "$1" ;;
	esac
}
i=0
while [ $i -lt 15 ]; do
	printf '{"match":"Question %d: which?","reply":"%s"}\n' $i "$(reply_of $i)"
	i=$((i + 1))
done >key.jsonl

# request I (chat, streamed or not): problem I's prompt; 15 goes to a path
# the mock does not serve; a warmup request first, matched by no key
request() {
	path=/v1/chat/completions phase=profiling
	[ "$1" = 15 ] && path=/v1/none
	[ "$1" = 99 ] && phase=warmup
	printf '{"schema":"aiperf.request/1","id":"req_%06d","session_num":%d,"conversation_id":"session_%06d","x_correlation_id":"corr_%d","turn_index":0,"num_turns":1,"phase":"%s","model":"m","endpoint_type":"chat","path":"%s","stream":%s,"payload":{"model":"m","messages":[{"role":"user","content":"Question %d: which?"}],"stream":%s,"stream_options":{"include_usage":true}}}\n' \
		"$1" "$1" "$1" "$1" "$phase" "$path" "$2" "$1" "$2"
}

start_mock -f --answer-key key.jsonl || exit 1

test_expect_success 'the mock answers from the key, streamed or not' '
	{ request 99 true; i=0; while [ $i -lt 16 ]; do request $i $( [ $((i % 2)) = 0 ] && echo true || echo false); i=$((i + 1)); done; } >reqs.jsonl &&
	aiperf-send --url "$MOCK_URL" <reqs.jsonl >raw.jsonl &&
	test "$(wc -l <raw.jsonl)" = 17
'

grade() {
	aiperf-metrics --use-server-token-count --accuracy-problems problems.jsonl \
		--accuracy-grader multiple_choice "$@"
}

test_expect_success 'aiperf-metrics grades every record, the failed one as ""' '
	grade raw.jsonl >m.jsonl &&
	jq -c ".aiperf.accuracy | [.index, .task, .correct, .unparsed, .extracted]" m.jsonl >got &&
	cat >want <<-\EOF &&
	[3,"virology",false,true,"do first any my new now such like our over man me even most made after"]
	[0,"abstract_algebra",false,false,"C"]
	[1,"anatomy",true,true,"A"]
	[2,"astronomy",true,false,"D"]
	[3,"virology",true,false,"C"]
	[4,"abstract_algebra",true,false,"B"]
	[5,"anatomy",false,true,"I am not sure"]
	[6,"astronomy",true,true,"D"]
	[7,"virology",true,false,"C"]
	[8,"abstract_algebra",true,false,"B"]
	[9,"anatomy",true,false,"A"]
	[10,"astronomy",false,false,"A"]
	[11,"virology",true,false,"C"]
	[12,"abstract_algebra",true,false,"B"]
	[13,"anatomy",true,false,"A"]
	[14,"astronomy",true,false,"D"]
	[15,"virology",false,true,""]
	EOF
	test_cmp want got &&
	jq -e "select(.metadata.session_num == 15) | .error != null" m.jsonl >/dev/null
'

test_expect_success 'the grade is the trailing aiperf object, last in the line' '
	jq -c "[keys_unsorted[-1], (.aiperf | keys_unsorted[-1])]" m.jsonl | sort -u >got &&
	echo "[\"aiperf\",\"accuracy\"]" >want &&
	test_cmp want got &&
	grep -c "\"reason\":\"first line gave" m.jsonl >n && test "$(cat n)" = 17
'

test_expect_success 'aiperf-export: the accuracy table, 75.00% everywhere' '
	aiperf-export --artifact-dir out <m.jsonl >console &&
	sed -n "/Accuracy Benchmark Results/,/^└/p" console >got &&
	cat >want <<-\EOF &&
	                                Accuracy Benchmark Results                                
	┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━┳━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
	┃ Task                           ┃ Correct ┃ Total ┃ Unparsed ┃ Accuracy ┃        95% CI ┃
	┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
	│ abstract_algebra               │       3 │     4 │        0 │   75.00% │ 30.06%–95.44% │
	├────────────────────────────────┼─────────┼───────┼──────────┼──────────┼───────────────┤
	│ anatomy                        │       3 │     4 │        2 │   75.00% │ 30.06%–95.44% │
	├────────────────────────────────┼─────────┼───────┼──────────┼──────────┼───────────────┤
	│ astronomy                      │       3 │     4 │        1 │   75.00% │ 30.06%–95.44% │
	├────────────────────────────────┼─────────┼───────┼──────────┼──────────┼───────────────┤
	│ virology                       │       3 │     4 │        1 │   75.00% │ 30.06%–95.44% │
	├────────────────────────────────┼─────────┼───────┼──────────┼──────────┼───────────────┤
	│ OVERALL                        │      12 │    16 │        4 │   75.00% │ 50.50%–89.82% │
	└────────────────────────────────┴─────────┴───────┴──────────┴──────────┴───────────────┘
	EOF
	test_cmp want got &&
	grep -q "^accuracy_csv: .*/out/accuracy_results.csv$" console &&
	! grep -q "every accuracy response was unparsed" console
'

test_expect_success 'accuracy_results.csv: the original bytes' '
	printf "%s\r\n" task,correct,total,unparsed,accuracy OVERALL,12,16,4,0.7500 \
		abstract_algebra,3,4,0,0.7500 anatomy,3,4,2,0.7500 astronomy,3,4,1,0.7500 \
		virology,3,4,1,0.7500 >want &&
	test_cmp want out/accuracy_results.csv
'

test_expect_success 'profile_export_aiperf.json: the accuracy entries, in order, before ours' '
	jq -c "to_entries[] | select(.key | startswith(\"accuracy.\"))" \
		out/profile_export_aiperf.json >got &&
	cat >want <<-\EOF &&
	{"key":"accuracy.overall","value":{"unit":"ratio","count":16,"sum":12,"accuracy":0.75,"ci95_low":0.5050168346449122,"ci95_high":0.8981793250878696}}
	{"key":"accuracy.task.abstract_algebra","value":{"unit":"ratio","count":4,"sum":3,"accuracy":0.75,"ci95_low":0.30064184258240184,"ci95_high":0.9544127391902995}}
	{"key":"accuracy.task.anatomy","value":{"unit":"ratio","count":4,"sum":3,"accuracy":0.75,"ci95_low":0.30064184258240184,"ci95_high":0.9544127391902995}}
	{"key":"accuracy.task.astronomy","value":{"unit":"ratio","count":4,"sum":3,"accuracy":0.75,"ci95_low":0.30064184258240184,"ci95_high":0.9544127391902995}}
	{"key":"accuracy.task.virology","value":{"unit":"ratio","count":4,"sum":3,"accuracy":0.75,"ci95_low":0.30064184258240184,"ci95_high":0.9544127391902995}}
	{"key":"accuracy.unparsed","value":{"unit":"ratio","count":16,"sum":4,"accuracy":0.25,"ci95_low":0.10182067491213048,"ci95_high":0.49498316535508774}}
	{"key":"accuracy.unparsed.task.abstract_algebra","value":{"unit":"ratio","count":4,"sum":0,"accuracy":0,"ci95_low":0,"ci95_high":0.4898908364545973}}
	{"key":"accuracy.unparsed.task.anatomy","value":{"unit":"ratio","count":4,"sum":2,"accuracy":0.5,"ci95_low":0.15003898915214947,"ci95_high":0.8499610108478506}}
	{"key":"accuracy.unparsed.task.astronomy","value":{"unit":"ratio","count":4,"sum":1,"accuracy":0.25,"ci95_low":0.04558726080970055,"ci95_high":0.6993581574175981}}
	{"key":"accuracy.unparsed.task.virology","value":{"unit":"ratio","count":4,"sum":1,"accuracy":0.25,"ci95_low":0.04558726080970055,"ci95_high":0.6993581574175981}}
	EOF
	test_cmp want got &&
	grep -q "^    \"accuracy\": 0.0,$" out/profile_export_aiperf.json &&
	jq -r "keys_unsorted | .[-1]" out/profile_export_aiperf.json >last &&
	echo client >want && test_cmp want last &&
	jq -c ".aiperf.accuracy.index" out/profile_export.jsonl | tr "\n" " " >got &&
	test "$(cat got)" = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
'

test_expect_success 'profile_export_aiperf.csv: the entries among the Metric,Value rows, by tag, no value' '
	sed -n "/^Metric,Value\r$/,\$p" out/profile_export_aiperf.csv >section &&
	printf "%s\r\n" Metric,Value "Accuracy (Overall) (ratio)," \
		"Accuracy (abstract_algebra) (ratio)," "Accuracy (anatomy) (ratio)," \
		"Accuracy (astronomy) (ratio)," "Accuracy (virology) (ratio)," \
		"Accuracy Unparsed (Overall) (ratio)," "Accuracy Unparsed (abstract_algebra) (ratio)," \
		"Accuracy Unparsed (anatomy) (ratio)," "Accuracy Unparsed (astronomy) (ratio)," \
		"Accuracy Unparsed (virology) (ratio)," >want &&
	head -11 section >got && test_cmp want got &&
	sed -n 12p section | grep -q "^Benchmark Duration (sec),[0-9.]*.$"
'

test_expect_success '--accuracy-verbose: one line a record, in order' '
	grade --accuracy-verbose raw.jsonl 2>err >m2.jsonl &&
	test_cmp m.jsonl m2.jsonl &&
	test "$(wc -l <err)" = 17 &&
	sed -n 7p err >got &&
	printf "%s\n" "[accuracy] session=5 correct=False unparsed=True reason=\"first line gave '"'"'I am not sure'"'"' (regex fallback); gold '"'"'A'"'"'\" extracted='"'"'I am not sure'"'"' response_len=13 response_preview='"'"'I am not sure'"'"'" >want &&
	test_cmp want got &&
	grade --accuracy-verbose --threads 3 raw.jsonl raw.jsonl 2>err3 >m3.jsonl &&
	cat err err >err2 && test_cmp err2 err3 &&
	cat m.jsonl m.jsonl >mm && test_cmp mm m3.jsonl
'

test_expect_success 'replay: the same raw file gives the same bytes, fast paths or not' '
	grade raw.jsonl >again && test_cmp m.jsonl again &&
	AIPERF_NO_FASTPATH=1 grade raw.jsonl >slow && test_cmp m.jsonl slow &&
	aiperf-export --artifact-dir out2 --benchmark-id x <m.jsonl >/dev/null &&
	AIPERF_NO_FASTPATH=1 aiperf-export --artifact-dir out3 --benchmark-id x <m.jsonl >/dev/null &&
	test_cmp out2/accuracy_results.csv out3/accuracy_results.csv &&
	jq -S "del(.start_time, .end_time)" out2/profile_export_aiperf.json >a &&
	jq -S "del(.start_time, .end_time)" out3/profile_export_aiperf.json >b &&
	test_cmp a b
'

test_expect_success 'no graded record: no table, no CSV, no entries' '
	aiperf-metrics --use-server-token-count raw.jsonl >plain.jsonl &&
	aiperf-export --artifact-dir plain <plain.jsonl >console &&
	! grep -q "Accuracy" console &&
	test ! -e plain/accuracy_results.csv &&
	! grep -q "accuracy" plain/profile_export_aiperf.json &&
	! grep -qi "accuracy" plain/profile_export_aiperf.csv
'

test_expect_success 'every reply unparsed: the warning' '
	sed "s/\"reply\":\"[A-D]\"/\"reply\":\"none\"/; s/The answer is/x/" m.jsonl |
		jq -c ".aiperf.accuracy.unparsed = true" >un.jsonl &&
	aiperf-export --artifact-dir un <un.jsonl >console &&
	grep -q "^Warning: every accuracy response was unparsed (accuracy=0)\. " console
'

test_expect_success 'options: the grader is required, and must be known' '
	test_expect_code 2 aiperf-metrics --accuracy-problems problems.jsonl raw.jsonl 2>err &&
	grep -q "needs --accuracy-grader" err &&
	test_expect_code 2 grade --accuracy-grader nope raw.jsonl 2>err &&
	grep -q "invalid value for --accuracy-grader: .nope. (.*multiple_choice" err &&
	test_expect_code 2 aiperf-metrics --accuracy-verbose raw.jsonl 2>err &&
	grep -q "needs --accuracy-problems" err
'

bad_problems() {
	printf "%s\n" "$1" >bad.jsonl
	test_expect_code 1 aiperf-metrics --accuracy-problems bad.jsonl \
		--accuracy-grader exact_match raw.jsonl 2>err >/dev/null &&
	grep -q "$2" err
}

test_expect_success 'bad problem files: the line and what is wrong' '
	head -2 problems.jsonl >two &&
	{ cat two; echo "{oops"; } >bad.jsonl &&
	test_expect_code 1 aiperf-metrics --accuracy-problems bad.jsonl \
		--accuracy-grader exact_match raw.jsonl 2>err >/dev/null &&
	grep -q "bad.jsonl.: line 3: " err &&
	bad_problems "{\"schema\":\"x\"}" "line 1: \"schema\" is not \"aiperf.problem/1\"" &&
	bad_problems "$(sed -n 2p problems.jsonl)" "line 1: \"index\" is not 0" &&
	bad_problems "$(head -1 problems.jsonl | sed "s/\"gold\":\"[A-D]\"/\"gold\":1/")" "line 1: \"gold\" not a string" &&
	bad_problems "$(head -1 problems.jsonl | sed "s/\"messages\":\[.*\]/\"messages\":[]/")" "line 1: \"messages\" not a non-empty array" &&
	bad_problems "$(head -1 problems.jsonl | sed "s/\"max_tokens\":5/\"max_tokens\":0/")" "line 1: \"max_tokens\" is not an integer" &&
	bad_problems "" "no problem records" &&
	test_expect_code 1 grade --accuracy-problems . raw.jsonl 2>err &&
	grep -q "not a regular file\|Is a directory" err
'

test_expect_success 'bad answer keys: the line and what is wrong' '
	printf "%s\n" "{\"match\":\"a\",\"reply\":\"b\"}" "{\"match\":\"a\",\"reply\":\"c\"}" >k1 &&
	test_expect_code 1 aiperf-mock --port 0 --answer-key k1 2>err &&
	grep -q "line 2: \"match\" repeats line 1" err &&
	printf "%s\n" "{\"match\":\"a\"}" >k2 &&
	test_expect_code 1 aiperf-mock --port 0 --answer-key k2 2>err &&
	grep -q "line 1: \"reply\" is not a non-empty string" err
'

test_expect_success 'the reply as the original joins it: each chunk its reasoning, then its content' '
	jq -c "select(.metadata.session_num == 2) | .start_perf_ns as \$t |
		def chunk(\$d; \$k): {perf_ns: (\$t + \$k), packets: [{name: \"data\",
			value: ({object: \"chat.completion.chunk\", choices: [{index: 0, delta: \$d}]} | tojson)}]};
		.responses = [chunk({reasoning_content: \"x \"}; 10), chunk({content: \"B\"}; 20),
			chunk({reasoning_content: \"y\", content: \"z\"}; 30), chunk({content: \"!\"}; 40)]" \
		raw.jsonl >mixed.jsonl &&
	grade --accuracy-verbose mixed.jsonl 2>err >/dev/null &&
	grep -q "response_len=6 response_preview=.x Byz!.$" err &&
	AIPERF_NO_FASTPATH=1 grade --accuracy-verbose mixed.jsonl 2>err2 >/dev/null &&
	test_cmp err err2
'

test_done
