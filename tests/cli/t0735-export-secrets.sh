#!/bin/sh
# aiperf-export: no secret from --cli-command or --input-config reaches the
# console or a file (issue #9); lib/redact decides what a secret is.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

IN=$TOP/tests/golden/aiperf-export/streaming/in.ndjson
CLI="aiperf profile --model m --url 'http://user:SECRET1@h:8000/?api_key=SECRET2' --api-key SECRET3 --header 'X-Api-Key: SECRET4' --header 'X-Custom: visible'"

test_expect_success 'the CLI Command line and the JSON copy are redacted' '
	printf "{\"endpoint\":{\"urls\":[\"http://u:SECRET5@h\"],\"api_key\":\"SECRET6\",\"headers\":{\"Authorization\":\"Bearer SECRET7\",\"X-Custom\":\"visible\"}},\"input\":{\"headers\":[[\"Cookie\",\"SECRET8\"]]},\"cli_command\":%s}\n" \
		"$(printf "%s" "$CLI" | jq -Rs .)" >cfg.json &&
	aiperf-export --artifact-dir art --input-config cfg.json --cli-command "$CLI" \
		--export-level summary <"$IN" >out &&
	! grep -rq "SECRET" out art &&
	grep -qF "CLI Command: aiperf profile --model m --url '"'"'http://<redacted>@h:8000/?api_key=<redacted>'"'"' --api-key '"'"'<redacted>'"'"' --header '"'"'X-Api-Key: <redacted>'"'"' --header '"'"'X-Custom: visible'"'"'" out &&
	j=art/profile_export_aiperf.json &&
	test "$(jq -r .input_config.endpoint.urls[0] $j)" = "http://<redacted>@h" &&
	test "$(jq -r .input_config.endpoint.api_key $j)" = "<redacted>" &&
	test "$(jq -r .input_config.endpoint.headers.Authorization $j)" = "<redacted>" &&
	test "$(jq -r .input_config.endpoint.headers[\"X-Custom\"] $j)" = visible &&
	test "$(jq -r .input_config.input.headers[0][1] $j)" = "<redacted>" &&
	jq -r .input_config.cli_command $j | grep -qF -- "--api-key '"'"'<redacted>'"'"'"
'

test_expect_success 'a command line without secrets is written as given' '
	aiperf-export --cli-command "aiperf profile -m x --streaming --url http://h:1" \
		<"$IN" >out &&
	grep -qx "CLI Command: aiperf profile -m x --streaming --url http://h:1" out
'

test_done
