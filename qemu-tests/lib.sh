# SPDX-License-Identifier: GPL-2.0
# Helpers for kmark's guest tests (sourced by each test.d/*.sh).
# Each check prints one KTAP result line; the runner adds the plan.
K=/sys/kernel/debug/kmark
_n=0

ok() { _n=$((_n + 1)); echo "ok $_n - $*"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $*"; }
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }
diag() { printf "%s\n" "$*" | sed "s/^/# /"; }

# check NAME CMD...: ok if CMD succeeds.
check() {
	name=$1; shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got:  '$2'"
		diag "want: '$3'"
	fi
}

# reset: tracing on, nothing enabled, empty buffer and error_log.
reset_kmark() {
	echo 1 > $K/tracing_on
	echo > $K/set_event
	echo > $K/trace
	echo > $K/error_log
}

# check_error NAME FILE 'COMMAND with ^ before the bad part' 'message' [ERRNO]:
# the write must fail with EINVAL (or the strerror text ERRNO), leave error_log with the message, the
# command and a caret under the '^' position (as ftracetest's check_error).
check_error() {
	name=$1 file=$2 spec=$3 msg=$4 errno=${5:-Invalid argument}
	pos=${spec%%^*}
	pos=${#pos}
	cmd=$(echo "$spec" | tr -d '^')
	echo > $K/error_log
	if err=$(echo "$cmd" 2>&1 >> "$K/$file"); then
		not_ok "$name: write of '$cmd' to $file succeeded"
		return
	fi
	case "$err" in
	*"$errno"*) ;;
	*) not_ok "$name: '$cmd': wanted '$errno', got: $err"; return ;;
	esac
	log=$(cat $K/error_log)
	line1=$(echo "$log" | sed -n 1p)
	line2=$(echo "$log" | sed -n 2p)
	line3=$(echo "$log" | sed -n 3p)
	caret=$(printf '%*s^' $((pos + 11)) '')
	case "$line1" in
	"["*"] kmark: error: $msg") ;;
	*) not_ok "$name: error_log line 1 is '$line1', wanted '... kmark: error: $msg'"; return ;;
	esac
	if [ "$line2" != "  Command: $cmd" ] || [ "$line3" != "$caret" ]; then
		not_ok "$name: error_log is '$line2' / '$line3'"
		return
	fi
	ok "$name"
}
