/* procfs: what /proc says about processes and threads — the TIDs of a
 * process, comm, parent, liveness, the kernel's own per-thread runtime
 * (schedstat) and voluntary/involuntary context switches. Each function is
 * a thin wrapper of the system calls reading one /proc file: it returns
 * their -errno (-ENOENT, -ESRCH: the thread is gone; -EACCES), which its
 * callers tell apart, never a message. */
#ifndef TD_PROCFS_H
#define TD_PROCFS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Sorted TIDs of /proc/PID/task into a malloc'd array. Returns count or
 * -errno: a thin wrapper of the system calls (opendir, readdir). */
int td_proc_tasks(pid_t pid, pid_t **tids);
/* Sorted numeric entries of /proc (all PIDs). Returns count or -errno: a
 * thin wrapper of the system calls (opendir, readdir). */
int td_proc_pids(pid_t **pids);
int td_proc_comm(pid_t pid, pid_t tid, char *buf, size_t len);
/* Parent PID and state letter from /proc/PID/stat. 0 or -errno: a thin
 * wrapper of the system call (its read). */
int td_proc_stat(pid_t pid, pid_t *ppid, char *state);
/* Parent, start time (clock ticks after boot) and name of a process, from
 * one read of /proc/PID/stat. 0 or -errno: a thin wrapper of the system
 * call (that read). */
int td_proc_identity(pid_t pid, pid_t *ppid, long long *start, char *comm, size_t len);
/* The file a process executes (/proc/PID/exe), malloc'd, whatever its
 * length. 0 or -errno (-EACCES: another user's, without the privilege): a
 * thin wrapper of the system call (readlink). */
int td_proc_exe(pid_t pid, char **path);
/* The cgroup v2 path of a process ("/system.slice/x.service"), malloc'd.
 * 0 or -errno (-ENODATA: no v2 hierarchy line): a thin wrapper of the
 * system call (the read of /proc/PID/cgroup). */
int td_proc_cgroup_v2(pid_t pid, char **path);
/* First field of /proc/PID/task/TID/schedstat: ns spent on a CPU. 0 or
 * -errno: a thin wrapper of the system call (its read). */
int td_proc_schedstat(pid_t pid, pid_t tid, uint64_t *runtime_ns);
/* voluntary_ctxt_switches / nonvoluntary_ctxt_switches (the thread's
 * status file). 0 or -errno: a thin wrapper of the system call (its read). */
int td_proc_ctxt_switches(pid_t pid, pid_t tid, uint64_t *vol, uint64_t *invol);
/* Start time of the process (clock ticks after boot), to detect PID reuse.
 * 0 or -errno: a thin wrapper of the system call (the read of its stat). */
int td_proc_starttime(pid_t pid, long long *start);
/* This process's read and write system calls so far (/proc/self/io syscr +
 * syscw). 0, or -errno (a kernel without task I/O accounting): a thin
 * wrapper of the system call (its read). */
int td_self_syscalls(uint64_t *n);
/* The machine's context switches since boot (/proc/stat's ctxt). 0 or
 * -errno (-EINVAL: no ctxt line): a thin wrapper of the system call (its
 * read). */
int td_proc_switches(uint64_t *n);
/* Real, effective and saved uids of process pid (/proc/PID/status Uid:).
 * 0 or -errno: a thin wrapper of the system call (its read). */
int td_proc_uids(pid_t pid, uid_t ids[3]);
/* Real uid and gid of process pid (/proc/PID/status Uid:, Gid:). 0 or
 * -errno: a thin wrapper of the system call (its read). */
int td_proc_owner(pid_t pid, uid_t *uid, gid_t *gid);
/* Owner uid of /proc/PID. 0 or -errno: a thin wrapper of the system call
 * (stat). */
int td_proc_uid(pid_t pid, uid_t *uid);
/* A process's CPU time (user + system, every thread, from /proc/PID/stat in
 * clock ticks) and its start time (to tell a reused PID). 0 or -errno: a
 * thin wrapper of the system call (its read). */
int td_proc_cpu_time(pid_t pid, uint64_t *cpu_ns, long long *start);

/* Override /proc for tests. */
void td_proc_set_root(const char *dir);

/* Do the real, effective and saved uids of process pid all equal uid (the
 * kernel's ptrace-mode rule on uids)? False when it is gone. */
bool td_proc_owned_by(pid_t pid, uid_t uid);

#endif
