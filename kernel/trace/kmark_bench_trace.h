/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace event kmark_bench.c compares kmark against: the same fields as
 * its marker "kmark_bench" (a=%d b=%ld comm=%s).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kmark_bench

#if !defined(_TRACE_KMARK_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KMARK_BENCH_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

TRACE_EVENT(kmark_bench,

	TP_PROTO(int a, long b, const char *comm),

	TP_ARGS(a, b, comm),

	TP_STRUCT__entry(
		__field(int, a)
		__field(long, b)
		__array(char, comm, TASK_COMM_LEN)
	),

	TP_fast_assign(
		__entry->a = a;
		__entry->b = b;
		memcpy(__entry->comm, comm, TASK_COMM_LEN);
	),

	TP_printk("a=%d b=%ld comm=%s", __entry->a, __entry->b, __entry->comm)
);

#endif /* _TRACE_KMARK_BENCH_H */

#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE kmark_bench_trace

#include <trace/define_trace.h>
