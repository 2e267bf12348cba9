#!/bin/sh
# needs: kprobes
# description: the kernel's own ftracetest (tools/testing/selftests/ftrace of the 6.12 tree, test files unmodified) over 00basic, kprobe, event, filter, instances, dynevent and trigger on kmark's tracefs directory, and on ftrace's on the same boot where the kernel has ftrace: each test's verdict is the one qemu-tests/ftracetest-expected.txt gives, a test that passes on ftrace passes on kmark unless the table says why not, a test of a feature kmark does not claim is UNSUPPORTED
# timeout: 900
#
# ftracetest takes the first tracefs mount of /proc/mounts as its directory
# and has no option for another. So that it runs as shipped, kmark's run
# bind-mounts /sys/kernel/tracing/kmark on $M and unmounts every other
# tracefs mount for the run's duration (tracefs keeps its files while
# unmounted); nothing of ftracetest or its test files is changed.
# scripts/mkinitramfs.sh puts ftracetest and test.d/ from the kernel tree
# into /tests/ftrace, and the table into /tests/ftracetest-expected.txt.
. /tests/lib.sh
F=/tests/ftrace
EXP=/tests/ftracetest-expected.txt
T=/sys/kernel/tracing
M=/tmp/ftracetest-kmark
SUITES="00basic kprobe event filter instances dynevent trigger"

case "$(uname -m)" in
x86_64) col=3 ;;
*) col=4 ;;
esac
rows=$(grep -c '^[^#]' $EXP)
opt=$(sed -n 's/.*ftracetest=\([a-z,]*\).*/\1/p' /proc/cmdline)
# A kernel with no verdict of kmark in the table yet (its column all
# UNTESTED) runs nothing to compare; nor does i386 in make check (its
# time: make check's i386 kernel is the slow stress one). ftracetest=run
# on the kernel command line runs it (kmark's directory), as does
# ftracetest=full (x86_64: ftrace's too), to check or record the column.
if [ "${opt#*full}" = "$opt" ] && [ "${opt#*run}" = "$opt" ]; then
	if ! grep '^[^#]' $EXP | cut -d' ' -f$col | grep -qvx UNTESTED; then
		plan 1
		skip "ftracetest on kmark's directory" "no verdict of kmark on $(uname -m) in the table yet (ftracetest=full on the kernel command line runs it)"
		exit 0
	fi
	if [ "$col" = 4 ]; then
		plan 1
		skip "ftracetest on kmark's directory" "make check's time: the i386 column is checked with ftracetest=run on the kernel command line"
		exit 0
	fi
fi
plan $((rows + 2))
mount -t tracefs nodev $T 2>/dev/null
reset_kmark

# The cases in ftracetest's order: each suite's *.tc sorted, then again
# those with "flags: instance", run in an instance (ID@instance).
cases() {
	for s in $SUITES; do
		find $F/test.d/$s -name '*.tc' | sort
	done > /tmp/ftt-files
	sed "s#^$F/test.d/##" /tmp/ftt-files
	while read -r f; do
		grep -q '^#[ 	]*flags:.*instance' "$f" &&
			echo "${f#$F/test.d/}@instance"
	done < /tmp/ftt-files
}

# run NAME: ftracetest on the first tracefs mount; "ID VERDICT" per case
# in /tmp/ftt-NAME.res, the logs in /tmp/ftt-NAME.logs.
run() {
	rm -rf /tmp/ftt-$1.logs
	t0=$(cut -d' ' -f1 /proc/uptime)
	(cd $F && ./ftracetest -k -l /tmp/ftt-$1.logs $(for s in $SUITES; do echo test.d/$s; done)) \
		> /tmp/ftt-$1.out 2>&1
	rc=$?
	took=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }')
	sed -n 's/^\[\([0-9]*\)\].*[[:space:]]\[\([A-Z]*\)\]$/\1 \2/p' /tmp/ftt-$1.out > /tmp/ftt-$1.verdicts
	cases | awk 'FILENAME == ARGV[1] { v[$1] = $2; next } { print $1, (FNR in v) ? v[FNR] : "MISSING" }' \
		/tmp/ftt-$1.verdicts - > /tmp/ftt-$1.res
	n=$(wc -l < /tmp/ftt-$1.verdicts)
	diag "ftracetest on $2: $n cases in $took s (exit $rc): $(sed -n 's/^# of \([a-z]*\)[^:]*: *\([0-9]*\)/\1 \2,/p' /tmp/ftt-$1.out | tr '\n' ' ')"
	[ "$n" = "$(cases | wc -l)" ] && [ "$n" = "$rows" ]
}

# log NAME ID: the end of a case's log (ftracetest -k keeps them all).
log() {
	f=${2%@instance}
	n=$(grep -n "^$2 " /tmp/ftt-$1.res | cut -d: -f1)
	tail -n 15 /tmp/ftt-$1.logs/$n-$(basename "$f")-log.* 2>/dev/null
}

# ftrace's own directory first, as ftracetest finds it (its first mount):
# with "ftracetest=full" on the kernel's command line only (make check's
# time: it doubles the test's); else its verdicts are the table's.
# "ftracetest=logs" shows the end of the log of each case kmark fails.
if [ "$col" != 3 ] && [ "${opt#*full}" != "$opt" ]; then
	skip "ftracetest on ftrace's directory" "the table's ftrace column is x86_64's"
	: > /tmp/ftt-ftrace.res
