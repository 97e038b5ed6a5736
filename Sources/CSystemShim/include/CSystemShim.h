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

#endif
