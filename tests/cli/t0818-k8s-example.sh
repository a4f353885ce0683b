#!/bin/sh
# examples/k8s/aiperf-indexed-job.yaml (aiperf(7), Several hosts): valid
# YAML of the shape the recipe says (an Indexed Job of N shards, one merge
# Job on the same volume, the same aiperf options in both), and its
# command lines are ones aiperf profile accepts.
# shellcheck disable=SC2016,SC2034 # test bodies are eval'd strings (they use these)
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"

Y=$TOP/examples/k8s/aiperf-indexed-job.yaml
PY=/usr/bin/python3

if ! $PY -c "import yaml" 2>/dev/null; then
	test_skip_all "no python3-yaml (scripts/install-deps.sh)"
fi

test_expect_success 'the manifest: an Indexed Job of N shards, then a merge Job' '
	$PY - "$Y" >cmds <<-\PYEOF
	import shlex, sys, yaml
	docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
	kinds = [d["kind"] for d in docs]
	assert kinds == ["PersistentVolumeClaim", "Job", "Job"], kinds
	pvc, shards, merge = docs
	assert "ReadWriteMany" in pvc["spec"]["accessModes"]
	s = shards["spec"]
	assert s["completionMode"] == "Indexed"
	n = s["completions"]
	assert n == s["parallelism"] and n >= 2, (n, s["parallelism"])
	def cmd(job):
	    c = job["spec"]["template"]["spec"]["containers"][0]
	    vols = job["spec"]["template"]["spec"]["volumes"]
	    assert vols[0]["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
	    return " ".join(c["args"])
	a, b = cmd(shards), cmd(merge)
	assert "JOB_COMPLETION_INDEX + 1" in a and "--shard" in a and "--start-at" in a
	assert "--from-records" in b and "--shard" not in b
	assert str(n) in b.split("wc -l)\" -ge ")[1].split("]")[0]
	def opts(c, drop):
	    c = c.replace("$((JOB_COMPLETION_INDEX + 1))", "1")
	    c = c[c.index("aiperf profile"):].split(";")[0]
	    w = shlex.split(c)[2:]
	    out, i = [], 0
	    while i < len(w):
	        if w[i] in drop: i += 2; continue
	        out.append(w[i]); i += 1
	    return out
	oa = opts(a, {"--shard", "--start-at", "--artifact-dir"})
	ob = opts(b, {"--from-records", "--artifact-dir"})
	assert oa == ob, (oa, ob)
	assert "--random-seed" in oa and oa[oa.index("--workers-max") + 1] == str(n)
	print(" ".join(oa))
	PYEOF
	test -s cmds
'

test_expect_success 'its options are ones aiperf profile accepts (a shard needs the seed)' '
	set -- $(cat cmds) &&
	test_expect_code 2 aiperf profile "$@" --shard 9 2>err &&
	grep -q "invalid value for --shard" err
'

test_done
