#!/bin/sh
# The endpoint types, one table for every stage (lib/endpoint.c, #28): the
# names of spec 6.2, in its order, are what aiperf-gen, aiperf-metrics and
# aiperf-export take as --endpoint-type and aiperf-send in a record, in any
# case and with dashes; each goes to its default path, which aiperf-mock
# answers; an unknown name is refused by all four with one list of choices.
# (The records aiperf-gen writes in the second test serve the third.)
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

CORPUS=$TOP/data/corpus/tinyshakespeare.txt
[ -f "$CORPUS" ] || CORPUS=$SHARED/data/corpus/tinyshakespeare.txt
G="aiperf-gen -m m --tokenizer builtin --corpus $CORPUS --isl 4 --num-dataset-entries 2 --request-count 1"

# spec 6.2: name, default path ("-": none, the URL as given), streaming
# path ("-": the default one)
cat >"$TMP/spec" <<'EOF'
chat /v1/chat/completions -
completions /v1/completions -
responses /v1/responses -
embeddings /v1/embeddings -
chat_embeddings /v1/embeddings -
nim_embeddings /v1/embeddings -
nim_rankings /v1/ranking -
cohere_rankings /v2/rerank -
hf_tei_rankings /rerank -
huggingface_generate /generate /generate_stream
image_generation /v1/images/generations -
video_generation /v1/videos -
image_retrieval /v1/infer -
solido_rag /rag/api/prompt -
template - -
EOF
cut -d" " -f1 "$TMP/spec" >"$TMP/names"
LIST=$(paste -sd, "$TMP/names" | sed "s/,/, /g")

# gen_of NAME [options]: one request record of type NAME (what some types
# need besides: images, a payload template).
gen_of() {
	_n=$1
	shift
	case $_n in
	[Ii][Mm][Aa][Gg][Ee][-_][Rr]*) set -- "$@" --image-width-mean 8 --image-height-mean 8 ;;
	[Tt][Ee][Mm][Pp]*) set -- "$@" --extra-inputs payload_template:nv-embedqa ;;
	esac
	$G --endpoint-type "$_n" "$@"
}

# shout NAME: upper case, dashes for underscores.
shout() { printf '%s\n' "$1" | tr a-z_ A-Z-; }

test_expect_success 'the stages list the names of spec 6.2, in its order' '
	aiperf-gen --list-choices endpoint-type >gen &&
	test_cmp names gen &&
	aiperf-metrics --list-choices endpoint-type >met &&
	test_cmp names met &&
	awk -F "\t" "\$1 == \"--endpoint-type\" { print \$7 }" \
		"$TOP/data/profile-options.tsv" | tr " " "\n" | sort >tsv &&
	sort names >sorted &&
	test_cmp sorted tsv
'

test_expect_success 'aiperf-gen: each name, shouted too, the canonical name and its paths' '
	while read -r n p sp; do
		[ "$p" = - ] && p=
		[ "$sp" = - ] && sp=$p
		gen_of "$(shout "$n")" >rec.$n 2>err &&
		jq -e --arg n "$n" --arg p "$p" ".endpoint_type == \$n and .path == \$p" rec.$n ||
			{ echo "$n: $(cat rec.$n err)"; exit 1; }
		gen_of "$n" --streaming >rec--streaming.$n 2>err &&
		jq -e --arg sp "$sp" ".path == \$sp" rec--streaming.$n ||
			{ echo "$n streaming: $(cat rec--streaming.$n err)"; exit 1; }
	done <spec
'

start_mock --video-time-ms 10

test_expect_success 'aiperf-send: each type to its default path, which aiperf-mock answers' '
	while read -r n p sp; do
		[ "$p" = - ] && continue	# template: the URL as given
		[ "$sp" = - ] && sp=$p
		for s in "" --streaming; do
			jq -c "del(.path)" rec$s.$n >in &&
			want=$p && { [ -z "$s" ] || want=$sp; } &&
			aiperf-send -u "$MOCK_URL" --video-poll-interval 0.01 <in >raw &&
			jq -e --arg u "$MOCK_URL$want" ".aiperf.url == \$u and .status == 200" raw ||
				{ echo "$n $s: $(cat raw)"; exit 1; }
		done
	done <spec
'

test_expect_success 'aiperf-send: a name shouted, and none at all: chat' '
	gen_of chat | jq -c "del(.path) | .endpoint_type = \"CHAT\"" >in &&
	gen_of chat | jq -c "del(.path) | del(.endpoint_type)" >>in &&
	aiperf-send -u "$MOCK_URL" <in >raw &&
	jq -se --arg u "$MOCK_URL/v1/chat/completions" \
		"length == 2 and all(.aiperf.url == \$u and .status == 200)" raw
'

test_expect_success 'aiperf-send: the template type has no path of its own' '
	gen_of template | jq -c "del(.path)" >in &&
	aiperf-send -u "$MOCK_URL/v1/embeddings" <in >raw &&
	jq -e --arg u "$MOCK_URL/v1/embeddings" ".aiperf.url == \$u" raw
'

test_expect_success 'aiperf-metrics and aiperf-export take each name, shouted too' '
	while read -r n p sp; do
		aiperf-metrics --endpoint-type "$n" </dev/null &&
		aiperf-metrics --endpoint-type "$(shout "$n")" </dev/null &&
		aiperf-export --check --endpoint-type "$n" &&
		aiperf-export --check --endpoint-type "$(shout "$n")" ||
			{ echo "$n refused"; exit 1; }
	done <spec
'

test_expect_success 'an unknown name: all four refuse it, with the same choices' '
	for t in aiperf-metrics aiperf-export; do
		test_expect_code 2 $t --endpoint-type chatt </dev/null 2>err.$t || exit 1
	done &&
	test_expect_code 2 $G --endpoint-type chatt 2>err.aiperf-gen &&
	gen_of chat | jq -c ".endpoint_type = \"chatt\"" >in &&
	test_expect_code 1 aiperf-send -u "$MOCK_URL" <in >raw 2>err.aiperf-send &&
	test ! -s raw &&
	for t in aiperf-gen aiperf-metrics aiperf-export; do
		echo "$t: invalid value for --endpoint-type: '"'"'chatt'"'"' ($LIST)" >want &&
		head -1 err.$t >got && test_cmp want got || exit 1
	done &&
	echo "aiperf-send: <stdin>:1: unknown endpoint_type '"'"'chatt'"'"' ($LIST)" >want &&
	test_cmp want err.aiperf-send
'

test_expect_success 'rankings, genai-perf'"'"'s name: a record'"'"'s only, never an option' '
	for t in aiperf-metrics aiperf-export; do
		test_expect_code 2 $t --endpoint-type rankings </dev/null 2>/dev/null || exit 1
	done &&
	test_expect_code 2 $G --endpoint-type rankings 2>/dev/null &&
	gen_of nim_rankings | jq -c "del(.path) | .endpoint_type = \"rankings\"" >in &&
	aiperf-send -u "$MOCK_URL" <in >raw &&
	jq -e --arg u "$MOCK_URL/v1/ranking" ".aiperf.url == \$u and .status == 200" raw
'

test_done
