#ifndef CRENAMESHIM_H
#define CRENAMESHIM_H

/// Renames `from` to `to` (both relative to the directory `dirfd`) without ever replacing an
/// existing `to`: renameat2(RENAME_NOREPLACE) where the kernel has it, otherwise link + unlink.
/// Returns 0 on success, or -1 with errno set (EEXIST when `to` exists).
int imgsniff_rename_noreplace(int dirfd, const char *from, const char *to);

#endif
