#!/bin/sh
# aiperf plugins: the original's plugin categories, each plugin's status
# computed from the tables the tools use (a stage's --list-choices,
# profile-options.tsv, what aiperf-export writes), never from a list of its
# own; stand-in stages in fake/ show that the answer follows the tools.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

ORIG=$TOP/data/plugins-original.tsv
export ORIG

# fake/: aiperf-plugins with stand-in stages beside it (it puts its own
# folder first on PATH); fake_stage TOOL 'OPTION VALUES...'...: TOOL lists
# VALUES for each OPTION named, refuses --list-choices for the others and
# runs the real TOOL otherwise.
mkdir -p "$TMP/fake"
cp "$TOP/bin/aiperf-plugins" "$TMP/fake/"
fake_stage() {
	tool=$1
	shift
	{
		echo '#!/bin/sh'
		echo 'if [ "$1" = --list-choices ]; then'
		echo '	case $2 in'
		for spec in "$@"; do
			opt=${spec%% *}
			printf "\t%s) printf '%%s\\\\n' %s; exit 0 ;;\n" "$opt" "${spec#* }"
		done
		echo '	esac'
		echo '	exit 2'
		echo 'fi'
		echo "exec '$TOP/bin/$tool' \"\$@\""
	} >"$TMP/fake/$tool"
	chmod +x "$TMP/fake/$tool"
}
# flat FILE: FILE on one line, blanks folded (wrapped text greps whole).
flat() {
	tr -s " \n" "  " <"$1"
}
fake_plugins() {
	AIPERF_DATA_DIR=$TOP/data "$TMP/fake/aiperf-plugins" "$@"
}

test_expect_success 'no argument: the installed package; no hint into a pipe' '
	aiperf plugins >out &&
	sed -n 1p out | grep -qx "Installed Packages" &&
	grep -q "^aiperf  *[0-9][0-9.]*  *[0-9][0-9]*  *AIPerf in C" out &&
	! grep -q "Usage:" out
'

test_expect_success 'a category: its types, from the stage'"'"'s option table' '
	aiperf plugins ui >out &&
	grep -q "^UI components provide progress tracking" out &&
	grep -qx "UI Types" out &&
	awk "f { print \$1 } /^Type  *Status  *Description/ { f = 1 }" out | sort >got &&
	aiperf-send --list-choices ui-type | sort >want &&
	test_cmp want got &&
	grep -q "^simple  *provided  *Simple progress bar UI using tqdm\.$" out
'

test_expect_success 'the stages decide: a value they drop, one of their own' '
	fake_stage aiperf-send "--ui-type none simple turbo" &&
	fake_stage aiperf-gen "--endpoint-type chat completions" &&
	fake_stage aiperf-metrics "--endpoint-type chat embeddings" &&
	fake_plugins ui >out &&
	grep -q "^none  *provided " out && grep -q "^turbo  *ours " out &&
	! grep -q "^dashboard" out &&
	fake_plugins --all ui >out &&
	grep -q "^dashboard  *not provided " out &&
	fake_plugins ui dashboard >out &&
	flat out | grep -q "Status: not provided: aiperf-send does not accept --ui-type dashboard (it takes: none, simple, turbo)" &&
	fake_plugins ui turbo >out &&
	grep -q "^Status: *ours$" out && grep -q "^Provided by: *aiperf-send$" out &&
	! grep -q "^Original:" out &&
	fake_plugins endpoint >out &&
	grep -q "^chat  *provided " out && ! grep -q "^completions" out &&
	! grep -q "^embeddings" out &&
	fake_plugins endpoint completions >out &&
	flat out | grep -q "not provided: aiperf-metrics does not accept --endpoint-type completions (it takes: chat, embeddings)" &&
	fake_plugins endpoint chat >out &&
	grep -q "^Provided by: *aiperf-gen, aiperf-metrics, aiperf-export$" out &&
	grep -q "^Selected by: *aiperf profile --endpoint-type chat$" out &&
	grep -q "^ *aiperf-gen --endpoint-type chat$" out &&
	flat out | grep -q "Original: aiperf.endpoints.openai_chat:ChatEndpoint, selected by --endpoint-type chat"
'

