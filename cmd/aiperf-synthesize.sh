#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# aiperf synthesize [options] [FILE]: the original's command, which is
# aiperf-trace synthesize (aiperf-trace(1)).
PATH=$(dirname "$0"):$PATH	# the aiperf-trace beside this script first
exec aiperf-trace synthesize "$@"
