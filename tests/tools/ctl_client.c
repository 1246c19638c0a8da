/* ctl_client: a test client for topdownd's control socket that does what
 * tdctl never does — many clients at once, random bytes, an endless line,
 * a half-sent request, a client that never reads — and reports what the
 * daemon answered, so tests/integration/daemon.sh can judge it.
 *
 *   ctl_client SOCK send JSON          one request, print the reply line
 *   ctl_client SOCK pipeline JSON...   the requests in one write, then one
 *                                      reply line each, printed cut to 60 bytes
 *   ctl_client SOCK concurrent N       N clients at once from this one process,
 *                                      each status + list; prints the number of
 *                                      clients with both replies correct
 *   ctl_client SOCK random BYTES       random bytes, then close
 *   ctl_client SOCK longline BYTES     one line of BYTES 'x' (no newline);
 *                                      prints the reply, if any
 *   ctl_client SOCK half SECONDS       half a request, then wait for the
 *                                      daemon to close; prints "closed" or "open"
 *   ctl_client SOCK noread N SECONDS   N status requests, never read, hold
 *                                      the socket SECONDS; prints "dropped" when
 *                                      the daemon closed it
 *   ctl_client - http PORT N           N concurrent GET /metrics to 127.0.0.1:PORT
 *                                      from this one process (no fork per scrape);
 *                                      prints how many were answered 200 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("ctl_client: connect");
		exit(2);
	}
	return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One line from fd into buf (without its newline); -1 at EOF or timeout. */
static int read_line(int fd, char *buf, size_t len, int timeout_ms)
{
	size_t n = 0;

	while (n + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, timeout_ms) <= 0)
			return -1;
		ssize_t r = recv(fd, buf + n, 1, 0);
		if (r <= 0)
			return -1;
		if (buf[n] == '\n') {
			buf[n] = '\0';
			return 0;
		}
		n++;
	}
	buf[n] = '\0';
	return 0;
}

/* N connections at once, each sends its GET, all read with poll(). */
static int http_concurrent(int port, int n)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct pollfd *p = calloc((size_t)n, sizeof(*p));
	char(*head)[16] = calloc((size_t)n, sizeof(*head));
	size_t *got = calloc((size_t)n, sizeof(*got));
	int open_n = 0, ok = 0;

	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	for (int i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || send_all(fd, req, sizeof(req) - 1)) {
			p[i].fd = -1;
			continue;
		}
		p[i] = (struct pollfd){ .fd = fd, .events = POLLIN };
		open_n++;
	}
	while (open_n > 0 && poll(p, (nfds_t)n, 20000) > 0) {
		for (int i = 0; i < n; i++) {
			char buf[65536];
			ssize_t r;
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			r = recv(p[i].fd, buf, sizeof(buf), 0);
			if (r > 0) {
				for (ssize_t k = 0; k < r && got[i] < sizeof(head[i]) - 1; k++)
					head[i][got[i]++] = buf[k];
				continue;
			}
			if (!strncmp(head[i], "HTTP/1.1 200", 12))
				ok++;
			close(p[i].fd);
			p[i].fd = -1;
			open_n--;
		}
	}
	free(p);
	free(head);
	free(got);
	return ok;
}

