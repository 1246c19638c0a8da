/* session: one monitoring session (run, attach, record) from start to end —
 * the checks of the target and the database, the command started stopped
 * and released once its counters are open, the session row, the final read
 * and the status it ends with. The loop between is session_loop.c; the
 * groups, session_plan.c; what is written, session_sink.c. */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/procfs.h"
#include "machine/host.h"
#include "sampler_priority.h"
#include "session_impl.h"

static int find_command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL;

	if (strchr(name, '/')) {
		struct stat st;
		snprintf(out, len, "%s", name);
		if (stat(name, &st) != 0)
			return -errno;
		if (!S_ISREG(st.st_mode))
			return -EISDIR;
		return access(name, X_OK) == 0 ? 0 : -errno;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	if (!(copy = strdup(path)))
		return -ENOMEM;
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *dir ? dir : ".", name);
		if (access(out, X_OK) == 0) {
			free(copy);
			return 0;
		}
	}
	free(copy);
	return -ENOENT;
}

static int start_child(struct td_session *rs, td_err *err)
{
	int go[2], exec_err[2], nice;
	bool renice;
	char resolved[PATH_MAX];
	int rc = find_command(rs->o.argv[0], resolved, sizeof(resolved));

	if (rc == -ENOENT) {
		td_err_set(err, "command '%s' not found: check its name, or give its path", rs->o.argv[0]);
		rs->res.error_exit = 127;
		return -1;
	}
	if (rc < 0) {
		td_err_set(err, "cannot execute '%s': %s: give an executable file", rs->o.argv[0],
			   rc == -EISDIR ? "not a regular file" : strerror(-rc));
		rs->res.error_exit = 126;
		return -1;
	}
	renice = td_sampler_priority_unraised_nice(&nice);
	if (pipe2(go, O_CLOEXEC) || pipe2(exec_err, O_CLOEXEC)) {
		td_err_set(err, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	rs->child = fork();
	if (rs->child < 0) {
		td_err_set(err, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (rs->child == 0) {
		sigset_t none;
		char byte;
		int e;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* the nice value the program had before its sampler was raised (the kernel reset it to 0) */
		if (renice)
			setpriority(PRIO_PROCESS, 0, nice);
		close(go[1]);
		close(exec_err[0]);
		/* wait until the counters are open, so the command is counted from its first instruction */
		if (read(go[0], &byte, 1) != 1)
			_exit(127);
		execvp(rs->o.argv[0], rs->o.argv);
		e = errno;
		if (write(exec_err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	rs->go_fd = go[1];
	rs->exec_err_fd = exec_err[0];
	return 0;
}

/* Let the child exec; 0 when exec succeeded, else -errno. */
static int release_child(struct td_session *rs)
{
	int e = 0;
	ssize_t n;

	if (write(rs->go_fd, "g", 1) != 1)
		return -EPIPE;
	close(rs->go_fd);
	rs->go_fd = -1;
	do
		n = read(rs->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rs->exec_err_fd);
	rs->exec_err_fd = -1;
	return n == (ssize_t)sizeof(e) ? -e : 0;
}

static int check_attach_target(pid_t pid, td_err *err)
{
	uid_t owner;

	if (pid <= 0) {
		td_err_set(err, "bad PID '%d': give the PID of a running process", (int)pid);
		return -1;
	}
	if (pid == getpid()) {
		td_err_set(err, "tdctl cannot attach to itself: give another PID");
		return -1;
	}
	if (kill(pid, 0) != 0 && errno == ESRCH) {
		td_err_set(err, "no process with PID %d: check the PID with 'ps -p %d'", (int)pid, (int)pid);
		return -1;
	}
	if (td_proc_uid(pid, &owner) == 0 && geteuid() != 0 && owner != geteuid()) {
		td_err_set(err,
			   "not allowed to monitor PID %d: it belongs to uid %u; run tdctl as that user or as root "
			   "(or with CAP_PERFMON and CAP_SYS_PTRACE)",
			   (int)pid, (unsigned)owner);
		return -1;
	}
	return 0;
}

static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void fill_session_info(const struct td_session *rs, struct td_session_info *si, char *command, size_t len,
			      char *host, size_t hlen)
{
	size_t used = 0;

	command[0] = '\0';
	if (rs->o.argv) {
		for (int i = 0; rs->o.argv[i] && used + 2 < len; i++)
			used += (size_t)snprintf(command + used, len - used, "%s%s", i ? " " : "", rs->o.argv[i]);
	} else if (rs->sys && rs->cg_fd >= 0) {
		snprintf(command, len, "cgroup %s (%d CPUs)", rs->cg_path, td_syswide_ncpus(rs->sys));
	} else if (rs->cg_bpf) {
		snprintf(command, len, "cgroup %s (summed by BPF on all CPUs)", rs->cg_path);
	} else if (rs->sys) {
		snprintf(command, len, "system-wide (%d CPUs)", td_syswide_ncpus(rs->sys));
	} else {
		char comm[64] = "";
		char cmdline_path[64];
		snprintf(cmdline_path, sizeof(cmdline_path), "/proc/%d/comm", (int)rs->o.attach_pid);
		td_read_file(cmdline_path, comm, sizeof(comm));
		snprintf(command, len, "%s (PID %d)", comm, (int)rs->o.attach_pid);
	}
	if (gethostname(host, hlen) != 0)
		snprintf(host, hlen, "unknown");
	memset(si, 0, sizeof(*si));
	si->kind = rs->o.argv ? "run" : rs->cg_fd >= 0 ? "cgroup" : rs->sys ? "system" : "attach";
	si->command = command;
	si->target_pid = rs->child ? rs->child : rs->o.attach_pid;
	si->host = host;
	si->kernel = rs->caps.kernel;
	si->cpu_vendor = rs->caps.vendor;
	si->cpu_family = rs->caps.family;
	si->cpu_model = rs->caps.model;
	si->cpu_name = rs->caps.cpu_name;
	si->uarch = rs->caps.uarch;
	si->pmu_model = rs->hybrid_spec[0] ? rs->hybrid_spec : rs->caps.pfm_model;
	si->rung = td_rung_name(rs->caps.rung);
	si->rung_reason = rs->caps.rung_reason;
	si->events_file = rs->caps.events_file;
	si->interval_ms = rs->o.interval_ms;
	si->kernel_counted = rs->caps.kernel_allowed;
	si->smt = rs->caps.smt_on;
	si->num_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	si->owner_uid = rs->o.has_owner ? (int64_t)rs->o.owner_uid : -1;
	si->schedule = rs->o.schedule;
}

int td_session_block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigprocmask(SIG_BLOCK, &set, old);
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void cleanup(struct td_session *rs)
{
	session_loop_close(rs);
	if (rs->child > 0 && rs->go_fd >= 0) {
		/* never started: let it die without running the command */
		kill(rs->child, SIGKILL);
		waitpid(rs->child, NULL, 0);
	}
	if (rs->go_fd >= 0)
		close(rs->go_fd);
	if (rs->exec_err_fd >= 0)
		close(rs->exec_err_fd);
	session_hotspots_free(rs);
	td_collector_free(rs->col);
	td_live_free(rs->live);
	td_written_free(&rs->written);
	free(rs->extra_td);
	td_syswide_free(rs->sys);
	if (rs->cg_fd >= 0)
		close(rs->cg_fd);
	if (rs->raw_dump)
		fclose(rs->raw_dump);
	if (!rs->o.store)
		td_store_close(rs->store);
	for (int i = 0; i < rs->nplan_notes; i++)
		free(rs->plan_notes[i]);
	free(rs->plan_notes);
	session_plan_files_free(rs);
	free(rs->aggs);
	free(rs);
}

static int status_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

/* The checks that need no database: counting allowed, the target exists
 * and may be watched, the model file, the groups encode. */
static int prepare(struct td_session *rs, td_err *err)
{
	const struct td_session_opts *o = &rs->o;

	td_caps_detect(&rs->caps);
	if (session_choose_model(rs, err))
		return -1;
	td_caps_decide_rung(&rs->caps);
	if (o->user_only)
		rs->caps.kernel_allowed = false;
	if (!rs->caps.counting_allowed) {
		td_err_set(err, "%s", rs->caps.rung_reason);
		return -1;
	}
	if (o->system || o->cgroup) {
		char why[256];
		if (td_syswide_refusal(rs->caps.is_root, rs->caps.cap_perfmon, rs->caps.cap_sys_admin,
				       rs->caps.paranoid, why, sizeof(why))) {
			td_err_set(err, "%s", why);
			return -1;
		}
	} else if (!o->argv && check_attach_target(o->attach_pid, err)) {
		return -1;
	}
	return session_load_events(rs, err);
}

#define TD_CGROUP2_SUPER_MAGIC 0x63677270 /* linux/magic.h */

/* record --cgroup: the BPF program sums the cgroup (and the cgroups below
 * it) where it loads (--counting=auto) or as asked (bpf) — not with --cpus
 * (it sums every CPU), nor for a cgroup v1 group (the program knows v2
 * ids), nor with --counting=per-thread: then perf's cgroup events on each
 * CPU. 1 when it does, 0 when not, -1 with err. */
static int cgroup_by_bpf(struct td_session *rs, td_err *err)
{
	const struct td_session_opts *o = &rs->o;
	const char *why_not = NULL;
	char rel[512];
	struct statfs sf;
	struct stat st;
	td_err rel_err;
	int level = 0;

	if (o->counting == TD_COUNTING_PER_THREAD)
		return 0;
	if (o->cpus)
		why_not = "--cpus counts some CPUs, the BPF program sums them all";
	else if (fstatfs(rs->cg_fd, &sf) || sf.f_type != TD_CGROUP2_SUPER_MAGIC)
		why_not = "the cgroup is not in a cgroup v2 hierarchy";
	else if (fstat(rs->cg_fd, &st) || td_cgroup_relative(o->cgroup, rel, sizeof(rel), &rel_err))
		why_not = "its place in the hierarchy is not known";
	for (const char *p = rel; !why_not && *p; p++)
		level += *p == '/' && p[1] && p[1] != '/';
	if (!why_not && level >= TD_BPF_CGROUP_LEVELS)
		why_not = "the cgroup is deeper than the BPF program looks";
	if (why_not && o->counting == TD_COUNTING_BPF) {
		td_err_set(err, "--counting=bpf: %s; leave --counting out", why_not);
		return -1;
	}
	if (why_not)
		return 0;
	td_collector_sum_cgroups(rs->col);
	if (td_collector_set_counting(rs->col, o->counting, TD_BPF_MAP_ENTRIES_DEFAULT, err))
		return -1;
	if (!td_collector_counting_bpf(rs->col))
		return 0; /* auto: it did not load (the counting note says why) */
	if (td_collector_follow_cgroup(rs->col, (uint64_t)st.st_ino, level, err))
		return -1;
	rs->cg_bpf = true;
	return 1;
}

/* Open the counters on the target (the command still waits to exec). */
static int open_counters(struct td_session *rs, td_err *err)
{
	const struct td_session_opts *o = &rs->o;

	/* a system or cgroup session follows no process, so no children either */
	if (!(rs->col = td_collector_new(rs->specs, rs->nspecs, !o->system && !o->cgroup, rs->caps.paranoid))) {
		td_err_set(err, "out of memory");
		return -1;
	}
	if (o->open_as_owner)
		td_collector_open_as(rs->col, o->owner_uid, o->owner_gid);
	if (o->unlisted_off)
		td_collector_unlisted_off(rs->col);
	/* a client's session counts per thread: each counter opened with the client's ids is the
	 * kernel's check; BPF sums would count what the kernel would refuse the client (a setuid child) */
	/* --rotate enables and disables groups of each thread: per-thread counting */
	if (o->rotate_ms > 0 && o->counting == TD_COUNTING_BPF) {
		td_err_set(err, "--rotate rotates each thread's perf groups: it needs --counting=per-thread (or auto)");
		return -1;
	}
	if (!o->system && !o->cgroup)
		td_collector_plan_tracker(rs->col, o->tracker);
	if (!o->system && !o->cgroup &&
	    td_collector_set_counting(rs->col,
				      o->open_as_owner || o->rotate_ms > 0 ? TD_COUNTING_PER_THREAD : o->counting,
				      o->bpf_map_entries ? o->bpf_map_entries : TD_BPF_MAP_ENTRIES_DEFAULT, err))
		return -1;
	/* after the counting mode: a BPF counting program loaded its programs with its own */
	if (!o->system && !o->cgroup && td_collector_set_tracker(rs->col, o->tracker, err))
		return -1;
	if (session_setup_rotation(rs, err) || (o->argv && start_child(rs, err)))
		return -1;
	if (o->cgroup && (rs->cg_fd = td_cgroup_open(o->cgroup, rs->cg_path, sizeof(rs->cg_path), err)) < 0)
		return -1;
	if (o->cgroup && cgroup_by_bpf(rs, err) != 0)
		return rs->cg_bpf ? 0 : -1;
	if (o->system || o->cgroup) {
		int *only = NULL, nonly = 0, rc;
		if (o->cpus && (nonly = td_parse_cpu_list(o->cpus, &only, err)) <= 0) {
			if (nonly == 0)
				td_err_set(err, "bad CPU list '%s': give CPU numbers and ranges, e.g. 0-3,6", o->cpus);
			return -1;
		}
		rc = td_syswide_open(rs->specs, rs->nspecs, rs->caps.paranoid, rs->cg_fd, only, nonly, &rs->sys, err);
		free(only);
		return rc;
	}
	if (!o->argv && o->attach_children)
		return td_collector_add_process_tree(rs->col, o->attach_pid, &rs->sink, err);
	return td_collector_add_process(rs->col, o->argv ? rs->child : o->attach_pid,
					o->argv ? TD_OPEN_ENABLE_ON_EXEC : 0, &rs->sink, err);
}

/* The session row, its event plan and live metrics; then the command runs. */
static int begin(struct td_session *rs, td_err *err)
{
	const struct td_session_opts *o = &rs->o;
	char command[1024], host[256];
	struct td_session_info si;

	fill_session_info(rs, &si, command, sizeof(command), host, sizeof(host));
	if ((rs->session = td_store_session_begin(rs->store, &si, err)) < 0)
		return -1;
	rs->res.session_id = rs->session;
	char note[1200];
	/* --unlisted=off said where the session keeps how it counted (summary_data reads it back) */
	snprintf(note, sizeof(note), "%s%s", td_collector_counting(rs->col),
		 o->unlisted_off ? TD_UNLISTED_OFF_NOTE : "");
	if (!o->system && (!o->cgroup || rs->cg_bpf) &&
	    td_store_session_counting(rs->store, rs->session, td_collector_counting_bpf(rs->col) ? "bpf" : "per-thread",
				      note))
		td_store_describe_write_error(rs->store, "write to", err);
	else if (session_register_events(rs))
		td_store_describe_write_error(rs->store, "write to", err);
	if (err->msg[0] || session_setup_live(rs, err)) {
		td_store_session_end(rs->store, rs->session, "failed", -1, err->msg);
		return -1;
	}
	session_plan_files_free(rs); /* what live evaluation did not take */
	/* measured before the timers are armed: on a saturated host they take a while, which the
	 * first interval would otherwise absorb as periods read late */
	session_record_read_cost(rs);
	if (!o->system && !o->cgroup)
		session_record_switch_cost(rs);
	if (session_loop_arm(rs, err) || session_hotspots_open(rs, err)) {
		td_store_session_end(rs->store, rs->session, "failed", -1, err->msg);
		return -1;
	}
	session_enforce_retention(rs);
	session_group_init(rs, false);
	rs->interval_start = td_wall_ns();
	/* what sampling costs is counted from here: the set-up (events files, libpfm4's
	 * initialisation, which reads every tracepoint's id, the counters opened) is once */
	rs->cost_cpu_ns = td_process_cpu_ns();
	rs->res.start_cpu_ns = rs->cost_cpu_ns + rs->helper_cpu_ns;
	rs->res.helper_cpu_ns = rs->helper_cpu_ns;
	rs->cost_reads = td_perf_group_reads() + td_bpf_counting_reads();
	if (td_self_syscalls(&rs->cost_syscalls))
		rs->cost_syscalls = 0;
	rs->syscalls_read_ns = rs->interval_start;
	if (o->argv) {
		int rc = release_child(rs);
		if (rc < 0) {
			td_err_set(err, "cannot execute '%s': %s: give an executable file", o->argv[0], strerror(-rc));
			rs->res.error_exit = rc == -ENOENT ? 127 : 126;
			td_store_session_end(rs->store, rs->session, "failed", rs->res.error_exit, err->msg);
			waitpid(rs->child, NULL, 0);
			rs->child = 0;
			return -1;
		}
	}
	return 0;
}

int td_session_start(const struct td_session_opts *o, struct td_session **out, struct td_session_result *res,
		     td_err *err)
{
	struct td_session *rs = calloc(1, sizeof(*rs));

	*out = NULL;
	memset(res, 0, sizeof(*res));
	res->error_exit = 1;
	err->msg[0] = '\0';
	if (!rs) {
		td_err_set(err, "out of memory");
		return -1;
	}
	rs->o = *o;
	rs->res.error_exit = 1;
	rs->go_fd = rs->exec_err_fd = rs->cg_fd = -1;
	rs->tick = rs->scan = rs->rot = rs->pidfd = -1;
	session_sink_init(rs);
	if (prepare(rs, err))
		goto fail;
	raise_fd_limit();
	if (o->store)
		rs->store = o->store; /* the caller's, recovered when opened */
	else if (td_store_open(o->db_path, TD_STORE_WRITE, &rs->store, err))
		goto fail;
	else {
		td_store_recover(rs->store);
		if (o->counts_observer)
			td_store_observe_counts(rs->store, o->counts_observer, o->counts_observer_ctx);
	}
	if (open_counters(rs, err))
		goto fail;
	session_number_groups(rs);
	session_print_plan_notes(rs);
	if (begin(rs, err))
		goto fail;
	*out = rs;
	return 0;
fail:
	*res = rs->res;
	cleanup(rs);
	return -1;
}

/* The intervals that absorbed missed periods, as ranges: "interval 7 is
 * longer", "intervals 3-5, 9 and 12 are longer"; past the TD_MISSED_RANGES_KEPT
 * first ranges, how many more. */
static void describe_missed(const struct td_session *rs, char *buf, size_t len)
{
	size_t used;
	int said = rs->nmissed < TD_MISSED_RANGES_KEPT ? rs->nmissed : TD_MISSED_RANGES_KEPT;

	if (rs->nmissed == 0) {
		snprintf(buf, len, "the intervals are longer");
		return;
	}
	used = (size_t)snprintf(buf, len, "interval%s",
				rs->nmissed > 1 || rs->missed[0].first != rs->missed[0].last ? "s" : "");
	for (int i = 0; i < said && used < len; i++) {
		const struct missed_range *r = &rs->missed[i];
		const char *sep = i == 0 ? " " : i == rs->nmissed - 1 ? " and " : ", ";
		if (r->first == r->last)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", sep, r->first);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%d-%d", sep, r->first, r->last);
	}
	if (rs->nmissed > said && used < len)
		used += (size_t)snprintf(buf + used, len - used, " and %d more range%s", rs->nmissed - said,
					 rs->nmissed - said == 1 ? "" : "s");
	if (used < len)
		snprintf(buf + used, len - used, " %s longer",
			 rs->nmissed > 1 || rs->missed[0].first != rs->missed[0].last ? "are" : "is");
}

int td_session_finish(struct td_session *rs, struct td_session_result *res, td_err *err)
{
	struct td_collector_stats st;
	bool ended;
	char message
		[1024]; /* the stop reason (< 128), the last open failure (< 300), the missed periods (< 400), the failed writes */
	char lost[600]; /* what BPF counting lost, when it did */
	int ret;

	err->msg[0] = '\0';
	/* periods that passed unread since the last interval (a sampler held up past the
	 * end, in a write or without CPU): the final interval covers them */
	session_loop_take_periods(rs);
	session_write_interval(rs, true);
	session_hotspots_say_end(rs);
	if (rs->child) {
		int wstatus = 0;
		if (!strcmp(rs->res.stop_reason, "duration reached"))
			kill(rs->child, SIGTERM);
		if (waitpid(rs->child, &wstatus, 0) == rs->child)
			rs->res.target_status = status_code(wstatus);
	}
	if (td_live_spanning(rs->live) > 0)
		session_say(rs, TD_SAY_NOTE,
			    "%d formula%s read events of several groups (different time windows): their "
			    "confidence is the product of the groups' coverage",
			    td_live_spanning(rs->live), td_live_spanning(rs->live) == 1 ? "" : "s");
	td_collector_stats(rs->col, &st);
	/* said at the end of a session that ran (an error stays one line) */
	if (!rs->write_failed && !rs->o.system && !rs->o.cgroup && st.threads_short)
		session_say(rs, TD_SAY_NOTE, "%s; %d thread%s born and gone between two scans listed from its events",
			    td_collector_tracker(rs->col), st.threads_short, st.threads_short == 1 ? "" : "s");
	else if (!rs->write_failed && !rs->o.system && !rs->o.cgroup)
		session_say(rs, TD_SAY_NOTE, "%s", td_collector_tracker(rs->col));
	if (!rs->write_failed && rs->o.priority_said)
		session_say(rs, TD_SAY_NOTE, "%s", rs->o.priority_said);
	if (!rs->write_failed && !rs->o.system && (!rs->o.cgroup || rs->cg_bpf)) {
		if (td_collector_counting_unseen(rs->col, lost, sizeof(lost)))
			session_say(rs, TD_SAY_NOTE, "%s; %s", td_collector_counting(rs->col), lost);
		else
			session_say(rs, TD_SAY_NOTE, "%s", td_collector_counting(rs->col));
	}
	if (!rs->o.system && !rs->o.cgroup && td_collector_counting_lost(rs->col, lost, sizeof(lost)))
		session_say(rs, TD_SAY_WARNING, "%s", lost);
	if (st.tracker_lost)
		session_say(
			rs, TD_SAY_WARNING,
			"the BPF thread tracker lost %llu event%s (its ring buffer or process map "
			"was full): threads may be missing from the list; their counts are in the unlisted remainder",
			(unsigned long long)st.tracker_lost, st.tracker_lost == 1 ? "" : "s");
	if (st.open_failures)
		snprintf(message, sizeof(message), "%s; %d thread%s not counted: %s", rs->res.stop_reason,
			 st.open_failures, st.open_failures == 1 ? "" : "s", st.last_failure);
	else
		snprintf(message, sizeof(message), "%s", rs->res.stop_reason);
	if (rs->missed_periods) {
		size_t len = strlen(message);
		char what[400];
		char which[160];
		describe_missed(rs, which, sizeof(which));
		snprintf(what, sizeof(what),
			 "%llu interval period%s of %d ms not read on time (%s): topdown was held up "
			 "(too little CPU, or slow writes; the sampler ran at %s)",
			 (unsigned long long)rs->missed_periods, rs->missed_periods == 1 ? "" : "s", rs->o.interval_ms,
			 which, rs->late_priority);
		snprintf(message + len, sizeof(message) - len, "; %s", what);
		session_say(rs, TD_SAY_WARNING, "%s", what);
	}
	if (rs->failed_writes && !rs->write_failed) {
		size_t len = strlen(message);
		snprintf(message + len, sizeof(message) - len,
			 "; %d interval write%s failed, their counts went into the "
			 "intervals written after them",
			 rs->failed_writes, rs->failed_writes == 1 ? "" : "s");
	}
	ended = td_store_session_end(rs->store, rs->session, rs->write_failed ? "failed" : "completed",
				     rs->o.argv ? rs->res.target_status : -1, message) == 0;
	ret = rs->write_failed || !ended ? -1 : 0;
	if (!rs->write_failed && !ended) {
		/* every interval is stored, only the session's end is not: it reads as still running */
		const char *advice = td_store_disk_advice(rs->store);
		td_err_set(err,
			   "cannot record the end of session %lld in '%s' (%s); its intervals are all in the "
			   "database, the session left running (the next tdctl to open it marks it interrupted): %s",
			   (long long)rs->session, rs->o.db_path, td_store_errmsg(rs->store),
			   advice ? advice : "see 'tdctl sessions'");
	}
	if (rs->write_failed)
		td_err_set(err,
			   "the last %d interval write%s to '%s' failed (%s); the intervals before are in the "
			   "database, the session %s: %s%s",
			   rs->failed_streak, rs->failed_streak == 1 ? "" : "s", rs->o.db_path, rs->write_error,
			   ended ? "marked failed"
				 : "left running (the next tdctl to "
				   "open it marks it interrupted)",
			   rs->write_advice ? rs->write_advice : "see 'tdctl sessions'",
			   rs->write_advice && !ended ? " and see 'tdctl sessions'" : "");
	*res = rs->res;
	cleanup(rs);
	return ret;
}

int td_session_execute(const struct td_session_opts *o, struct td_session_result *res, td_err *err)
{
	struct td_session *s;
	sigset_t oldmask;
	int sigfd = td_session_block_signals(&oldmask), ret = -1;

	if (td_session_start(o, &s, res, err) == 0) {
		session_group_init(s, true);
		td_session_loop(&s, 1, sigfd);
		ret = td_session_finish(s, res, err);
	}
	if (sigfd >= 0)
		close(sigfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	return ret;
}
