/*
 * slow_fsync: make every fsync/fdatasync of a process take longer, to
 * measure the server as if its disk flushed slowly.
 *
 * Why: the durable store's tail latency follows the disk's flush time,
 * and a virtual machine's disk can flush in 0.1 ms one day and 1.5 ms the
 * next. This shim sleeps after each real flush (the thread waits, as it
 * would for a slow device; no CPU is burnt), so a run can reproduce the
 * slower disk on purpose. See docs/BENCHMARKS.md.
 *
 *   gcc -shared -fPIC -O2 -o /tmp/slow_fsync.so crates/load/tools/slow_fsync.c -ldl
 *   SLOW_FSYNC_US=1500 PRELOAD=/tmp/slow_fsync.so crates/load/tools/bench.sh sqlite 60 1000
 *
 * SLOW_FSYNC_US: the extra microseconds per flush (default 1500).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void extra_wait(void) {
    const char *env = getenv("SLOW_FSYNC_US");
    long us = env ? atol(env) : 1500;
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

/* The real call, then the extra wait. */
#define SLOWED(name)                                                     \
    int name(int fd) {                                                   \
        static int (*real)(int);                                         \
        if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, #name);         \
        int result = real(fd);                                           \
        extra_wait();                                                    \
        return result;                                                   \
    }

SLOWED(fsync)
SLOWED(fdatasync)
