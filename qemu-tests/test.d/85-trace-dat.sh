#!/bin/sh
# description: kmark record -o trace.dat, of the same records as the trace file (with and without sched events) and live; the files go to the host, where trace-cmd, KernelShark's library and traceshark open them (qemu-tests/dat_check.py)
. /tests/lib.sh
plan 3
reset_kmark
dat_dump same same
dat_dump live live
dat_dump owners owners
reset_kmark
