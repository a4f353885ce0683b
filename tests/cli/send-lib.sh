#!/bin/sh
# Helpers for the aiperf-send cli tests (sourced after lib.sh).

# reqs N [stream] [extra json members]: N chat request records on stdout.
reqs() {
	n=$1 stream=${2:-true} extra=${3:-}
	i=0
	while [ "$i" -lt "$n" ]; do
		printf '{"schema":"aiperf.request/1","id":"req_%06d","session_num":%d,"conversation_id":"session_%06d","x_correlation_id":"corr_%d","turn_index":0,"num_turns":1,"phase":"profiling","model":"m","endpoint_type":"chat","path":"/v1/chat/completions","stream":%s,"max_tokens":4%s,"payload":{"model":"m","messages":[{"role":"user","content":"hello %d"}],"stream":%s,"max_completion_tokens":4}}\n' \
			"$i" "$i" "$i" "$i" "$stream" "$extra" "$i" "$stream"
		i=$((i + 1))
	done
}

# count PATTERN FILE: lines of FILE holding the fixed string PATTERN.
count() {
	grep -c -F -- "$1" "$2" || true
}

# start_canned FILE [PIECE]: serve FILE's bytes to every request; sets CANNED_URL.
start_canned() {
	python3 "$TOP/tests/cli/send-canned.py" "$@" >"$TMP/.canned.url" &
	CANNED_PID=$!
	i=0
	while [ ! -s "$TMP/.canned.url" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	CANNED_URL=$(head -1 "$TMP/.canned.url")
	[ -n "$CANNED_URL" ]
}

# stop_mock: kill the running mock so start_mock can start another.
stop_mock() {
	if [ -n "$MOCK_PID" ]; then
		kill "$MOCK_PID" 2>/dev/null
		wait "$MOCK_PID" 2>/dev/null
	fi
	MOCK_PID=
	rm -f "$TMP/.mock.url"
}

# start_canned_ok: a server answering every request with 200 and {},
# logging what reached the wire to $TMP/wire (CANNED_LOG); sets CANNED_URL.
start_canned_ok() {
	printf "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}" >"$TMP/ok"
	CANNED_LOG=$TMP/wire
	export CANNED_LOG
	start_canned "$TMP/ok"
}

stop_canned() {
	if [ -n "$CANNED_PID" ]; then
		kill "$CANNED_PID" 2>/dev/null
		wait "$CANNED_PID" 2>/dev/null
	fi
	CANNED_PID=
	rm -f "$TMP/.canned.url"
}

# sessions N TURNS [delay_ns]: N chat sessions of TURNS turns each, turns in order.
sessions() {
	n=$1 turns=$2 delay=${3:-0}
	i=0
	while [ "$i" -lt "$n" ]; do
		t=0
		while [ "$t" -lt "$turns" ]; do
			hist='' d=''
			[ "$t" -gt 0 ] && hist=',"history":true' && d=",\"delay_ns\":$delay"
			printf '{"id":"s%d_t%d","session_num":%d,"conversation_id":"session_%d","x_correlation_id":"corr_%d","turn_index":%d,"num_turns":%d,"path":"/v1/chat/completions","stream":true%s%s,"payload":{"model":"m","messages":[{"role":"user","content":"q%d.%d"}],"stream":true,"max_completion_tokens":3}}\n' \
				"$i" "$t" "$i" "$i" "$i" "$t" "$turns" "$hist" "$d" "$i" "$t"
			t=$((t + 1))
		done
		i=$((i + 1))
	done
}

# wait_lines FILE N: until FILE has N lines (bounded, not a timing assertion).
wait_lines() {
	i=0
	while [ "$( (wc -l <"$1") 2>/dev/null || echo 0)" -lt "$2" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# wait_grep N PATTERN FILE: until FILE has N lines holding the fixed string
# PATTERN; after 30 s says so and fails. Tests wait on such an event (a
# record written, the mock's -v log line for a request) instead of sleeping
# a fixed time that a slow or loaded machine can outrun.
wait_grep() {
	_wg=0
	while _wn=$(count "$2" "$3" 2>/dev/null) && [ "${_wn:-0}" -lt "$1" ]; do
		if [ $_wg -ge 600 ]; then
			echo "wait_grep: $3 never had $1 lines with '$2'" >&2
			return 1
		fi
		sleep 0.05
		_wg=$((_wg + 1))
	done
}
