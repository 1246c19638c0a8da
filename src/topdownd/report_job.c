/* report_job: a report rendered by a child process (see report_job.h). */
#include "config.h"
#include "report_job.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "sandbox.h"
#include "store/store.h"

/* The child's nice value: below every session's sampling, above nothing. */
#define RENDER_NICE 10
/* Bytes of the child's stderr kept: its one-line error. */
#define ERROR_MAX 1024

struct td_report_job {
	pid_t pid;	    /* -1 once reaped */
	int out_fd, err_fd; /* -1 once at end of file */
	char *out;
	size_t outlen, max_output;
	char err[ERROR_MAX];
	size_t errlen;
	bool too_large;
	int status; /* waitpid's */
	uint64_t client;
	int64_t request_id, session;
	bool json;
	char why[ERROR_MAX + 128];
};

/* Only what is async-signal-safe between fork and exec. */
static void exec_child(const struct td_report_job_spec *s, int out, int err, char *const argv[])
{
	sigset_t none;
	struct sched_param zero = { 0 };

	if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
		_exit(126);
	closefrom(3); /* the daemon's counters, sockets and database are not the report's */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* the loop blocks signals for its signalfd */
	sched_setscheduler(0, SCHED_OTHER, &zero);
	setpriority(PRIO_PROCESS, 0, RENDER_NICE);
	execv(s->exe, argv);
	_exit(127);
}

int td_report_job_start(const struct td_report_job_spec *spec, struct td_report_job **out, td_err *err)
{
	struct td_report_job *j = calloc(1, sizeof(*j));
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	char session[32], as[48];
	char *argv[14];
	int n = 0;

	if (!j) {
		td_err_set(err, "out of memory");
		return -1;
	}
	snprintf(session, sizeof(session), "%" PRId64, spec->session);
	argv[n++] = "topdownd";
	argv[n++] = "--render-report";
	argv[n++] = session;
	argv[n++] = "--database";
	argv[n++] = (char *)spec->db_path;
	if (spec->events_dir) {
		argv[n++] = "--events-dir";
		argv[n++] = (char *)spec->events_dir;
	}
	argv[n++] = "--format";
	argv[n++] = spec->json ? "json" : "text";
	snprintf(as, sizeof(as), "%u:%u", (unsigned)spec->uid, (unsigned)spec->gid);
	argv[n++] = "--render-as";
	argv[n++] = as;
	argv[n] = NULL;
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
		td_err_set(err, "cannot make the report's pipes: %s", strerror(errno));
		goto fail;
	}
	j->pid = fork();
	if (j->pid < 0) {
		td_err_set(err, "cannot start the report's process: %s", strerror(errno));
		goto fail;
	}
	if (j->pid == 0)
		exec_child(spec, po[1], pe[1], argv);
	close(po[1]);
	close(pe[1]);
	j->out_fd = po[0];
	j->err_fd = pe[0];
	fcntl(j->out_fd, F_SETFL, O_NONBLOCK);
	fcntl(j->err_fd, F_SETFL, O_NONBLOCK);
	j->max_output = spec->max_output;
	j->client = spec->client;
	j->request_id = spec->request_id;
	j->session = spec->session;
	j->json = spec->json;
	*out = j;
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(j);
	return -1;
}

int td_report_job_pollfds(const struct td_report_job *j, struct pollfd *p)
{
	int n = 0;

	if (j->out_fd >= 0)
		p[n++] = (struct pollfd){ .fd = j->out_fd, .events = POLLIN };
	if (j->err_fd >= 0)
		p[n++] = (struct pollfd){ .fd = j->err_fd, .events = POLLIN };
	return n;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kill the child (it has said too much, or nobody waits for it) and stop reading. */
static void stop_child(struct td_report_job *j)
{
	if (j->pid > 0)
		kill(j->pid, SIGKILL);
	close_fd(&j->out_fd);
	close_fd(&j->err_fd);
}

/* Read fd until it would block; false at end of file (or an error). */
static bool drain(struct td_report_job *j, int fd, bool is_out)
{
	char buf[65536];

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (r == 0)
			return false;
		if (!is_out) {
			size_t room = sizeof(j->err) - 1 - j->errlen, take = (size_t)r < room ? (size_t)r : room;
			memcpy(j->err + j->errlen, buf, take);
			j->errlen += take;
			continue;
		}
		if (j->outlen + (size_t)r > j->max_output) {
			j->too_large = true;
			return false;
		}
		char *grown = realloc(j->out, j->outlen + (size_t)r);
		if (!grown) {
			j->too_large = true; /* as good as: it cannot be held */
			return false;
		}
		j->out = grown;
		memcpy(j->out + j->outlen, buf, (size_t)r);
		j->outlen += (size_t)r;
	}
}

