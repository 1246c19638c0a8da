/* exec_record: the record the BPF exec watcher (exec_watch.bpf.c) puts in
 * its ring buffer for user space (exec_watch_bpf.c). Included by the BPF
 * program (after vmlinux.h) and by C code (after <linux/types.h>): only
 * fixed-size kernel types. */
#ifndef TD_EXEC_RECORD_H
#define TD_EXEC_RECORD_H

#define TD_EXEC_COMM_LEN 16  /* TASK_COMM_LEN */
#define TD_EXEC_PATH_LEN 256 /* a longer path is flagged and read from /proc/PID/exe instead */

struct td_exec_record {
	__u64 time_ns;	      /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 pid;	      /* the process (tgid) that executed a program */
	__u32 ppid;	      /* its parent (real_parent's tgid) */
	__u32 path_truncated; /* the path did not fit in path */
	__u32 pad;
	char comm[TD_EXEC_COMM_LEN];
	char path[TD_EXEC_PATH_LEN]; /* the file executed, as given to exec (bprm->filename) */
};

/* Ring buffer bytes: ~2,000 execs between two polls. */
#define TD_EXEC_RINGBUF_BYTES (1u << 19)

#endif
