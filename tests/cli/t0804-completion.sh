#!/bin/sh
# completion/aiperf.bash: commands from what aiperf finds, profile options and
# their values from profile-options.tsv. Each case sources the script in
# bash, sets COMP_WORDS and COMP_CWORD as bash would, calls _aiperf and
# prints COMPREPLY sorted, one a line.
# Test bodies are strings that test_expect_success evals:
# shellcheck disable=SC2016,SC2034 source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

command -v bash >/dev/null || test_skip_all "no bash"
TSV=$TOP/data/profile-options.tsv
export COMPLETION="$TOP/completion/aiperf.bash"

# comp WORD...: the completions of the last WORD (bash's words, '=' apart).
comp() {
	bash -c '. "$COMPLETION" || exit 1
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _aiperf || exit 1
		((${#COMPREPLY[@]})) && printf "%s\n" "${COMPREPLY[@]}" | sort
		exit 0' comp "$@"
}

# want LINE...: the lines, sorted, to compare with comp's.
want() { printf '%s\n' "$@" | sort; }

test_expect_success 'the script registers _aiperf for aiperf' '
	bash -c ". \"\$COMPLETION\" && complete -p aiperf" | grep -q -- "-F _aiperf aiperf"
'

test_expect_success 'commands: ours, the stages and a user'"'"'s, from aiperf --list-commands' '
	comp aiperf "" >out &&
	aiperf --list-commands >list && test_cmp list out &&
	for c in profile analyze-trace synthesize gen trace; do grep -qx "$c" out; done &&
	comp aiperf pro >out && want profile >exp && test_cmp exp out &&
	comp aiperf help an >out && want analyze-trace >exp && test_cmp exp out &&
	mkdir ext && printf "#!/bin/sh\n" >ext/aiperf-mine && chmod +x ext/aiperf-mine &&
	PATH=$PWD/ext:$PATH comp aiperf mi >out && want mine >exp && test_cmp exp out &&
	comp aiperf --v >out && want --version >exp && test_cmp exp out
'

test_expect_success 'profile options by prefix, aliases too, refused ones not' '
	comp aiperf profile --endpoint >out &&
	want --endpoint --endpoint-type >exp && test_cmp exp out &&
	comp aiperf profile -m x --num-req >out && want --num-requests >exp && test_cmp exp out &&
	comp aiperf profile -v >out && want -v -vv >exp && test_cmp exp out &&
	comp aiperf profile --public >out && want --public-dataset --public-dataset-dir >exp && test_cmp exp out &&
	comp aiperf profile --download-vid >out && want --download-video-content >exp && test_cmp exp out &&
	comp aiperf profile --search-sp >out && test_cmp /dev/null out &&
	comp aiperf profile --audio-len >out &&
	want --audio-length-mean --audio-length-stddev >exp && test_cmp exp out &&
	comp aiperf profile --gpu-tel >out && want --gpu-telemetry >exp && test_cmp exp out
'

test_expect_success 'every accepted name and no other completes from "-"' '
	grep -v "^#" "$TSV" | awk -F"\t" "\$8 != \"no\" { print \$1; if (\$2 != \"-\") { n = split(\$2, a, \" \"); for (i = 1; i <= n; i++) print a[i] } }" |
		sort >exp &&
	comp aiperf profile - >out && test_cmp exp out &&
	test "$(wc -l <out)" -gt 100
'

test_expect_success 'a value: the documented choices, also after --name=' '
	comp aiperf profile --export-level "" >out &&
	want summary records raw >exp && test_cmp exp out &&
	comp aiperf profile --export-level = r >out && want records raw >exp && test_cmp exp out &&
	comp aiperf profile --ui = >out && want dashboard none simple >exp && test_cmp exp out &&
	comp aiperf profile --connection-reuse-strategy s >out &&
	want sticky-user-sessions >exp && test_cmp exp out &&
	comp aiperf profile --input-file "" >out && test_cmp /dev/null out &&
	comp aiperf profile --streaming --str >out && want --streaming >exp && test_cmp exp out
'

test_expect_success 'not profile: nothing of ours (file names)' '
	comp aiperf analyze-trace --b >out && test_cmp /dev/null out
'

test_expect_success 'installed layout: the table in share/aiperf, found through bin/aiperf' '
	mkdir -p i/bin i/share/aiperf i/share/bash-completion/completions &&
	cp "$TOP/bin/aiperf" "$TOP/bin/aiperf-profile" i/bin/ &&
	sed "s/^--ui-type\(	[^	]*	[^	]*	[^	]*	[^	]*	[^	]*\)	[^	]*	/--ui-type\1	only-here	/" \
		"$TSV" >i/share/aiperf/profile-options.tsv &&
	cp "$COMPLETION" i/share/bash-completion/completions/aiperf &&
	grep -q only-here i/share/aiperf/profile-options.tsv &&
	COMPLETION=$PWD/i/share/bash-completion/completions/aiperf \
		comp "$PWD/i/bin/aiperf" profile --ui-type "" >out &&
	want only-here >exp && test_cmp exp out &&
	test_expect_code 2 i/bin/aiperf profile -m m --search-space s 2>err &&
	grep -q "not supported" err
'

test_expect_success 'aiperf plugins: its options, the categories, a category'"'"'s plugins' '
	comp aiperf plugins --c >out && want --category >exp && test_cmp exp out &&
	comp aiperf plugins endp >out && want endpoint >exp && test_cmp exp out &&
	comp aiperf plugins --category ui >out && want ui >exp && test_cmp exp out &&
	comp aiperf plugins endpoint chat >out &&
	want chat chat_embeddings >exp && test_cmp exp out &&
	comp aiperf plugins -a ui "" >out && grep -qx dashboard out
'

test_done
