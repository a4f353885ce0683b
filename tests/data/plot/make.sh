#!/bin/sh
# Remakes the artifact folders aiperf-plot's tests read (t0850..t0852,
# t0808): real `aiperf profile` runs against aiperf-mock, one with
# timeslices, server metrics and GPU telemetry (a second mock as the DCGM
# exporter), a concurrency sweep of three and one of two with GPU
# telemetry (gpu-c1, gpu-c2: the per-GPU Pareto plots), kept to the files
# aiperf-plot reads. The tests compute what each plot must show from these files
# themselves, so a remade fixture needs no other change.
# usage: tests/data/plot/make.sh   (from a built tree)
set -eu
cd "$(dirname "$0")"
top=$(cd ../../.. && pwd)
export PATH="$top/bin:$PATH" LC_ALL=C
tmp=$(mktemp -d)
pids=
trap 'kill $pids 2>/dev/null; rm -rf "$tmp"' EXIT
mock() {	# mock NAME ARGS...: a new aiperf-mock, its URL in $tmp/NAME.url
	n=$1
	shift
	aiperf-mock --port 0 "$@" >"$tmp/$n.url" 2>/dev/null &
	pids="$pids $!"
	i=0
	while [ ! -s "$tmp/$n.url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
mock llm --ttft-ms 20 --itl-ms 5
mock dcgm --dcgm --dcgm-gpus 2
url=$(head -1 "$tmp/llm.url")
dcgm=$(head -1 "$tmp/dcgm.url")
prof() {
	aiperf profile --model m --url "$url" --endpoint-type chat --streaming \
		--tokenizer builtin --isl 16 --osl 8 --random-seed 42 "$@" >/dev/null
}
prof --concurrency 2 --request-count 16 --slice-duration 0.1 \
	--gpu-telemetry "$dcgm" --artifact-dir "$tmp/single"
for c in 1 2 4; do
	prof --concurrency $c --request-count 8 --artifact-dir "$tmp/pareto-c$c"
done
for c in 1 2; do
	prof --concurrency $c --request-count 8 --gpu-telemetry "$dcgm" \
		--artifact-dir "$tmp/gpu-c$c"
done
keep="profile_export_aiperf.json profile_export.jsonl
profile_export_aiperf_timeslices.json server_metrics_export.json
gpu_telemetry_export.jsonl"
rm -rf single pareto-c1 pareto-c2 pareto-c4 gpu-c1 gpu-c2
for d in single pareto-c1 pareto-c2 pareto-c4 gpu-c1 gpu-c2; do
	mkdir "$d"
	[ "$d" = single ] || keep=profile_export_aiperf.json
	for f in $keep; do
		cp "$tmp/$d/$f" "$d/"
	done
done
