#ifndef CSYSTEMSHIM_H
#define CSYSTEMSHIM_H

/// Renames `from` to `to` (both single names relative to the directory `dirfd`) without ever
/// replacing an existing `to`: renameat2(RENAME_NOREPLACE) where the kernel and the filesystem
/// have it, otherwise link + unlink (`linkat` fails with EEXIST when `to` exists).
/// Returns 0 on success, or -1 with errno set (EEXIST when `to` exists).
///
/// Atomicity: with renameat2 the file is under exactly one of the two names at every instant.
/// With the link fallback there is a moment (and, after a crash, possibly a leftover) where both
/// names are hard links to the same inode; `imgsniff rename --undo` recognises and removes it.
int imgsniff_rename_noreplace(int dirfd, const char *from, const char *to);

/// Flags for `imgsniff_rename_noreplace_flags`.
enum {
    /// Skip renameat2 and use link + unlink (to test the fallback).
    IMGSNIFF_RENAME_LINK_ONLY = 1
};

/// `imgsniff_rename_noreplace` with flags (`IMGSNIFF_RENAME_LINK_ONLY`).
int imgsniff_rename_noreplace_flags(int dirfd, const char *from, const char *to, int flags);

/* The file system type (statfs's f_type) of an open descriptor into *type; 0 or -1 with errno. */
int imgsniff_filesystem_type(int fd, unsigned long long *type);

/* The processors this process may run on (its affinity mask), or 0 when unknown. */
int imgsniff_available_processors(void);

/* The interrupt flag, for a signal handler: records `signal` if none is recorded yet and returns
   1, or returns 0 when one was (a lock-free C11 atomic, safe in a handler). */
int imgsniff_interrupt_record(int signal);

/* The signal recorded by imgsniff_interrupt_record, or 0. */
int imgsniff_interrupt_signal(void);

/* Installs `handler` for SIGINT and SIGTERM without SA_RESTART: a read blocked on an idle pipe
 * returns EINTR, so that the run can stop (other calls retry on EINTR). 0 on success. */
int imgsniff_install_interrupt_handler(void (*handler)(int));

/* Makes every thread allocate from one malloc arena (glibc's M_ARENA_MAX = 1): each further
 * arena reserves 64 MiB of address space, which a run under an address-space limit (ulimit -v)
 * with many threads cannot afford. 1 when set, 0 where there is no such setting. */
int imgsniff_single_malloc_arena(void);

/* The last byte `c` in the `n` bytes at `s` (memrchr), or NULL. */
const void *imgsniff_memrchr(const void *s, int c, unsigned long n);

/* io_uring (Ring.c): many files' first bytes read at once, each file through the calls the usual
 * path makes (statx of the name: a regular file; openat with O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
 * and O_NOFOLLOW when asked; statx of the descriptor: a regular file, the same one; optionally
 * fadvise(RANDOM); a read of the first IMGSNIFF_RING_PREFIX bytes). One ring per thread. */
enum { IMGSNIFF_RING_PREFIX = 4096 };

typedef struct imgsniff_ring imgsniff_ring;

typedef struct {
    /* The slot the file was started in. */
    unsigned slot;
    /* 0: `fd` is the open file (the caller closes it), `length` its size and `prefix` holds its
     * first `count` bytes (valid until the slot is started again). An errno value when a call
     * failed, or -1 when the file is not a regular file or was replaced while being opened: the
     * caller then takes the usual path, which words the error. */
    int error;
    /* With an errno value in `error`: 1 when the read of the first bytes failed (the file's
     * answer, as the usual path's failed read would be), 0 when an earlier call did. */
    int read_failed;
    int fd;
    long long length;
    int count;
    const unsigned char *prefix;
} imgsniff_ring_result;

/* A ring keeping up to `depth` files in flight, or NULL with errno set (io_uring disabled by the
 * kernel, a sandbox or seccomp; a kernel without the operations needed). */
imgsniff_ring *imgsniff_ring_create(unsigned depth);
/* Starts the file `name` (relative to the directory `dirfd`, which stays open until the result)
 * in the idle slot `slot`; the name is copied. 0, or -1 with errno set. */
int imgsniff_ring_start(imgsniff_ring *ring, unsigned slot, int dirfd, const char *name, int nofollow, int advise);
/* Waits for the next file done: 1 with `result` filled, 0 when no file is in flight, -1 with errno
 * set when the ring failed (the caller should stop using it). */
int imgsniff_ring_next(imgsniff_ring *ring, imgsniff_ring_result *result);
/* Closes the ring (and any file it opened and did not hand over). */
void imgsniff_ring_destroy(imgsniff_ring *ring);
/* 1 when a ring can be made here. */
int imgsniff_ring_available(void);

#endif
