#!/bin/sh
# --image-source and --image-source-sampling through aiperf profile
# against aiperf-mock: a directory of fixture pictures (PNG and JPEG, any
# case of suffix) is the pool, its other entries (a text file, a hidden
# file) are not in it, hostile entries with image names (a FIFO, a
# directory, a broken file, a file over 64 MiB) are retired without
# hanging or stopping the run; sequential-cycle sends the pictures in name
# order, shuffle-cycle each once a cycle, random-with-replacement only
# pool pictures; noise sends random pixels; bad values get the original's
# messages.
# shellcheck disable=SC2016 source=tests/cli/lib.sh # bodies are eval'd strings
. "$(dirname "$0")/lib.sh"

start_mock --ttft-ms 0 --itl-ms 0 --output-tokens 1 || exit 1
export MOCK_URL
cd "$TMP" || exit 1

# Fixture pictures: four of one colour each, 8x8 (PNG by python3's zlib),
# one JPEG (ffmpeg's, when there is one).
python3 - <<'P' || exit 1
import os, struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
def png(path, rgb):
    raw = b"".join(b"\0" + bytes(rgb) * 8 for _ in range(8))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
os.makedirs("pics")
for name, rgb in (("1-red.png", (255, 0, 0)), ("2-green.PNG", (0, 255, 0)),
                  ("3-blue.png", (0, 0, 255)), ("4-white.png", (255, 255, 255))):
    png(os.path.join("pics", name), rgb)
P
echo notes >pics/notes.txt
cp pics/1-red.png pics/.hidden.png

# run DIR [options]: 8 requests over 8 entries, one 4x4 PNG each; the
# images sent in DIR.images (their URLs, in dataset order)
run() {
	d=$1
	shift
	aiperf profile -m m --url "$MOCK_URL" --endpoint-type chat --tokenizer builtin \
		--request-count 8 --num-dataset-entries 8 --isl 4 --osl 1 \
		--image-width-mean 4 --image-height-mean 4 --image-format png \
		--inputs-json-full-media --ui-type none --artifact-dir "$d" \
		"$@" >"$d.out" 2>"$d.err" || { cat "$d.err"; return 1; }
	jq -r ".data[].payloads[0].messages[0].content[] | select(.type == \"image_url\") |
		.image_url.url" "$d/inputs.json" >"$d.images"
}

# colours FILE: each image URL of FILE as its first pixel "R G B" (decoded
# by python3: zlib, the PNG filter of the first row's first pixel is none
# or sub, both leave it as is)
colours() {
	python3 -c '
import base64, struct, sys, zlib
for line in open(sys.argv[1]):
    b = base64.b64decode(line.strip().split(",", 1)[1])
    i, idat = 8, b""
    while i < len(b):
        n, t = struct.unpack(">I4s", b[i:i + 8])
        if t == b"IDAT":
            idat += b[i + 8:i + 8 + n]
        i += 12 + n
    raw = zlib.decompress(idat)
    print(raw[1], raw[2], raw[3])
' "$1"
}

test_expect_success 'sequential-cycle: the pictures in name order, wrapping' '
	run seq --image-source pics --image-source-sampling sequential-cycle &&
	test "$(wc -l <seq.images)" = 8 &&
	colours seq.images >got &&
	printf "%s\n" "255 0 0" "0 255 0" "0 0 255" "255 255 255" \
		"255 0 0" "0 255 0" "0 0 255" "255 255 255" >want &&
	test_cmp want got
'

test_expect_success 'shuffle-cycle: every picture once in each cycle of four' '
	run shuf --image-source pics --image-source-sampling shuffle-cycle --random-seed 4 &&
	colours shuf.images >got &&
	head -4 got | sort >c1 && tail -4 got | sort >c2 &&
	sort want | uniq >all && test_cmp all c1 && test_cmp all c2
'

test_expect_success 'random-with-replacement: pool pictures only, the same for a seed' '
	run r1 --image-source pics --random-seed 9 &&
	run r2 --image-source pics --random-seed 9 &&
	test_cmp r1.images r2.images &&
	colours r1.images | sort -u >got &&
	comm -13 all got >extra && test_cmp /dev/null extra
'

test_expect_success 'hostile entries with image names are retired, not waited on' '
	cp -r pics hostile &&
	mkfifo hostile/0-fifo.png && mkdir hostile/0-dir.jpg &&
	printf "\377\330\377\340junk" >hostile/0-broken.jpeg &&
	truncate -s 65M hostile/0-big.png &&
	run h --image-source hostile --image-source-sampling sequential-cycle &&
	colours h.images >got && test_cmp want got &&
	grep -q "4 unreadable source image files skipped" h/logs/aiperf.log h.err
'

test_expect_success 'a directory left with no readable picture stops the run' '
	mkdir dead && printf "x" >dead/a.png && ln -s /dev/zero dead/b.png &&
	st=0 && run dead --image-source dead >/dev/null 2>&1 || st=$? &&
	test "$st" != 0 &&
	grep -q "No readable source images found in .dead.. Please ensure the directory contains at least one readable image file." dead.err
'

test_expect_success 'noise: random pixels, a new image each, the same for a seed' '
	run n1 --image-source noise --random-seed 2 &&
	run n2 --image-source noise --random-seed 2 &&
	test_cmp n1.images n2.images &&
	test "$(sort -u n1.images | wc -l)" = 8 &&
	colours n1.images | sort -u >got && test "$(wc -l <got)" -gt 1
'

test_expect_success 'jpeg sources and the shipped pictures (assets)' '
	command -v ffmpeg >/dev/null || skip_because "no ffmpeg" &&
	mkdir j && ffmpeg -v error -f lavfi -i color=c=red:s=16x16 -frames:v 1 j/red.JPG &&
	run j --image-source j && test "$(wc -l <j.images)" = 8 &&
	colours j.images | sort -u >got && test "$(wc -l <got)" = 1 &&
	run a1 --random-seed 1 && run a2 --image-source assets --random-seed 1 &&
	test_cmp a1.images a2.images
'

# refused CODE MESSAGE OPTIONS...: aiperf profile exits CODE with MESSAGE
refused() {
	code=$1 msg=$2
	shift 2
	st=0
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--image-width-mean 4 --image-height-mean 4 --ui-type none "$@" >out 2>err || st=$?
	if [ "$st" != "$code" ] || ! grep -qF -- "$msg" err; then
		echo "status $st"; cat err; return 1
	fi
}

test_expect_success 'the original messages' '
	refused 1 "The directory '"'"'nowhere'"'"' does not exist." --image-source nowhere &&
	refused 1 "The path '"'"'pics/notes.txt'"'"' is not a directory." --image-source pics/notes.txt &&
	mkdir none && echo x >none/a.txt &&
	refused 1 "No source images found in '"'"'none'"'"'. Please ensure the directory contains at least one image file." \
		--image-source none &&
	refused 2 "noise has no finite source pool" --image-source noise --image-source-sampling shuffle-cycle &&
	refused 2 "invalid value for --image-source-sampling" --image-source pics --image-source-sampling sometimes
'

test_expect_success 'no images asked: the source is not looked at' '
	aiperf profile -m m --url "$MOCK_URL" --tokenizer builtin --request-count 1 \
		--ui-type none --image-source nowhere >out 2>err
'

test_done