test_expect_success 'no stage lists the values: unknown, and why' '
	fake_stage aiperf-gen &&
	fake_stage aiperf-metrics &&
	fake_plugins endpoint >out &&
	grep -q "^chat  *unknown " out &&
	fake_plugins endpoint chat >out &&
	flat out | grep -q "Status: unknown: the option tables of aiperf-gen, aiperf-metrics, aiperf-export list no values of --endpoint-type" &&
	! grep -q "^Provided by:" out
'

test_expect_success 'refused by aiperf profile: profile-options.tsv says why' '
	mkdir -p refused && cp "$ORIG" refused/ &&
	awk -F "\t" -v OFS="\t" "\$1 == \"--accuracy-grader\" || \$1 == \"--accuracy-benchmark\" { \$8 = \"no\"; \$9 = \"a test reason\" } { print }" \
		"$TOP/data/profile-options.tsv" >refused/profile-options.tsv &&
	AIPERF_DATA_DIR=$PWD/refused aiperf plugins accuracy_grader exact_match >out &&
	flat out | grep -qF "Status: not provided: a test reason " &&
	aiperf plugins console_exporter telemetry >out &&
	grep -q "^Status: *provided\$" out &&
	aiperf plugins gpu_telemetry_collector pynvml >out &&
	grep -q "^Status: *provided\$" out &&
	AIPERF_DATA_DIR=$PWD/refused aiperf plugins accuracy_benchmark mmlu >out &&
	flat out | grep -qF "Status: not provided: a test reason " &&
	aiperf plugins service worker >out &&
	grep -q "^Status: *not provided: the original chooses it inside" out &&
	aiperf plugins timing_strategy fixed_schedule >out &&
	grep -q "^Status: *provided$" out &&
	grep -q "^Selected by: *aiperf profile --fixed-schedule$" out
'

test_expect_success 'the always-on exporters: what aiperf-export writes and prints' '
	aiperf plugins data_exporter >out &&
	grep -q "^csv  *provided " out && grep -q "^json  *provided " out &&
	aiperf plugins console_exporter >out &&
	grep -q "^metrics  *provided " out && grep -q "^errors  *provided " out &&
	printf "#!/bin/sh\nexit 2\n" >"$TMP/fake/aiperf-export" &&
	chmod +x "$TMP/fake/aiperf-export" &&
	fake_plugins -a data_exporter >out &&
	grep -q "^csv  *not provided " out &&
	fake_plugins data_exporter json >out &&
	flat out | grep -q "not provided: aiperf-export does not write profile_export_aiperf.json" &&
	fake_plugins console_exporter errors >out &&
	flat out | grep -q "aiperf-export does not print .NVIDIA AIPerf | Error Summary." &&
	rm "$TMP/fake/aiperf-export"
'

test_expect_success '--all: every category of the original, the rest marked' '
	aiperf plugins --all >out &&
	sed -n 1p out | grep -qx "Plugin Categories" &&
	grep -v "^#" "$ORIG" | awk -F "\t" "\$2 == \"-\" { print \$1 }" >cats &&
	test "$(wc -l <cats)" -ge 20 &&
	while read -r c; do grep -q "($c[,)]" out || { echo "no $c"; exit 1; }; done <cats &&
	grep -q "^Endpoint (endpoint)$" out &&
	grep -q "^UI (ui)$" out && grep -q "^URL Selection Strategy (url_selection_strategy)$" out &&
	grep -q "^  provided: *dashboard, none, simple$" out &&
	grep -q "^  not provided: " out &&
	aiperf plugins -a ramp >all && aiperf plugins ramp >some &&
	grep -q "^linear  *provided " some && ! grep -q "not provided" some &&
	grep -q "^linear  *provided " all && grep -q "^poisson  *not provided " all &&
	aiperf plugins api_router >out &&
	grep -q "^none provided (aiperf plugins --all api_router lists" out &&
	aiperf plugins accuracy_grader >out &&
	grep -q "^lighteval_latex  *provided " out && ! grep -q "not provided" out
'

test_expect_success 'the original'"'"'s ways to name a category and a type' '
	aiperf plugins ui simple >a &&
	aiperf plugins --category ui --name simple >b && test_cmp a b &&
	aiperf plugins --category=UI --name=Simple >b && test_cmp a b &&
	aiperf plugins --no-all --no-validate Ui SIMPLE >b && test_cmp a b &&
	head -1 a | grep -qx "ui:simple" &&
	aiperf plugins custom-dataset-loader >a &&
	aiperf plugins custom_dataset_loader >b && test_cmp a b &&
	grep -qx "Custom Dataset Loader Types" a
