#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# readme-commands.sh: the host commands README.md documents (its code
# blocks and its table of commands) and Documentation/trace/kmark.rst (its
# literal blocks after '.. host commands'), found by
# scripts/tests/readme_commands.py, each typed as the document types it in
# a clean clone of this checkout, and what each promises checked. A command
# the documents gain without a check here fails, named.
#
#   readme-commands.sh [GROUP...]           clone, run the groups (all of
#                                           them), remove the clone
#   readme-commands.sh --clone DIR          make DIR/kmark, the clone
#   readme-commands.sh --in CLONE GROUP...  run groups in a clone made before
#   readme-commands.sh --list               each command, its group
#
# Groups, in the order make check runs them (scripts/check.sh runs each at
# its place in the run): configs, patches, run, bench, late, clean. The
# commands that boot need the x86_64 kernel built (make build).
#
# The clone is git clone of the checkout plus its uncommitted changes (the
# code make check tests), with build/ a symlink to the checkout's build
# folder: kbuild resolves O= to its real path and scripts/lib.sh uses
# build/ by its real path, so the clone's commands find the kernels and the
# prepared tree made and rebuild nothing (checked: a command that boots
# must leave every kernel object and bzImage as it found them). The clone
# is refused if its kernel files differ from the prepared tree, which it
# would change for everyone. make clean runs last, with the symlink
# replaced by a folder of its own: it never reaches the shared build.
#
# Prints "ok - ...", "not ok - ...", "[readme] skip COMMAND  # SKIP why" lines and
# "N passed, N failed, N skipped".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/lib.sh"
INFO_TAG=README
logs=$BUILD/check/readme-commands
passed=0 failed=0 skipped=0
# res STATUS WHAT: one test; returns STATUS (so that "res ... || shown").
res() {
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
	return "$1"
}
# A skip as make check's counting names it (scripts/tally.sh).
skip() { echo "[readme] skip $1  # SKIP $2"; skipped=$((skipped + 1)); }
diag() { sed 's/^/# /'; }
# A kernel object or image newer than this was rebuilt by the clone. One
# per run: make check runs the bench group beside the others.
stamp=$logs/.stamp.$$

# group_of COMMAND: where make check runs it; "none" if nothing here
# knows the command.
group_of() {
	case "$1" in
	'make configs') echo configs ;;
	'make patches' | 'cd /path/to/linux-6.12 && git am '*) echo patches ;;
	'make run') echo run ;;
	'make bench QUICK=1') echo bench ;;
	'make setup' | 'make demo' | 'make run SCRIPT=my.sh' | \
	'make run ARCH=i386' | "make run KERNEL_ARGS='kmark_event=sched_switch'" | \
	"make run QEMU_ARGS='-icount shift=0,sleep=off'" | 'make check' | \
	'make bench' | 'make size') echo late ;;
	'make clean') echo clean ;;
	*) echo none ;;
	esac
}

# The documents' commands: "WHERE<TAB>COMMAND" lines.
commands() {
	(cd "$top" && python3 scripts/tests/readme_commands.py README.md \
		Documentation/trace/kmark.rst)
}

# typed NAME COMMAND: run COMMAND in the clone as a user types it into a
# shell there (no make or kmark variable of ours in its environment);
# $logs/NAME.out and .err hold what it printed, $rc its status.
typed() {
	local name=$1 cmd=$2
	info "$cmd"
	(cd "$clone" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES \
		-u ARCH -u SCRIPT -u KERNEL_ARGS -u QEMU_ARGS -u QUICK -u OUT \
		-u FLAVOURS -u BUILD bash -c "$cmd") \
		> "$logs/$name.out" 2> "$logs/$name.err"
	rc=$?
}
# shown NAME: the end of what a command printed, as diagnostics.
shown() {
	tail -n 15 "$logs/$1.out" | diag
	tail -n 15 "$logs/$1.err" | diag
}

# rebuilt: objects or images of the x86_64 kernel (the one the commands
# boot) that the clone's command made anew.
# (modroot/ is the modules installed anew for each initramfs.)
rebuilt() {
	find "$BUILD/x86_64" -path "$BUILD/x86_64/modroot" -prune -o -type f -newer "$stamp" \
		\( -name '*.o' -o -name '*.ko' -o -name bzImage \) -print 2>/dev/null
}
booted() {	# booted COMMAND: after a command that boots the x86_64 kernel
	local r
	r=$(rebuilt)
	[ -z "$r" ]
	res $? "$1: rebuilt nothing (the clone's build/ is the checkout's)"
	[ -z "$r" ] || { echo "$r" | head -n 10 | diag; touch "$stamp"; }
}

