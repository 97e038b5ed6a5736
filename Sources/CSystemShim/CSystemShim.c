#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#if defined(__linux__)
#include <sched.h>
#include <sys/vfs.h>
#else
#include <sys/mount.h>
#include <sys/param.h>
#endif
#if defined(__APPLE__)
#include <stdio.h>  /* renameatx_np, RENAME_EXCL */
#endif

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static int link_then_unlink(int dirfd, const char *from, const char *to) {
    int r;
    /* A hard link fails with EEXIST if `to` exists (even a dangling symlink): never clobbers. */
    do { r = linkat(dirfd, from, dirfd, to, 0); } while (r != 0 && errno == EINTR);
    if (r != 0) return -1;
    do { r = unlinkat(dirfd, from, 0); } while (r != 0 && errno == EINTR);
    if (r != 0) {
        int saved = errno;
        unlinkat(dirfd, to, 0);
        errno = saved;
        return -1;
    }
    return 0;
}

int imgsniff_rename_noreplace_flags(int dirfd, const char *from, const char *to, int flags) {
#if defined(__APPLE__) && defined(RENAME_EXCL)
    /* macOS 10.12 and later: renameatx_np with RENAME_EXCL (untested here: no Mac). */
    if (!(flags & IMGSNIFF_RENAME_LINK_ONLY)) {
        int r;
        do { r = renameatx_np(dirfd, from, dirfd, to, RENAME_EXCL); } while (r != 0 && errno == EINTR);
        if (r == 0) return 0;
        if (errno != ENOTSUP && errno != EINVAL) return -1;
    }
#endif
#if defined(__linux__) && defined(SYS_renameat2)
    if (!(flags & IMGSNIFF_RENAME_LINK_ONLY)) {
        long r;
        do {
            r = syscall(SYS_renameat2, dirfd, from, dirfd, to, RENAME_NOREPLACE);
        } while (r != 0 && errno == EINTR);
        if (r == 0) return 0;
        /* ENOSYS: old kernel. EINVAL: the filesystem does not support RENAME_NOREPLACE. */
        if (errno != ENOSYS && errno != EINVAL) return -1;
    }
#endif
    return link_then_unlink(dirfd, from, to);
}

int imgsniff_rename_noreplace(int dirfd, const char *from, const char *to) {
    return imgsniff_rename_noreplace_flags(dirfd, from, to, 0);
}

int imgsniff_filesystem_type(int fd, unsigned long long *type) {
    struct statfs info;
    int r;
    do { r = fstatfs(fd, &info); } while (r != 0 && errno == EINTR);
    if (r != 0) return -1;
#if defined(__linux__)
    *type = (unsigned long long)info.f_type;
#else
    *type = (unsigned long long)info.f_type;
#endif
    return 0;
}

static _Atomic int interrupt_signal;

int imgsniff_interrupt_record(int signal) {
    int expected = 0;
    return atomic_compare_exchange_strong(&interrupt_signal, &expected, signal) ? 1 : 0;
}

int imgsniff_interrupt_signal(void) {
    return atomic_load_explicit(&interrupt_signal, memory_order_relaxed);
}

int imgsniff_install_interrupt_handler(void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  /* no SA_RESTART */
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    return sigaction(SIGTERM, &action, NULL);
}

int imgsniff_available_processors(void) {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    return 0;
}

int imgsniff_single_malloc_arena(void) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, 1);
#else
    return 0;
#endif
}

const void *imgsniff_memrchr(const void *s, int c, unsigned long n) {
#if defined(__GLIBC__)
    return memrchr(s, c, n);
#else
    const unsigned char *p = (const unsigned char *)s + n;
    while (p > (const unsigned char *)s) { if (*--p == (unsigned char)c) return p; }
    return NULL;
#endif
}
