// SPDX-License-Identifier: GPL-2.0
/*
 * kmark_test: what kmark's guest tests need from a loadable module. Not a
 * sample (samples/kmark/ has that); built out of tree (M=) for the guests.
 *
 * Parameters:
 *   probe=MARKER     attach a counting probe to MARKER at load, detach it
 *                    in the exit function (kmark_probe_unregister() must
 *                    not fail there, whatever the allocator says)
 *   switch_check=1   attach a probe to sched_switch that checks the state
 *                    the marker promises its probes (see below)
 *   call_at_load=N   call kmark_test_fn(N) once at load, after the probes
 *                    waiting for the module were armed (debugfs' call file
 *                    is refused under lockdown=confidentiality)
 *
 * Files in /sys/kernel/debug/kmark_test/:
 *   call     write N: calls kmark_test_fn(N), a target for kprobes
 *   val      write N: fires the marker kmark_test_val, v=N (a u64: hist
 *            triggers' log2 and buckets past 2^32, on i386 too)
 *   hits     the counting probe's hits
 *   switch   "switches=N bad_current=N bad_mm=N bad_irqs=N bad_lock=N
 *            lockdep=0|1" (lockdep=1: lockdep checked bad_lock)
 *   crash    write oops, bug, panic or warn: fires the marker
 *            kmark_test:crash_request (what=...), then a NULL pointer
 *            write, BUG(), panic() or WARN() (the flight recorder's tests)
 *   qemu_exit  write N: N to I/O port 0xf4, where QEMU's isa-debug-exit
 *            device (when the test gave it) ends QEMU with status
 *            N * 2 + 1; kernels without ioperm() have no other way
 */
#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include <asm/special_insns.h>
#include <trace/kmark.h>

static char *probe;
module_param(probe, charp, 0400);
MODULE_PARM_DESC(probe, "marker to attach a counting probe to");

static bool switch_check;
module_param(switch_check, bool, 0400);
MODULE_PARM_DESC(switch_check, "check sched_switch's promises to probes");

static int call_at_load;
module_param(call_at_load, int, 0400);
MODULE_PARM_DESC(call_at_load, "call kmark_test_fn(N) once at load (0: no)");

static struct dentry *kmark_test_dir;
static atomic_long_t kmark_test_hits;
static atomic_long_t kmark_test_switches, kmark_test_bad_current,
	kmark_test_bad_mm, kmark_test_bad_irqs, kmark_test_bad_lock;
static int kmark_test_last;
/* What the oops writes through: NULL, read at run time. */
static int *kmark_test_null;

/* Not static: kprobe events probe it by name (kmark_test:kmark_test_fn). */
int kmark_test_fn(int n);

noinline int kmark_test_fn(int n)
{
	WRITE_ONCE(kmark_test_last, n);
	return n * 2;
}

static void kmark_test_count(void *data, struct kmark_marker *m,
			     const void *args)
{
	atomic_long_inc(&kmark_test_hits);
}

/*
 * sched_switch fires where ftrace's trace_sched_switch() does: current is
 * still the previous task, whose mm is the one loaded, interrupts are off
 * and the runqueue lock is held (lockdep sees it).
 */
static void kmark_test_switch(void *data, struct kmark_marker *m,
			      const void *args)
{
	/* A user task's own mm; NULL for kernel threads and exiting tasks. */
	struct mm_struct *mm = current->mm;

	atomic_long_inc(&kmark_test_switches);
	if (kmark_arg_value(m, args, 1) != (u64)(s64)current->pid)
		atomic_long_inc(&kmark_test_bad_current);
	if (mm && read_cr3_pa() != __pa(mm->pgd))
		atomic_long_inc(&kmark_test_bad_mm);
	if (!irqs_disabled())
		atomic_long_inc(&kmark_test_bad_irqs);
	if (IS_ENABLED(CONFIG_LOCKDEP) && debug_locks &&
	    !lockdep_depth(current))
		atomic_long_inc(&kmark_test_bad_lock);
}

static ssize_t kmark_test_call_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	int n, ret = kstrtoint_from_user(ubuf, cnt, 0, &n);

	if (ret)
		return ret;
	kmark_test_fn(n);
	return cnt;
}

static const struct file_operations kmark_test_call_fops = {
	.write = kmark_test_call_write,
};

static ssize_t kmark_test_val_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	unsigned long long v;
	int ret = kstrtoull_from_user(ubuf, cnt, 0, &v);

	if (ret)
		return ret;
	kmark(kmark_test_val, "v=%llu", v);
	return cnt;
}

static const struct file_operations kmark_test_val_fops = {
	.write = kmark_test_val_write,
};

/*
 * crash: the marker first, so that a trace ends with it, then the crash
 * asked for. A WARN returns (the write succeeds); the others do not.
 */