# --- the commands, as typed, and what they promise ---------------------
run_make_setup() {
	typed setup "$1"
	[ $rc = 0 ] && [ -x "$clone/build/busybox-i386/bin/busybox" ]
	res $? "$1: exits 0, the i386 busybox in build/busybox-i386" || shown setup
}

# The patch series: the files, the cover letter filled in; the same series
# with OUT= relative (from make -C elsewhere) and absolute, and from
# mkpatches.py run in another folder; an earlier series there replaced,
# the folder's other files kept.
run_make_patches() {
	local n out
	typed patches "$1"
	n=$(find "$clone/build/patches" -maxdepth 1 -name '000[1-9]-*.patch' 2>/dev/null | wc -l)
	[ $rc = 0 ] && [ -f "$clone/build/patches/0000-cover-letter.patch" ] && [ "$n" -gt 0 ]
	res $? "$1: exits 0, a cover letter and $n patches in build/patches/" ||
		{ shown patches; return; }
	! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$clone/build/patches/0000-cover-letter.patch"
	res $? "$1: the cover letter's subject and blurb are filled in"
	mkdir -p "$work/elsewhere" "$work/abs"
	touch "$work/abs/0042-stale.patch" "$work/abs/notes.txt"
	for out in rel abs py; do
		case $out in
		rel)	what="make -C CLONE patches OUT=series-rel, from another folder: CLONE/series-rel"
			(cd "$work/elsewhere" && make -s -C "$clone" patches OUT=series-rel) \
				> "$logs/patches-$out.out" 2>&1 &&
				mv "$clone/series-rel" "$work/rel" ;;
		abs)	what="make patches OUT=/an/absolute/folder: there, an earlier NNNN-*.patch replaced, the folder's other files kept"
			(cd "$clone" && make -s patches OUT="$work/abs") \
				> "$logs/patches-$out.out" 2>&1 &&
				[ -f "$work/abs/notes.txt" ] && rm "$work/abs/notes.txt" ;;
		py)	what="scripts/mkpatches.py series-py, run in another folder: that folder's series-py"
			(cd "$work/elsewhere" && python3 "$clone/scripts/mkpatches.py" series-py) \
				> "$logs/patches-$out.out" 2>&1 &&
				mv "$work/elsewhere/series-py" "$work/py" ;;
		esac &&
			diff -r "$clone/build/patches" "$work/$out" >> "$logs/patches-$out.out" 2>&1
		res $? "$what, the same series" || tail -n 10 "$logs/patches-$out.out" | diag
	done
}