elif [ -e $T/available_tracers ] && [ "${opt#*full}" != "$opt" ]; then
	if run ftrace "ftrace's $T"; then
		ok "ftracetest ran on ftrace's directory, every case of the table"
	else
		not_ok "ftracetest on ftrace's directory: not the cases of the table"
		cat /tmp/ftt-ftrace.out | tail -n 20 | sed 's/^/# /'
	fi
elif [ -e $T/available_tracers ]; then
	skip "ftracetest on ftrace's directory" "not run without ftracetest=full on the kernel's command line; the table's verdicts instead"
	: > /tmp/ftt-ftrace.res
else
	skip "ftracetest on ftrace's directory" "no ftrace in this kernel"
	: > /tmp/ftt-ftrace.res
fi

# kmark's, alone in /proc/mounts for the run.
restore() {
	umount $M 2>/dev/null
	mount -t tracefs nodev $T 2>/dev/null
}
trap restore EXIT
mkdir -p $M
mount --bind $T/kmark $M
for mp in $(grep ' tracefs ' /proc/mounts | cut -d' ' -f2 | grep -vx $M); do
	umount $mp
done
if [ "$(grep ' tracefs ' /proc/mounts | cut -d' ' -f2)" != "$M" ]; then
	not_ok "kmark's directory is not the only tracefs mount: $(grep ' tracefs ' /proc/mounts | tr '\n' ' ')"
	exit 1
fi
if run kmark "kmark's $T/kmark"; then
	ok "ftracetest ran on kmark's directory, every case of the table"
else
	not_ok "ftracetest on kmark's directory: not the cases of the table"
	tail -n 20 /tmp/ftt-kmark.out | sed 's/^/# /'
fi
restore
trap - EXIT
reset_kmark

# Every case's verdicts, for scripts/ftracetest_table.py update (the
# table from a run's log), and the summary. (No ftrace run: its column
# "-", kept from the table; FILENAME, as an empty first file leaves NR ==
# FNR true for the second.)
awk 'FILENAME == ARGV[1] { f[$1] = $2; next } { print "ftt-result", $1, ($1 in f) ? f[$1] : "-", $2 }' \
	/tmp/ftt-ftrace.res /tmp/ftt-kmark.res | sed 's/^/# /'
npass() { grep -c ' PASS$' "$1"; }
if [ -s /tmp/ftt-ftrace.res ]; then
	ref="ftrace $(npass /tmp/ftt-ftrace.res) of $(wc -l < /tmp/ftt-ftrace.res) on the same boot"
else
	ref="ftrace $(grep '^[^#]' $EXP | awk '$2 == "PASS"' | wc -l) of $rows in the table (x86_64, not run here)"
fi
diag "summary ($(uname -m)): kmark $(npass /tmp/ftt-kmark.res) pass of $(wc -l < /tmp/ftt-kmark.res), $ref"
if [ "${opt#*logs}" != "$opt" ]; then
	for id in $(awk '$2 == "FAIL" { print $1 }' /tmp/ftt-kmark.res); do
		diag "kmark FAIL $id:"
		log kmark "$id" | sed 's/^/#   /'
	done
fi

# Each case of the table: ID FTRACE KMARK-X86_64 KMARK-I386 [WHY...].
# UNTESTED: no run of that kernel is in the table yet (a named skip).
grep '^[^#]' $EXP | while read -r id fwant x86 i386 why; do
	kwant=$x86
	[ $col = 4 ] && kwant=$i386
	kgot=$(sed -n "s#^$id ##p" /tmp/ftt-kmark.res)
	fgot=$(sed -n "s#^$id ##p" /tmp/ftt-ftrace.res)
	what="kmark ${kgot:-MISSING}${fgot:+, ftrace $fgot}"
	if [ "$kwant" = UNTESTED ]; then
		skip "$id: $what" "no verdict of kmark on $(uname -m) in the table yet"
	elif [ "$kgot" != "$kwant" ] && [ "$kgot" = PASS ]; then
		ok "$id: $what; NEWLY PASSES (the table says $kwant): update qemu-tests/ftracetest-expected.txt"
	elif [ "$kgot" != "$kwant" ]; then
		not_ok "$id: $what; the table says kmark $kwant"
		log kmark "$id" | sed 's/^/# kmark: /'
	elif [ -n "$fgot" ] && [ "$fgot" != "$fwant" ]; then
		not_ok "$id: $what; the table says ftrace $fwant (the reference changed)"
		log ftrace "$id" | sed 's/^/# ftrace: /'
	elif [ "$fwant" = PASS ] && [ "$kwant" != PASS ] && [ -z "$why" ]; then
		not_ok "$id: $what; passes on ftrace, not on kmark, and the table gives no reason"
	elif [ "$kwant" = FAIL ] && [ -z "$why" ]; then
		not_ok "$id: $what; fails on kmark and the table gives no reason"
	else
		ok "$id: $what${why:+ ($why)}"
	fi
done
