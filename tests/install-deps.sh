#!/bin/sh
# install-deps: the Debian 12 packages topdown builds and tests with
# (chromium: the HTML report is rendered headless by tests/integration/report.sh;
# systemd and man-db: systemd-analyze verify checks topdownd.service and its man pages;
# dpkg-dev, debhelper, lintian: check-all.sh builds and checks the Debian packages;
# bpftool, clang, llvm: the BPF thread tracker, src/collect/tracker.bpf.c;
# clang-format: tests/format.sh checks the code is as .clang-format writes it;
# curl and prometheus: tests/integration/exporter.sh scrapes /metrics with both).
# Run as root (or with sudo available). Safe to run again.
set -eu
PACKAGES="build-essential autoconf automake libtool pkg-config \
libpfm4-dev libbpf-dev libsqlite3-dev libcmocka-dev libelf-dev libdw-dev zlib1g-dev \
libjansson-dev libsystemd-dev libmicrohttpd-dev \
bpftool clang llvm clang-format \
sqlite3 util-linux systemd man-db chromium curl prometheus \
dpkg-dev debhelper fakeroot lintian"
SUDO=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then SUDO=sudo; else
		echo "install-deps: run as root (apt-get needs it)" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
echo "install-deps: $(echo $PACKAGES | wc -w) packages present"