# The README's git am line, /path/to/... made this clone and a pristine
# repository of the files the series touches (mkpatches.py --pristine).
run_git_am() {
	local tree=$work/linux-6.12 cmd n want
	rm -rf "$tree"
	if ! python3 "$clone/scripts/mkpatches.py" --pristine "$tree" > "$logs/pristine.log" 2>&1; then
		res 1 "$1: a pristine 6.12 repository to apply to"
		diag < "$logs/pristine.log"
		return
	fi
	cmd=${1//\/path\/to\/linux-6.12/$tree}
	cmd=${cmd//\/path\/to\/kmark/$clone}
	# git am commits: an identity, whatever this machine's git knows.
	GIT_COMMITTER_NAME=kmark-check GIT_COMMITTER_EMAIL=check@kmark.invalid \
		typed git-am "$cmd"
	n=$(( $(git -C "$tree" rev-list --count HEAD 2>/dev/null || echo 1) - 1 ))
	want=$(find "$clone/build/patches" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | wc -l)
	[ $rc = 0 ] && [ "$n" = "$want" ] && [ "$want" -gt 0 ] &&
		[ -z "$(git -C "$tree" status --porcelain)" ]
	res $? "$1: applies all $want patches of build/patches/ to pristine 6.12 ($n commits)" ||
		shown git-am
}

run_make_configs() {
	local line
	typed configs "$1"
	sed -nE 's/^(not ok|ok) (.*)$/\1 - make configs: \2/p' "$logs/configs.out"
	passed=$((passed + $(grep -c '^ok ' "$logs/configs.out")))
	failed=$((failed + $(grep -c '^not ok ' "$logs/configs.out")))
	line=$(grep -E '^[0-9]+ passed, 0 failed$' "$logs/configs.out")
	[ $rc = 0 ] && [ -n "$line" ] && grep -q '^ok x86_64-matrix' "$logs/configs.out" &&
		grep -q '^ok i386-matrix' "$logs/configs.out"
	res $? "$1: exits 0, both arches, '$line'" || shown configs
}

run_make_run() {
	local line
	touch "$stamp"
	"$clone/scripts/tests/interactive.sh" > "$logs/run.out" 2>&1
	sed -nE 's/^(not ok|ok) - (.*)$/\1 - make run (typed into, tmux): \2/p' "$logs/run.out"
	grep '^# ' "$logs/run.out"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/run.out")
	if [ -z "$line" ]; then
		res 1 "$1: scripts/tests/interactive.sh printed no result"
		tail -n 10 "$logs/run.out" | diag
		return
	fi
	passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
	failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
	booted "$1"
}

# make demo: context switches, as trace_pipe's lines (ftrace's layout) and
# as kmark stream --pretty's.
run_make_demo() {
	local n p
	touch "$stamp"
	typed demo "$1"
	n=$(grep -cE '^ *[^ ].*-[0-9]+ +\[[0-9]{3}\] [^ ]{5} +[0-9]+\.[0-9]{6}: sched_switch: prev_comm=.* prev_pid=[0-9]+ .*==> next_comm=.* next_pid=[0-9]+' \
		"$logs/demo.out")
	p=$(sed -n '/^### kmark stream --pretty/,$p' "$logs/demo.out" |
		grep -cE '^\[ *[0-9]+\.[0-9]{6}\] CPU[0-9]+: .* \([0-9]+\) switching to .* \([0-9]+\)$')
	[ $rc = 0 ] && grep -q '^### kmark demo: context switches on x86_64' "$logs/demo.out" &&
		[ "$n" -gt 0 ] && [ "$p" -gt 0 ] && [ "$(tail -n 1 "$logs/demo.out")" = '### demo done' ]
	res $? "$1: exits 0, prints context switches ($n sched_switch lines in ftrace's layout, $p of kmark stream --pretty), ends '### demo done'" ||
		shown demo
	booted "$1"
}

# make run SCRIPT=my.sh: the README promises root, debugfs, kmark on PATH,
# the script's output, and a non-zero status printed and failing make (2).
run_make_script() {
	cat > "$clone/my.sh" <<'EOF'
echo "my.sh: uid=$(id -u)"
[ -d /sys/kernel/debug/kmark ] && echo "my.sh: debugfs mounted"
command -v kmark > /dev/null && echo "my.sh: kmark on PATH"
exit 3
EOF
	touch "$stamp"
	typed script "$1"
	[ $rc = 2 ] && grep -qx 'my.sh: uid=0' "$logs/script.out" &&
		grep -qx 'my.sh: debugfs mounted' "$logs/script.out" &&
		grep -qx 'my.sh: kmark on PATH' "$logs/script.out" &&
		grep -q 'the script exited with status 3' "$logs/script.err"
	res $? "$1: my.sh's output (root, debugfs, kmark on PATH); its status 3 printed, make exits 2 (got $rc)" ||
		shown script
	rm -f "$clone/my.sh"
	booted "$1"
}

run_make_bench_quick() {
	local line figures bad
	touch "$stamp"
	typed bench "$1"
	grep -E '^\[bench\] not ok' "$logs/bench.out" | diag
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$logs/bench.out" | tail -n 1)
	figures=$(echo "$line" | sed -nE 's/.*\b([0-9]+) passed.*/\1/p')
	bad=$(echo "$line" | sed -nE 's/.*\b([0-9]+) failed.*/\1/p')
	[ $rc = 0 ] && [ -n "$line" ] && [ "$bad" = 0 ] &&
		[ "$clone/build/bench/BENCHMARKS.quick.md" -nt "$stamp" ]
	res $? "$1: all ${figures:-0} figures produced, build/bench/BENCHMARKS.quick.md written" ||
		shown bench
	booted "$1"
}

# make clean, last: build/ is then a folder of the clone's own, never the
# shared build the symlink points to.
run_make_clean() {
	if [ -L "$clone/build" ]; then
		rm -f "$clone/build"
	fi
	if [ -e "$clone/build" ]; then
		res 1 "$1: not run: the clone's build/ is not the symlink this test made"
		return
	fi
	mkdir -p "$clone/build/x86_64" && touch "$clone/build/x86_64/bzImage"
	typed clean "$1"
	[ $rc = 0 ] && [ ! -e "$clone/build" ] && [ ! -e "$clone/userspace/build" ]
	res $? "$1: build/ and userspace/build/ removed" || shown clean
}

run_one() {	# run_one WHERE COMMAND
	local cmd=$2
	case "$cmd" in
	'make setup') run_make_setup "$cmd" ;;
	'make patches') run_make_patches "$cmd" ;;
	'cd /path/to/linux-6.12 && git am '*) run_git_am "$cmd" ;;
	'make configs') run_make_configs "$cmd" ;;
	'make run') run_make_run "$cmd" ;;
	'make demo') run_make_demo "$cmd" ;;
	'make run SCRIPT=my.sh') run_make_script "$cmd" ;;
	'make bench QUICK=1') run_make_bench_quick "$cmd" ;;
	'make clean') run_make_clean "$cmd" ;;
	'make run ARCH=i386')
		skip "$cmd" "a shell on a third kernel (i386, about 7 min to build); make run is typed into on x86_64, FLAVOURS=i386 tests this kernel" ;;
	"make run KERNEL_ARGS='kmark_event=sched_switch'")
		skip "$cmd" "a shell as make run's; KERNEL_ARGS reaches the kernel as in make check's boots (00-boot.sh checks kmark_event=)" ;;
	"make run QEMU_ARGS='-icount shift=0,sleep=off'")
		skip "$cmd" "a shell as make run's; QEMU_ARGS reaches QEMU as in make bench QUICK=1's -icount boots" ;;
	'make check')
		skip "$cmd" "this is make check (a fresh clone's run is timed in Documentation/dev-tools/kmark-testing.rst)" ;;
	'make bench')
		skip "$cmd" "two more kernels and five rounds of each figure; make bench QUICK=1 runs its steps" ;;
	'make size')
		skip "$cmd" "eight tinyconfig kernels; make check makes and checks their configurations (scripts/size.sh --configs)" ;;
	*)	res 1 "$1: '$cmd': no check for this command in scripts/tests/readme-commands.sh (run it there as typed, or say why not)" ;;
	esac
}

