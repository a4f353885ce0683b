#!/bin/bash
# scripts/gpu-check.sh: GPU telemetry through NVML on a machine with an
# NVIDIA GPU (issue #15), side by side with nvidia-smi. Runs the built
# tools of this checkout (make first): aiperf-scrape --nvml --once, then
# `aiperf profile --gpu-telemetry pynvml` against aiperf-mock, and prints
# what nvidia-smi says beside what we report (GPU name, power, memory).
# Writes its files under $OUT (default a temporary folder, kept).
# Env: AIPERF_LIBS  a folder holding the shared libraries the tools were
#                   linked with (and their ld-linux-x86-64.so.2), for a
#                   machine that lacks them: each tool then runs through
#                   that loader (scripts/gpu-check-libs.sh DIR fills it).
# Not a test (no GPU in CI): exit 0 when every check printed passes.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
BIN=$TOP/bin
fail=0
say() { printf '%s\n' "$*" | tee -a "$OUT/summary.txt"; }
check() {	# NAME CONDITION...
	local name=$1
	shift
	if "$@"; then say "PASS $name"; else say "FAIL $name"; fail=1; fi
}

if [ -n "${AIPERF_LIBS:-}" ]; then
	sh "$TOP/scripts/libs-bin.sh" "$AIPERF_LIBS" "$BIN" "$OUT/bin" || exit 1
	BIN=$OUT/bin
	export AIPERF_DATA_DIR=$TOP/data
fi
PATH=$BIN:$PATH
export PATH

say "== nvidia-smi"
nvidia-smi --query-gpu=index,name,uuid,power.draw,memory.used,memory.total,temperature.gpu \
	--format=csv,noheader,nounits | tee "$OUT/smi.csv" | tee -a "$OUT/summary.txt"

say "== aiperf-scrape --nvml --once"
aiperf-scrape --nvml --once >"$OUT/nvml.ndjson" 2>"$OUT/nvml.err"
st=$?
cat "$OUT/nvml.err" >>"$OUT/summary.txt"
check "aiperf-scrape --nvml exits 0 (status $st)" test "$st" = 0
check "one sample record" test "$(wc -l <"$OUT/nvml.ndjson")" = 1
python3 - "$OUT/nvml.ndjson" "$OUT/smi.csv" <<'EOF' | tee -a "$OUT/summary.txt"
import json, sys
rec = json.loads(open(sys.argv[1]).readline())
smi = [l.split(", ") for l in open(sys.argv[2]).read().splitlines()]
m = rec.get("metrics", {})
def series(name):
    return {s["labels"].get("gpu"): s for s in m.get(name, {}).get("series", [])}
power, fb = series("DCGM_FI_DEV_POWER_USAGE"), series("DCGM_FI_DEV_FB_USED")
ok = True
for idx, name, uuid, watts, used, total, temp in smi:
    p, f = power.get(idx), fb.get(idx)
    if not p or not f:
        print(f"FAIL gpu {idx}: no power or memory series"); ok = False; continue
    same = p["labels"].get("modelName") == name and p["labels"].get("UUID") == uuid
    print(f"{'PASS' if same else 'FAIL'} gpu {idx} name/UUID: ours {p['labels'].get('modelName')} "
          f"{p['labels'].get('UUID')}, nvidia-smi {name} {uuid}")
    dw = abs(p["value"] - float(watts))
    print(f"{'PASS' if dw < 0.15 * float(watts) + 5 else 'FAIL'} gpu {idx} power: ours "
          f"{p['value']:.2f} W, nvidia-smi {watts} W")
    dm = abs(f["value"] - float(used))
    print(f"{'PASS' if dm <= 1024 else 'FAIL'} gpu {idx} memory used: ours {f['value']:.0f} MiB, "
          f"nvidia-smi {used} MiB (NVML v1 counts reserved memory)")
    ok = ok and same and dw < 0.15 * float(watts) + 5 and dm <= 1024
sys.exit(0 if ok else 1)
EOF
[ "${PIPESTATUS[0]}" = 0 ] || fail=1
# GPM (Hopper and newer) gives SM utilization, a second scrape apart from
# the first sample; JPEG engines (A100, H100, H200) give JPEG utilization.
# Scrapes 0.2 s apart for about a second: the last one counts.
aiperf-scrape --nvml --interval 0.2 >"$OUT/nvml-gpm.ndjson" 2>>"$OUT/nvml.err" &
scr=$!
sleep 1
kill -TERM "$scr" && wait "$scr"
python3 - "$OUT/nvml-gpm.ndjson" "$OUT/smi.csv" <<'EOF' | tee -a "$OUT/summary.txt"
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
smi = [l.split(", ") for l in open(sys.argv[2]).read().splitlines()]
m = rec.get("metrics", {})
ok = True
for fam, what in (("aiperf_nvml_sm_utilization", "SM utilization (GPM)"),
                  ("aiperf_nvml_jpg_utilization", "JPEG utilization")):
    got = {s["labels"].get("gpu"): s["value"] for s in m.get(fam, {}).get("series", [])}
    for idx, name, *_ in smi:
        hopper = any(h in name for h in ("H100", "H200", "H800", "GH200"))
        v = got.get(idx)
        good = v is not None and 0 <= v <= 100
        tag = "PASS" if good else ("FAIL" if hopper else "INFO")
        ok = ok and (good or not hopper)
        print(f"{tag} gpu {idx} {what}: {v!r}")
sys.exit(0 if ok else 1)
EOF
[ "${PIPESTATUS[0]}" = 0 ] || fail=1

say "== aiperf profile --gpu-telemetry pynvml against aiperf-mock"
aiperf-mock --port 0 --ttft-ms 20 --itl-ms 5 >"$OUT/mock.url" 2>"$OUT/mock.err" &
mock=$!
i=0
while [ ! -s "$OUT/mock.url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
url=$(head -1 "$OUT/mock.url")
aiperf profile -m m --url "$url" --tokenizer builtin --streaming --isl 64 --osl 64 \
	--concurrency 4 --request-count 200 --warmup-request-count 4 \
	--gpu-telemetry pynvml --artifact-dir "$OUT/run" >"$OUT/profile.out" 2>"$OUT/profile.err"
st=$?
kill "$mock" 2>/dev/null
tail -40 "$OUT/profile.out" >>"$OUT/summary.txt"
check "aiperf profile exits 0 (status $st)" test "$st" = 0
check "gpu_telemetry_export.jsonl written" test -s "$OUT/run/gpu_telemetry_export.jsonl"
name=$(head -1 "$OUT/smi.csv" | cut -d, -f2 | sed 's/^ //')
check "telemetry_data names the GPU ($name)" \
	grep -q "\"gpu_model_name\": *\"$name\"\|\"gpu_name\": *\"$name\"" "$OUT/run/profile_export_aiperf.json"
check "the console shows the GPU table" grep -qi "power" "$OUT/profile.out"
say "files: $OUT"
exit $fail
