#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# aiperf validate [OPTIONS] DIR: checks an artifact directory of aiperf
# profile (aiperf-validate(1)); the checks are aiperf-export's, which owns
# the file names and the summary code they recompute.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec -a aiperf-validate "$here/aiperf-export" --validate "$@"
