#!/bin/sh
# Installs the test peer (tests/peer: an OpenAI-compatible server that others
# wrote) with `npm ci` into tests/peer/node_modules, which git ignores.
# Exits 0 with a note on stderr when npm is missing or the install fails:
# the cli test that runs the peer (t0440) then skips, it does not fail.
set -u
cd "$(dirname "$0")/../tests/peer" || exit 1
# node_modules/.installed-lock: the lock file it was installed from
if cmp -s package-lock.json node_modules/.installed-lock 2>/dev/null; then
	exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
	echo "install-peer: no npm; the peer server tests will skip" >&2
	exit 0
fi
if ! timeout 300 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error \
	</dev/null >/dev/null 2>npm-ci.log; then
	echo "install-peer: npm ci failed (tests/peer/npm-ci.log); the peer server tests will skip" >&2
	rm -rf node_modules
	exit 0
fi
rm -f npm-ci.log
cp package-lock.json node_modules/.installed-lock
