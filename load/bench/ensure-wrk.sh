#!/usr/bin/env bash
# bench:load compares the generator with wrk, a C load generator (Debian's package `wrk`): this
# installs it when it is missing and the machine can (root with apt-get), as .ci/run installs
# chromium. Otherwise, or when CPSIM_NO_INSTALL=1, the bench prints wrk_rps=n/a and says how to
# install it. Never fails the bench.
command -v wrk >/dev/null 2>&1 && exit 0
if [ "${CPSIM_NO_INSTALL:-}" = "1" ] || [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  exit 0
fi
echo "bench:load: installing Debian's wrk, the reference load generator (CPSIM_NO_INSTALL=1 skips this)" >&2
(timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq wrk >/dev/null) \
  || echo "bench:load: wrk could not be installed; wrk_rps will be n/a" >&2
exit 0
