#define _GNU_SOURCE
#include "CRenameShim.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

int imgsniff_rename_noreplace(int dirfd, const char *from, const char *to) {
#if defined(__linux__) && defined(SYS_renameat2)
    long r = syscall(SYS_renameat2, dirfd, from, dirfd, to, RENAME_NOREPLACE);
    if (r == 0) return 0;
    if (errno != ENOSYS && errno != EINVAL) return -1;
#endif
    /* Fallback: a hard link fails with EEXIST if `to` exists, then drop the old name. */
    if (linkat(dirfd, from, dirfd, to, 0) != 0) return -1;
    if (unlinkat(dirfd, from, 0) != 0) {
        int saved = errno;
        unlinkat(dirfd, to, 0);
        errno = saved;
        return -1;
    }
    return 0;
}