bool td_report_job_dispatch(struct td_report_job *j, const struct pollfd *p, int n)
{
	for (int i = 0; i < n; i++) {
		if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (p[i].fd == j->out_fd && j->out_fd >= 0 && !drain(j, j->out_fd, true)) {
			if (j->too_large)
				stop_child(j);
			close_fd(&j->out_fd);
		} else if (p[i].fd == j->err_fd && j->err_fd >= 0 && !drain(j, j->err_fd, false)) {
			close_fd(&j->err_fd);
		}
	}
	if (j->out_fd >= 0 || j->err_fd >= 0)
		return false;
	/* both closed: the child has exited (or was killed) */
	while (j->pid > 0 && waitpid(j->pid, &j->status, 0) < 0 && errno == EINTR)
		;
	j->pid = -1;
	return true;
}

uint64_t td_report_job_client(const struct td_report_job *j)
{
	return j->client;
}

int64_t td_report_job_request(const struct td_report_job *j)
{
	return j->request_id;
}

int64_t td_report_job_session(const struct td_report_job *j)
{
	return j->session;
}

bool td_report_job_json(const struct td_report_job *j)
{
	return j->json;
}

int td_report_job_result(const struct td_report_job *j, const char **text, size_t *len, const char **error)
{
	struct td_report_job *w = (struct td_report_job *)j; /* why[] is filled on demand */

	if (j->too_large) {
		snprintf(w->why, sizeof(w->why),
			 "the report is larger than the daemon sends (max_output %zu bytes): "
			 "read it from the database with 'tdctl report'",
			 j->max_output);
	} else if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0) {
		*text = j->out ? j->out : "";
		*len = j->outlen;
		return 0;
	} else if (j->errlen > 0) {
		size_t k = strcspn(j->err, "\n");
		snprintf(w->why, sizeof(w->why), "%.*s", (int)k, j->err);
	} else if (WIFSIGNALED(j->status)) {
		snprintf(w->why, sizeof(w->why), "the report's process ended with signal %d (%s)", WTERMSIG(j->status),
			 strsignal(WTERMSIG(j->status)));
	} else {
		snprintf(w->why, sizeof(w->why), "the report's process could not run (exit status %d)",
			 WIFEXITED(j->status) ? WEXITSTATUS(j->status) : -1);
	}
	*error = w->why;
	return -1;
}

void td_report_job_free(struct td_report_job *j)
{
	if (!j)
		return;
	stop_child(j);
	while (j->pid > 0 && waitpid(j->pid, &j->status, 0) < 0 && errno == EINTR)
		;
	free(j->out);
	free(j);
}

/* Tests: while the file named by TOPDOWND_TEST_RENDER_HOLD exists, the
 * confined renderer waits before rendering (its /proc is inspected). */
static void test_hold(void)
{
	const char *path = getenv("TOPDOWND_TEST_RENDER_HOLD");
	struct timespec t = { 0, 10 * 1000 * 1000 };
	struct stat sb;

	while (path && path[0] && stat(path, &sb) == 0)
		nanosleep(&t, NULL);
}

int td_report_job_render(const char *db_path, const char *events_dir, int64_t session, bool json, uid_t uid, gid_t gid)
{
	struct td_report_opts ro = { .format = json ? TD_REPORT_JSON : TD_REPORT_TEXT,
				     .events_dir = events_dir,
				     .db_path = db_path };
	struct td_store *st;
	td_err err;
	int rc;

	if (td_store_open(db_path, TD_STORE_READ, &st, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	/* SQLite opens the -wal and -shm at the first read: done now, as root;
	 * stdout's buffer allocated now too */
	(void)td_store_latest_session(st);
	/* and closing it, confined, must not checkpoint (write, sync) nor remove them */
	td_store_no_checkpoint_on_close(st);
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	if (td_sandbox_enter_render(uid, gid, &err)) {
		td_store_close(st);
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	test_hold();
	rc = td_report(st, session, &ro, stdout, &err);
	td_store_close(st);
	if (rc) {
		fprintf(stderr, "%s\n", err.msg);
	} else if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cannot write the report: %s\n", strerror(errno));
		rc = 1;
	}
	fflush(stderr);
	/* _exit: the sanitizers' exit-time leak check needs ptrace and /proc,
	 * which the filter refuses (td_report is leak-checked unconfined, by
	 * tdctl report's tests) */
	_exit(rc ? 1 : 0);
}