int main(int argc, char **argv)
{
	char line[65536];
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: ctl_client SOCK send JSON | concurrent N | random BYTES | longline BYTES | "
				"half SECONDS | noread N SECONDS\n");
		return 2;
	}
	const char *sock = argv[1], *mode = argv[2];
	long n = strtol(argv[3], NULL, 10);

	if (!strcmp(mode, "http") && argc > 4) {
		printf("%d\n", http_concurrent((int)n, (int)strtol(argv[4], NULL, 10)));
		return 0;
	}

	if (!strcmp(mode, "send")) {
		fd = connect_to(sock);
		if (send_all(fd, argv[3], strlen(argv[3])) || send_all(fd, "\n", 1) ||
		    read_line(fd, line, sizeof(line), 20000)) {
			fprintf(stderr, "ctl_client: no reply\n");
			return 1;
		}
		printf("%s\n", line);
		return 0;
	}
	if (!strcmp(mode, "pipeline")) {
		fd = connect_to(sock);
		for (int i = 3; i < argc; i++)
			if (send_all(fd, argv[i], strlen(argv[i])) || send_all(fd, "\n", 1))
				return 1;
		for (int i = 3; i < argc; i++) {
			size_t got = 0;
			char c;
			for (;;) { /* one whole line, of any length */
				struct pollfd p = { .fd = fd, .events = POLLIN };
				if (poll(&p, 1, 20000) <= 0 || recv(fd, &c, 1, 0) != 1) {
					fprintf(stderr, "ctl_client: reply %d missing\n", i - 2);
					return 1;
				}
				if (c == '\n')
					break;
				if (got < 60)
					line[got] = c;
				got++;
			}
			printf("%.*s\n", (int)(got < 60 ? got : 60), line);
		}
		return 0;
	}
	if (!strcmp(mode, "concurrent")) {
		/* N clients at once from this one process: each connection sends
		 * status and list, the replies are read with poll() */
		static const char req[] = "{\"v\":1,\"id\":7,\"op\":\"status\"}\n{\"v\":1,\"id\":8,\"op\":\"list\"}\n";
		struct pollfd *p = calloc((size_t)n, sizeof(*p));
		char **in = calloc((size_t)n, sizeof(*in));
		size_t *len = calloc((size_t)n, sizeof(*len));
		int open_n = 0, good = 0;
		for (long i = 0; i < n; i++) {
			int c = connect_to(sock);
			p[i] = (struct pollfd){ .fd = c, .events = POLLIN };
			if (send_all(c, req, sizeof(req) - 1)) {
				close(c);
				p[i].fd = -1;
				continue;
			}
			open_n++;
		}
		while (open_n > 0 && poll(p, (nfds_t)n, 20000) > 0) {
			for (long i = 0; i < n; i++) {
				char buf[65536];
				ssize_t r;
				if (p[i].fd < 0 || !p[i].revents)
					continue;
				r = recv(p[i].fd, buf, sizeof(buf), 0);
				if (r > 0) {
					in[i] = realloc(in[i], len[i] + (size_t)r + 1);
					memcpy(in[i] + len[i], buf, (size_t)r);
					len[i] += (size_t)r;
					in[i][len[i]] = '\0';
				}
				/* both replies whole: two newlines */
				int lines = 0;
				for (size_t k = 0; k < len[i]; k++)
					lines += in[i][k] == '\n';
				if (r <= 0 || lines >= 2) {
					if (lines >= 2 && strstr(in[i], "\"id\":7,\"ok\":true") &&
					    strstr(in[i], "\"id\":8,\"ok\":true"))
						good++;
					close(p[i].fd);
					p[i].fd = -1;
					open_n--;
				}
			}
		}
		for (long i = 0; i < n; i++)
			free(in[i]);
		free(in);
		free(len);
		free(p);
		printf("%d\n", good);
		return 0;
	}
	if (!strcmp(mode, "random")) {
		int r = open("/dev/urandom", O_RDONLY);
		char buf[65536];
		fd = connect_to(sock);
		for (long sent = 0; sent < n;) {
			size_t chunk = (size_t)(n - sent) < sizeof(buf) ? (size_t)(n - sent) : sizeof(buf);
			if (read(r, buf, chunk) != (ssize_t)chunk || send_all(fd, buf, chunk))
				break; /* the daemon may close on a bad line: that is an answer too */
			sent += (long)chunk;
		}
		close(r);
		close(fd);
		printf("sent\n");
		return 0;
	}
	if (!strcmp(mode, "longline")) {
		char *buf = malloc(1 << 20);
		fd = connect_to(sock);
		memset(buf, 'x', 1 << 20);
		for (long sent = 0; sent < n; sent += 1 << 20)
			if (send_all(fd, buf, (size_t)(n - sent < (1 << 20) ? n - sent : (1 << 20))))
				break;
		free(buf);
		if (read_line(fd, line, sizeof(line), 20000) == 0)
			printf("%s\n", line);
		else
			printf("no reply\n");
		close(fd);
		return 0;
	}
	if (!strcmp(mode, "half")) {
		struct pollfd p;
		char c;
		fd = connect_to(sock);
		send_all(fd, "{\"v\":1,\"op\":\"sta", 16);
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		/* the daemon closes: readable with EOF */
		if (poll(&p, 1, (int)n * 1000) == 1 && recv(fd, &c, 1, 0) <= 0)
			printf("closed\n");
		else
			printf("open\n");
		close(fd);
		return 0;
	}
	if (!strcmp(mode, "noread") && argc > 4) {
		static const char req[] = "{\"v\":1,\"op\":\"status\"}\n";
		long secs = strtol(argv[4], NULL, 10);
		int small = 4096;
		struct timespec t0, t;
		fd = connect_to(sock);
		/* a small receive buffer: the daemon's replies pile up on its side */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		/* all the requests in one blocking write: the daemon reads them all */
		char *all = malloc((size_t)n * (sizeof(req) - 1));
		for (long i = 0; i < n; i++)
			memcpy(all + i * (long)(sizeof(req) - 1), req, sizeof(req) - 1);
		send_all(fd, all, (size_t)n * (sizeof(req) - 1));
		free(all);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			struct pollfd p = { .fd = fd, .events = 0 };
			poll(&p, 1, 100);
			/* POLLHUP once the daemon has closed its end */
			if (p.revents & (POLLHUP | POLLERR)) {
				printf("dropped\n");
				close(fd);
				return 0;
			}
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (t.tv_sec - t0.tv_sec < secs);
		printf("kept\n");
		close(fd);
		return 0;
	}
	fprintf(stderr, "ctl_client: unknown mode '%s'\n", mode);
	return 2;
}
