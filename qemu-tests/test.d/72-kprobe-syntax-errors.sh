#!/bin/sh
# needs: kprobes
# description: the kernel's own ftracetest cases for kprobe_events syntax errors (tools/testing/selftests/ftrace/test.d/kprobe/kprobe_syntax_errors.tc, 6.12): refused where ftrace refuses them, caret where ftrace puts it (kmark's messages)
. /tests/lib.sh
plan 41
reset_kmark
echo > $K/kprobe_events
e() { check_error "$1" kprobe_events "$2" "$3"; }

# maxactive
e "BAD_MAXACT_TYPE" 'p^100 vfs_read' "Maxactive is only for return probes (rN)"
e "BAD_MAXACT" 'r^1a111 vfs_read' "Bad maxactive number"
e "MAXACT_TOO_BIG" 'r^100000 vfs_read' "Maxactive is too big (at most 4096)"
# probe point
e "BAD_PROBE_ADDR (enoent)" 'p ^non_exist_func' "Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)"
e "BAD_PROBE_ADDR (bad syntax)" 'p ^hoge-fuga' "Unknown symbol: not in kallsyms (inlined functions, such as context_switch, cannot be probed)"
e "BAD_PROBE_ADDR (bad offset)" 'p ^hoge+1000-1000' "Bad offset"
e "BAD_RETPROBE" 'r ^vfs_read+10' "Return probe must be on the function entry (+0)"
# group and event names
e "NO_GROUP_NAME" 'p:^/bar vfs_read' "Group name must be letters, digits and '_'"
e "GROUP_TOO_LONG" 'p:^12345678901234567890123456789012345678901234567890123456789012345/bar vfs_read' "Group name must be letters, digits and '_'"
e "BAD_GROUP_NAME" 'p:^foo.1/bar vfs_read' "Group name must be letters, digits and '_'"
e "NO_EVENT_NAME" 'p:^ vfs_read' "Event name is not specified"
e "EVENT_TOO_LONG" 'p:foo/^12345678901234567890123456789012345678901234567890123456789012345 vfs_read' "Event name must be letters, digits and '_'"
e "BAD_EVENT_NAME" 'p:foo/^bar.1 vfs_read' "Event name must be letters, digits and '_'"
# fetch arguments
e "RETVAL_ON_PROBE" 'p vfs_read ^$retval' '$retval is only for return probes'
e "BAD_STACK_NUM" 'p vfs_read ^$stack10000' 'Invalid $stackN'
e "BAD_ARG_NUM" 'p vfs_read ^$arg10000' 'Invalid $argN (N is 1 to 64)'
e "BAD_VAR" 'p vfs_read ^$none_var' 'Unknown variable: use $argN, $retval, $comm, $stackN or $stack'
e "BAD_REG_NAME" 'p vfs_read ^%none_reg' "Unknown register"
e "BAD_MEM_ADDR" 'p vfs_read ^@12345678abcde' "Unknown symbol or bad address after '@'"
e "FILE_ON_KPROBE" 'p vfs_read ^@+10' "Unknown symbol or bad address after '@'"
e "DEREF_NEED_BRACE" 'p vfs_read ^+0@0)' "Bad dereference: use +|-OFFS(FETCHARG)"
e "BAD_DEREF_OFFS" 'p vfs_read ^+0ab1(@0)' "Bad dereference offset"
e "DEREF_OPEN_BRACE" 'p vfs_read +0(+0(@0^)' "Dereference brace is not closed"
e "COMM_CANT_DEREF" 'p vfs_read +0(^$comm)' '$comm cannot be dereferenced'
e "BAD_FETCH_ARG" 'p vfs_read ^&1' "Bad fetch argument"
# types
e "BAD_TYPE" 'p vfs_read @11:^unknown_type' "Unknown type: use u8..u64, s8..s64, x8..x64, bW@O/C, string, ustring, symbol, %pd or %pD"
e "BAD_STRING" 'p vfs_read $stack0:^string' 'A string is read from memory: +OFFS(FETCHARG), @SYM or @ADDR (or $comm)'
e "BAD_STRING (\$argN)" 'p vfs_read $arg2:^ustring' 'A string is read from memory: +OFFS(FETCHARG), @SYM or @ADDR (or $comm)'
e "BAD_BITFIELD" 'p vfs_read @11:^b10@a/16' "Bad bitfield: bW@O/C, W bits at bit O of a C-bit (8, 16, 32, 64) container, O + W <= C"
# argument names and bodies
e "ARG_NAME_TOO_LONG" 'p vfs_read ^arg1234567890123456789012345678901=@11' "Argument name is too long (at most 32 characters)"
e "NO_ARG_NAME" 'p vfs_read ^=@11' "Argument name must be letters, digits and '_'"
e "BAD_ARG_NAME" 'p vfs_read ^var.1=@11' "Argument name must be letters, digits and '_'"
e "USED_ARG_NAME" 'p vfs_read var1=@11 ^var1=@12' "Duplicate argument name"
e "ARG_TOO_LONG" 'p vfs_read ^+1234567(+1234567(+1234567(+1234567(+1234567(+1234567(@1234))))))' "Argument expression is too long (at most 63 characters)"
e "NO_ARG_BODY" 'p vfs_read arg1=^' "Bad fetch argument"
# %return
e "BAD_ADDR_SUFFIX" 'p vfs_read^%hoge' "Only %return may follow the symbol"
e "BAD_RETPROBE (%return)" 'p ^vfs_read+10%return' "Return probe must be on the function entry (+0)"
# no BTF in kmark: $arg* is refused
e "NOSUP_BTFARG" 'p vfs_read ^$arg*' 'Invalid $argN (N is 1 to 64)'
e "NOFENTRY_ARGS" 'p vfs_read+20 ^$arg1' '$arg* can be used only on function entry or exit'
# Accepted by ftrace, accepted by kmark: the same probes through a dereference.
echo 'p:okstr vfs_read s=+0($arg2):string u=+0($arg2):ustring c=$comm' > $K/kprobe_events
expect_eq "string types through a dereference are accepted" "$(cut -d' ' -f1 $K/kprobe_events)" "p:kprobes/okstr"
echo 'p:grp/ vfs_read' > $K/kprobe_events
expect_eq "'GROUP/' with no event takes the default event name" "$(cut -d' ' -f1 $K/kprobe_events)" "p:grp/p_vfs_read_0"
echo > $K/kprobe_events
reset_kmark
