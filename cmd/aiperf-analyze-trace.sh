#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# aiperf analyze-trace --input-file F [--block-size N] [--output-file F]
# (or FILE in place of --input-file F): the original's command, which is
# aiperf-trace analyze (aiperf-trace(1)).
PATH=$(dirname "$0"):$PATH	# the aiperf-trace beside this script first
exec aiperf-trace analyze "$@"