static ssize_t kmark_test_crash_write(struct file *file,
				      const char __user *ubuf, size_t cnt,
				      loff_t *ppos)
{
	char what[16];

	if (!cnt || cnt >= sizeof(what))
		return -EINVAL;
	if (copy_from_user(what, ubuf, cnt))
		return -EFAULT;
	what[cnt] = '\0';
	strim(what);
	if (strcmp(what, "oops") && strcmp(what, "bug") &&
	    strcmp(what, "panic") && strcmp(what, "warn"))
		return -EINVAL;
	kmark(crash_request, "what=%s", what);
	if (!strcmp(what, "oops"))
		*READ_ONCE(kmark_test_null) = 1;
	else if (!strcmp(what, "bug"))
		BUG();
	else if (!strcmp(what, "panic"))
		panic("kmark_test: panic on request");
	else
		WARN(1, "kmark_test: a warning on request\n");
	return cnt;
}

static const struct file_operations kmark_test_crash_fops = {
	.write = kmark_test_crash_write,
};

static ssize_t kmark_test_qemu_exit_write(struct file *file,
					  const char __user *ubuf, size_t cnt,
					  loff_t *ppos)
{
	u8 val;
	int ret = kstrtou8_from_user(ubuf, cnt, 0, &val);

	if (ret)
		return ret;
#ifdef CONFIG_X86
	outb(val, 0xf4);
#endif
	return cnt;
}

static const struct file_operations kmark_test_qemu_exit_fops = {
	.write = kmark_test_qemu_exit_write,
};

static int kmark_test_hits_show(struct seq_file *s, void *v)
{
	seq_printf(s, "%ld\n", atomic_long_read(&kmark_test_hits));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kmark_test_hits);

static int kmark_test_switch_show(struct seq_file *s, void *v)
{
	seq_printf(s, "switches=%ld bad_current=%ld bad_mm=%ld bad_irqs=%ld bad_lock=%ld lockdep=%d\n",
		   atomic_long_read(&kmark_test_switches),
		   atomic_long_read(&kmark_test_bad_current),
		   atomic_long_read(&kmark_test_bad_mm),
		   atomic_long_read(&kmark_test_bad_irqs),
		   atomic_long_read(&kmark_test_bad_lock),
		   IS_ENABLED(CONFIG_LOCKDEP) && debug_locks);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kmark_test_switch);

static int __init kmark_test_init(void)
{
	int ret;

	/*
	 * A site that disagrees with the kernel's sys_sync marker (format
	 * ""): at load it stays off with a line in the log, the module loads.
	 */
	kmark_system("syscalls", sys_sync, "bad=%d", 1);

	if (probe) {
		ret = kmark_probe_register(probe, NULL, kmark_test_count, NULL);
		if (ret) {
			pr_err("kmark_test: probe on %s: %d\n", probe, ret);
			return ret;
		}
	}
	if (switch_check) {
		ret = kmark_probe_register("sched_switch", NULL,
					   kmark_test_switch, NULL);
		if (ret) {
			if (probe)
				kmark_probe_unregister(probe, kmark_test_count,
						       NULL);
			return ret;
		}
	}
	kmark_test_dir = debugfs_create_dir("kmark_test", NULL);
	debugfs_create_file("call", 0200, kmark_test_dir, NULL,
			    &kmark_test_call_fops);
	debugfs_create_file("val", 0200, kmark_test_dir, NULL,
			    &kmark_test_val_fops);
	debugfs_create_file("hits", 0400, kmark_test_dir, NULL,
			    &kmark_test_hits_fops);
	debugfs_create_file("switch", 0400, kmark_test_dir, NULL,
			    &kmark_test_switch_fops);
	debugfs_create_file("crash", 0200, kmark_test_dir, NULL,
			    &kmark_test_crash_fops);
	debugfs_create_file("qemu_exit", 0200, kmark_test_dir, NULL,
			    &kmark_test_qemu_exit_fops);
	if (call_at_load)
		kmark_test_fn(call_at_load);
	return 0;
}

static void __exit kmark_test_exit(void)
{
	debugfs_remove(kmark_test_dir);
	/* Must succeed: after this the probes' code is gone. */
	if (switch_check &&
	    kmark_probe_unregister("sched_switch", kmark_test_switch, NULL))
		pr_err("kmark_test: unregistering the sched_switch probe failed\n");
	if (probe && kmark_probe_unregister(probe, kmark_test_count, NULL))
		pr_err("kmark_test: unregistering the probe on %s failed\n",
		       probe);
}

module_init(kmark_test_init);
module_exit(kmark_test_exit);
MODULE_DESCRIPTION("kmark's guest test module");
MODULE_LICENSE("GPL");
