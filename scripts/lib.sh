# SPDX-License-Identifier: GPL-2.0
# Shared helpers for kmark's scripts (sourced, not run).
top=${top:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD=${BUILD:-$top/build}
# By its real path, as kbuild resolves O=: a build/ that is a symlink to
# another checkout's (scripts/tests/readme-commands.sh's clone) gives the
# same paths, so that nothing there is rebuilt (M= is taken as given).
[ ! -d "$BUILD" ] || BUILD=$(cd "$BUILD" && pwd -P)
SRC=$BUILD/linux
# A closed standard input (a CI runner's) gives the next pipe() fd 0: GNU
# make 4.3's jobserver pipe landed there and every make of the kernel build
# spun on it (wait4/pselect6 loops, the x86_64 build over 15 min instead of
# 6). /dev/null instead; nothing of ours reads standard input but make run.
[ -e /proc/self/fd/0 ] || exec < /dev/null
# One job more than CPUs: a compile waiting on the disk or make leaves none idle.
JOBS=${JOBS:-$(( $(nproc) + 1 ))}

# Under make check (KMARK_T0 set), each line says when it came: the
# seconds since the check began, so a slow step shows in the log.
info() {
	if [ -n "${KMARK_T0:-}" ]; then
		printf '  %-8s %s  [+%ss]\n' "${INFO_TAG:-KMARK}" "$*" \
			"$(( $(date +%s) - KMARK_T0 ))" >&2
	else
		printf '  %-8s %s\n' "${INFO_TAG:-KMARK}" "$*" >&2
	fi
}
# cpu_note NAME CMD...: run CMD (a command or a function; its status is
# returned) and, with KMARK_CPU_LOG set (make check), add one line to that
# file: NAME, the CPU seconds (user + system) CMD and all it waited for
# used, and its wall seconds. make check's time on a slower machine is its
# CPU work over the cores: this is where that work goes.
cpu_note() {
	local name=$1
	shift
	if [ -z "${KMARK_CPU_LOG:-}" ]; then
		"$@"
		return
	fi
	(
		t0=$(date +%s)
		"$@"
		rc=$?
		# (stat's fields 14-17: this shell's and its waited-for
		# children's user and system time, in clock ticks)
		read -r -a st < "/proc/$BASHPID/stat"
		hz=$(getconf CLK_TCK)
		printf '%s %s %s\n' "$name" \
			"$(( (st[13] + st[14] + st[15] + st[16]) / hz ))" \
			"$(( $(date +%s) - t0 ))" >> "$KMARK_CPU_LOG"
		exit $rc
	)
}
die() { printf 'kmark: error: %s\n' "$*" >&2; exit 1; }

# build_lock "$@" (first thing in setup.sh, build-kernel.sh, mkinitramfs.sh):
# with KMARK_BUILD_LOCK=FILE, runs that share a build/ (make check's bench
# beside its make run and make demo; several checkouts of a developer) take
# turns: the script runs again, whole, under flock FILE. What it calls runs
# under the same lock (KMARK_BUILD_LOCKED), never waiting on it.
build_lock() {
	[ -n "${KMARK_BUILD_LOCK:-}" ] && [ -z "${KMARK_BUILD_LOCKED:-}" ] || return 0
	KMARK_BUILD_LOCKED=1 exec flock "$KMARK_BUILD_LOCK" "$0" "$@"
}

# Kernel ARCH= and the output folder for our ARCH names.
kernel_arch() {
	case "$1" in
	x86_64) echo x86_64 ;;
	i386) echo i386 ;;
	*) die "unknown ARCH '$1' (use x86_64 or i386)" ;;
	esac
}
# A build flavour: x86_64, x86_64-stress, i386, x86_64-nokmark,
# x86_64-clang (configure.sh).
flavour_arch() { echo "${1%%-*}"; }
# make's extra arguments for a flavour: LLVM=1 for the clang one.
flavour_make_args() {
	case "$1" in
	*-clang) echo LLVM=1 ;;
	esac
}

# The kernel tree's files that kmark adds (the overlay) or patches, as paths
# inside the tree.
kmark_tree_files() {
	(cd "$top" && find kernel include samples -type f 2>/dev/null)
	sed -n 's#^+++ b/##p' "$top"/scripts/patches/*.patch
	# The test modules, as build-kernel.sh builds them (M= on a copy).
	(cd "$top/qemu-tests/modules" && find . -name '*.[ch]') |
		sed 's#^\./#kmark-modules/#'
}

# kmark_warnings LOG FILE...: print the compiler warnings of LOG that are
# about one of FILE (paths inside the tree); succeed if there are any.
# Compilers name a file by its path from the tree's top or with the tree's
# absolute path in front; both are matched, anchored, never a substring of
# some other path.
kmark_warnings() {
	local log=$1
	shift
	python3 - "$log" "$SRC" "$@" <<'PY'
import re, sys
log, src, files = sys.argv[1], sys.argv[2].rstrip('/') + '/', set(sys.argv[3:])
pat = re.compile(r'^(?:In file included from )?(\S+?):\d+(?::\d+)?: (?:warning|error):')
hits = []
for line in open(log, errors='replace'):
    m = pat.match(line)
    if not m:
        continue
    path = m.group(1)
    if path.startswith(src):
        path = path[len(src):]
    while path.startswith('../') or path.startswith('./'):
        path = path.split('/', 1)[1]
    if path in files or any(path.endswith('/' + f) for f in files if f.startswith('kmark-modules/')):
        hits.append(line.rstrip())
print('\n'.join(hits))
sys.exit(0 if hits else 1)
PY
}

# config_requested CONFIG FRAGMENT...: every option the fragments set (the
# last setting of each wins, as merge_config.sh does) is so in CONFIG; the
# ones that are not are printed to stderr. Fails if there is any.
config_requested() {
	local config=$1 line opt bad=0
	shift
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$config" || {
				printf '  requested %-40s got: %s\n' "$line" \
					"$(grep -E "^(# )?${line%%=*}[= ]" "$config" || echo 'absent')" >&2
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$config" || {
				printf '  requested %s off, got: %s\n' "$opt" "$(grep "^$opt=" "$config")" >&2
				bad=1
			} ;;
		esac
	done < <(cat "$@" | awk '
		/^CONFIG_/ { split($0, kv, "="); o = kv[1] }
		/^# CONFIG_.* is not set$/ { o = $2 }
		/^CONFIG_|^# CONFIG_.* is not set$/ { last[o] = $0; if (!(o in seen)) { seen[o] = 1; order[++n] = o } }
		END { for (i = 1; i <= n; i++) print last[order[i]] }')
	return $bad
}
