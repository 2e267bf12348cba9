#!/bin/sh
# description: kmark record -o trace.dat, of the same records as the trace file and live; the files go to the host, where trace-cmd, KernelShark's library and traceshark open them (qemu-tests/dat_check.py)
. /tests/lib.sh
plan 2
reset_kmark
dat_dump same same
dat_dump live live
reset_kmark
