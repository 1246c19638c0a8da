/* tracker_event: the record the BPF lifecycle tracker (tracker.bpf.c) puts
 * in its ring buffer for user space (tracker_bpf.c), and the settings both
 * sides share. Included by the BPF program (after vmlinux.h) and by C code
 * (after <linux/types.h>): only fixed-size kernel types. */
#ifndef TD_TRACKER_EVENT_H
#define TD_TRACKER_EVENT_H

#define TD_BPF_COMM_LEN 16 /* TASK_COMM_LEN */

enum td_bpf_event_kind {
	TD_BPF_BORN = 1, /* a thread of a followed process, or a followed child process, was created */
	TD_BPF_EXEC,	 /* a followed process called exec: new comm; tid may take over the leader's (old_tid) */
	TD_BPF_RENAME,	 /* a thread of a followed process changed its comm (prctl, /proc/.../comm) */
	TD_BPF_GONE,	 /* a thread of a followed process exited */
};

/* flags */
#define TD_BPF_NEW_PROCESS 1u  /* BORN: the thread leads a new (child) process */
#define TD_BPF_LAST_THREAD 2u  /* GONE: the process's last thread: the process is gone */
#define TD_BPF_NOT_FOLLOWED 4u /* BORN of a process: the followed map was full, it is not followed */

struct td_bpf_event {
	__u64 time_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 kind;    /* enum td_bpf_event_kind */
	__u32 flags;
	__u32 tid, pid;	  /* the thread and its process (tgid) */
	__u32 parent_tid; /* BORN: the thread that created it; EXEC: the tid before exec */
	__u32 parent_pid; /* BORN: the process of that thread */
	char comm[TD_BPF_COMM_LEN];
	/* GONE: what the kernel accounted to the thread over its life */
	__u64 runtime_ns; /* se.sum_exec_runtime */
	__u64 nvcsw, nivcsw;
	__u64 min_flt, maj_flt;
	__u64 migrations; /* se.nr_migrations */
};

/* Processes followed at once by one tracker (the BPF hash map's size). */
#define TD_BPF_MAX_FOLLOWED 8192
/* Ring buffer bytes: ~21,000 events between two polls. */
#define TD_BPF_RINGBUF_BYTES (1u << 20)

#endif
