#!/bin/sh
# scripts/libs-bin.sh LIBS FROM TO: for a machine that lacks the shared
# libraries the tools were linked with (a GPU machine lent for a check):
# writes into TO one script per tool of FROM (a bin folder) that runs the
# tool through the loader and libraries in LIBS (filled by
# scripts/gpu-check-libs.sh); shell tools are copied as they are.
#   cp -r bin build/bin.real && scripts/libs-bin.sh build/devlibs build/bin.real bin
set -eu
[ $# -eq 3 ] || { echo "usage: scripts/libs-bin.sh LIBS FROM TO" >&2; exit 2; }
libs=$(cd "$1" && pwd)
from=$(cd "$2" && pwd)
mkdir -p "$3"
to=$(cd "$3" && pwd)
[ -e "$libs/ld-linux-x86-64.so.2" ] || { echo "libs-bin: no loader in $libs" >&2; exit 1; }
for t in "$from"/aiperf*; do
	n=${t##*/}
	if head -c 4 "$t" | grep -q ELF; then
		rm -f "$to/$n"
		printf '#!/bin/sh\nexec "%s/ld-linux-x86-64.so.2" --library-path "%s" "%s" "$@"\n' \
			"$libs" "$libs" "$t" >"$to/$n"
		chmod +x "$to/$n"
	elif [ "$from" != "$to" ]; then
		cp "$t" "$to/"
	fi
done
