#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The build's warning gate (kmark_warnings in scripts/lib.sh) catches the
# warnings of the files kmark adds or patches, by their path inside the
# tree, and nothing else, wherever the checkout is (a clone in a folder
# named "kmark" once failed every build).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# A tree that lives under a folder named kmark, as a user's clone does.
SRC=$t/kmark/build/linux
BUILD=$t/kmark/build
. "$top/scripts/lib.sh"
SRC=$t/kmark/build/linux
mapfile -t ours < <(kmark_tree_files)

expect() { # NAME WANT(0 hit/1 none) LOG-LINE...
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" > "$t/log"
	kmark_warnings "$t/log" "${ours[@]}" > /dev/null
	if [ $? = "$want" ]; then echo "ok $name"; else echo "not ok $name"; fi
}
expect "an unrelated file under a checkout named kmark is not ours" 1 \
	"$SRC/drivers/kmark/foo.c:10:5: warning: unused variable 'x' [-Wunused-variable]" \
	"$SRC/fs/namei.c:1:2: warning: something about kmark_x [-Wfoo]" \
	"/home/u/kmark/build/linux/mm/slub.c:3:4: warning: w [-Wx]"
expect "a patched file's warning is ours (fs/sync.c)" 0 \
	"$SRC/fs/sync.c:102:25: warning: zero-length gnu_printf format string [-Wformat-zero-length]"
expect "an overlay file's warning is ours" 0 \
	"$SRC/kernel/trace/kmark_fs.c:5:6: warning: unused variable 'y' [-Wunused-variable]"
expect "a header of ours, relative path" 0 \
	"include/trace/kmark.h:121:38: warning: format '%d' expects argument [-Wformat=]"
expect "the test module's warning is ours" 0 \
	"$t/kmark/build/x86_64/kmark-modules/kmark_test/kmark_test.c:9:1: warning: w [-Wx]"
expect "notes and context lines are not warnings" 1 \
	"In file included from $SRC/kernel/trace/kmark.c:30:" \
	"$SRC/kernel/trace/kmark.c:30:1: note: in expansion of macro"