# make_clone PARENT: PARENT/kmark; fails (saying why) if the clone's kernel
# files are not the prepared tree's.
make_clone() {
	local dest=$1/kmark f head
	[ -d "$BUILD" ] || { echo "no build folder $BUILD"; return 1; }
	head=$(git -C "$top" rev-parse HEAD) || return 1
	git clone -q "$top" "$dest" && git -C "$dest" checkout -q --detach "$head" || return 1
	# The uncommitted changes: tracked files changed or deleted, new files.
	while IFS= read -r -d '' f; do
		if [ -e "$top/$f" ]; then
			mkdir -p "$(dirname "$dest/$f")" && cp -p "$top/$f" "$dest/$f"
		else
			rm -f "$dest/$f"
		fi
	done < <(git -C "$top" diff -z --name-only HEAD; git -C "$top" ls-files -z -o --exclude-standard)
	ln -s "$(cd "$BUILD" && pwd -P)" "$dest/build"
	# What prepare-tree.sh would overlay from the clone is what it has.
	if [ -f "$SRC/.kmark/overlay.list" ]; then
		if ! (cd "$dest" && find kernel include samples Documentation -type f ! -name '*~' |
		      LC_ALL=C sort) | cmp -s - "$SRC/.kmark/overlay.list"; then
			echo "the clone's kernel files are not the ones $SRC was prepared from"
			return 1
		fi
		while read -r f; do
			cmp -s "$dest/$f" "$SRC/$f" ||
				{ echo "$f differs from $SRC/$f"; return 1; }
		done < "$SRC/.kmark/overlay.list"
	fi
}

# run_groups GROUP...: the README's commands of these groups, in order.
run_groups() {
	local g where cmd list
	if ! list=$(commands); then
		res 1 "the documents' host commands (scripts/tests/readme_commands.py README.md Documentation/trace/kmark.rst)"
		return
	fi
	work=$(mktemp -d)
	mkdir -p "$logs"
	for g in "$@"; do
		while IFS=$'\t' read -r where cmd; do
			case "$(group_of "$cmd")" in
			"$g") run_one "$where" "$cmd" ;;
			none) [ "$g" != late ] || run_one "$where" "$cmd" ;;
			esac
		done <<< "$list"
	done
	rm -rf "$work"
	rm -f "$stamp"
}

all_groups="configs patches run bench late clean"
case "${1:-}" in
--list)
	commands | while IFS=$'\t' read -r where cmd; do
		printf '%s\t%s\t%s\n' "$where" "$(group_of "$cmd")" "$cmd"
	done
	exit 0 ;;
--clone)
	[ $# = 2 ] || die "usage: readme-commands.sh --clone DIR"
	make_clone "$2"
	exit $? ;;
--in)
	[ $# -ge 3 ] || die "usage: readme-commands.sh --in CLONE GROUP..."
	clone=$(cd "$2" && pwd) || exit 1
	shift 2
	run_groups "$@" ;;
-*)	die "usage: readme-commands.sh [--clone DIR | --in CLONE GROUP... | --list | GROUP...]" ;;
*)	parent=$(mktemp -d)
	if make_clone "$parent" > "$parent/clone.log" 2>&1; then
		clone=$parent/kmark
		# shellcheck disable=SC2086
		[ $# -gt 0 ] || set -- $all_groups
		run_groups "$@"
	else
		res 1 "a clean clone of the checkout"
		diag < "$parent/clone.log"
	fi
	rm -f "$parent/kmark/build"
	rm -rf "$parent" ;;
esac
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