'

test_expect_success '--name alone: that name in every category' '
	aiperf plugins --name poisson >out &&
	grep -qx "arrival_pattern:poisson" out && grep -qx "ramp:poisson" out
'

test_expect_success 'usage errors: exit 2, the known ones named' '
	test_expect_code 2 aiperf plugins bogus >out 2>err && test ! -s out &&
	grep -q "^aiperf plugins: unknown category .bogus. (known: .*endpoint, .*ui, " err &&
	grep -q "^Try .aiperf plugins --help." err &&
	test_expect_code 2 aiperf plugins ui bogus 2>err &&
	grep -q "unknown ui type .bogus. (known: dashboard, none, simple)" err &&
	test_expect_code 2 aiperf plugins --name bogus 2>err &&
	grep -q "no plugin named .bogus." err &&
	test_expect_code 2 aiperf plugins ui none x 2>err &&
	grep -q "unexpected argument .x." err &&
	test_expect_code 2 aiperf plugins --verbose 2>err &&
	grep -q "unknown option .--verbose." err &&
	test_expect_code 2 aiperf plugins --category 2>err &&
	grep -q "option .--category. requires an argument" err &&
	test_expect_code 2 aiperf plugins --category ui endpoint 2>err &&
	grep -q "a category given twice" err
'

test_expect_success '--validate: the tables checked; a broken one fails' '
	aiperf plugins -v >out &&
	grep -q "Plugin tables$" out && tail -1 out | grep -qx "All checks passed" &&
	mkdir -p data && cp "$TOP/data/profile-options.tsv" data/ &&
	cp "$ORIG" data/plugins-original.tsv &&
	printf "ui\tturbo\t--ui-type=turbo\tx\n" >>data/plugins-original.tsv &&
	printf "nosuch\tx\t--x=y\tc\td\n" >>data/plugins-original.tsv &&
	printf "ui\tnone\t--ui-type=none\tc\td\n" >>data/plugins-original.tsv &&
	printf "ui\tweird\t+weird\tc\td\n" >>data/plugins-original.tsv &&
	n=$(wc -l <data/plugins-original.tsv) &&
	test_expect_code 1 env AIPERF_DATA_DIR=$PWD/data aiperf plugins --validate >out &&
	tail -1 out | grep -qx "Validation failed" &&
	grep -q "plugins-original.tsv:$((n - 3)): not 5 tab-separated fields" out &&
	grep -q ":$((n - 2)): category .nosuch. before its own line" out &&
	grep -q ":$((n - 1)): .ui/none. twice" out &&
	grep -q ":$n: unknown selector .+weird." out &&
	test_expect_code 1 env AIPERF_DATA_DIR=$PWD/data aiperf plugins ui >out 2>err &&
	grep -q "not 5 tab-separated fields (aiperf plugins --validate lists all)" err
'

test_expect_success 'aiperf finds it and completes it; help plugins is plugins --help' '
	aiperf --list-commands | grep -qx plugins &&
	COMPLETION=$TOP/completion/aiperf.bash bash -c ". \"\$COMPLETION\" &&
		COMP_WORDS=(aiperf plug) COMP_CWORD=1 && _aiperf &&
		printf \"%s\n\" \"\${COMPREPLY[@]}\"" >out &&
	echo plugins >want && test_cmp want out &&
	aiperf help plugins >a && aiperf plugins --help >b && test_cmp a b &&
	grep -q "^usage: aiperf plugins \[-a | --all\]" a
'

test_expect_success 'every C stage answers --list-choices from its table' '
	for t in gen send metrics export mock tok; do
		test_expect_code 2 "aiperf-$t" --list-choices help >out 2>err &&
		grep -q "^aiperf-$t: --list-choices: --help has no list of values" err &&
		test ! -s out || exit 1
	done &&
	aiperf-send --list-choices --ui-type >want && aiperf-send --list-choices ui-type >got &&
	test_cmp want got &&
	aiperf-send --completion bash | grep -q "compgen -W .$(paste -sd " " got)."
'

test_done
