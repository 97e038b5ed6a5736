/* Reading the first bytes of many files at once through io_uring (issue 28): a tree that is not in
 * the page cache wants 32-64 reads in flight, two cores want two threads, so each scan thread keeps
 * a ring of files in flight instead of one. Raw system calls (no liburing): the static binary and
 * a fresh machine need nothing more than the kernel headers.
 *
 * Each slot takes one file through the calls the usual path makes, in order, each an io_uring
 * operation: statx(name) (a regular file, without opening anything else), openat(O_NONBLOCK |
 * O_NOCTTY | O_CLOEXEC [| O_NOFOLLOW]), statx(descriptor) (a regular file, the same device and
 * inode as before), optionally fadvise(RANDOM), then one read of the first IMGSNIFF_RING_PREFIX
 * bytes. The caller gets the open descriptor, the length and the bytes, or the error of that read;
 * anything else (an earlier call failed, a file that is not regular or was replaced) is reported
 * for the caller to take the usual path, which makes the same calls again and words the error as
 * it always does. */
#define _GNU_SOURCE
#include "CSystemShim.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
#endif
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#endif

/* Headers from Linux 5.6 on (IO_URING_OP_SUPPORTED came with the probe, after statx, openat,
 * fadvise and read); anything older, or another system, gets the stubs at the end. */
#if defined(__linux__) && defined(IO_URING_OP_SUPPORTED) && defined(__NR_io_uring_setup)
#include <fcntl.h>
#include <linux/stat.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#define TYPE_MASK 0170000
#define TYPE_REGULAR 0100000

enum step { IDLE, STAT_PATH, OPEN, STAT_FD, ADVISE, READ };

struct slot {
    enum step step;
    int fd, dirfd, nofollow, advise;
    int blocking;  /* O_NONBLOCK taken off the descriptor */
    unsigned want;  /* bytes to read: the size stated, IMGSNIFF_RING_PREFIX at most */
    char *name;
    size_t capacity;
    struct statx before, after;
    unsigned char *buffer;
};

/* Whether reads through io_uring are trusted on a file system, by device (see fs_allowed). */
struct fs_verdict {
    unsigned major, minor;
    int allowed;
};
enum { FS_VERDICTS = 8 };

struct imgsniff_ring {
    struct fs_verdict verdicts[FS_VERDICTS];
    unsigned verdict_count, verdict_next;
    int fd;
    unsigned depth, pending, busy;
    unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
    void *sq_map, *cq_map;
    size_t sq_size, cq_size, sqes_size;
    struct slot *slots;
};

static int ring_setup(unsigned entries, struct io_uring_params *params) {
    return (int)syscall(__NR_io_uring_setup, entries, params);
}

static int ring_enter(int fd, unsigned submit, unsigned wait, unsigned flags) {
    return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, NULL, 0);
}

/* Whether the kernel knows every operation a slot needs (statx, openat, fadvise and read came in
 * Linux 5.6; a kernel that has io_uring but not these refuses them one by one). */
static int ring_has_operations(int fd) {
    size_t size = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *probe = calloc(1, size);
    if (!probe) return 0;
    int ok = syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, probe, 256) == 0;
    const int needed[] = { IORING_OP_STATX, IORING_OP_OPENAT, IORING_OP_FADVISE, IORING_OP_READ };
    for (unsigned i = 0; ok && i < sizeof needed / sizeof needed[0]; i++) {
        ok = needed[i] <= probe->last_op && (probe->ops[needed[i]].flags & IO_URING_OP_SUPPORTED);
    }
    free(probe);
    return ok;
}

void imgsniff_ring_destroy(imgsniff_ring *ring) {
    if (!ring) return;
    /* Files still in flight are waited for (closing the ring would not stop the kernel writing
     * into the slots' memory); if the ring fails meanwhile, it is left as it is. */
    imgsniff_ring_result result;
    int r;
    while (ring->slots && ring->busy > 0 && (r = imgsniff_ring_next(ring, &result)) != 0) {
        if (r < 0) return;
        if (result.fd >= 0) close(result.fd);
    }
    if (ring->fd >= 0) close(ring->fd);
    if (ring->sqes && ring->sqes != MAP_FAILED) munmap(ring->sqes, ring->sqes_size);
    if (ring->cq_map && ring->cq_map != MAP_FAILED && ring->cq_map != ring->sq_map) munmap(ring->cq_map, ring->cq_size);
    if (ring->sq_map && ring->sq_map != MAP_FAILED) munmap(ring->sq_map, ring->sq_size);
    if (ring->slots) {
        for (unsigned i = 0; i < ring->depth; i++) {
            struct slot *s = &ring->slots[i];
            if (s->step > OPEN && s->fd >= 0) close(s->fd);  /* opened, not yet handed over */
            free(s->name);
            free(s->buffer);
        }
        free(ring->slots);
    }
    free(ring);
}

imgsniff_ring *imgsniff_ring_create(unsigned depth) {
    if (depth == 0 || depth > 4096) { errno = EINVAL; return NULL; }
    imgsniff_ring *ring = calloc(1, sizeof *ring);
    if (!ring) return NULL;
    ring->fd = -1;
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    ring->fd = ring_setup(depth, &params);
    if (ring->fd < 0) goto fail;
    if (!ring_has_operations(ring->fd)) { errno = ENOSYS; goto fail; }
    ring->depth = depth;
    ring->sq_size = params.sq_off.array + params.sq_entries * sizeof(unsigned);
    ring->cq_size = params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe);
    if (params.features & IORING_FEAT_SINGLE_MMAP) {
        if (ring->cq_size > ring->sq_size) ring->sq_size = ring->cq_size;
        ring->cq_size = ring->sq_size;
    }
    ring->sq_map = mmap(NULL, ring->sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring->fd, IORING_OFF_SQ_RING);
    if (ring->sq_map == MAP_FAILED) goto fail;
    if (params.features & IORING_FEAT_SINGLE_MMAP) {
        ring->cq_map = ring->sq_map;
    } else {
        ring->cq_map = mmap(NULL, ring->cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring->fd, IORING_OFF_CQ_RING);
        if (ring->cq_map == MAP_FAILED) goto fail;
    }
    ring->sqes_size = params.sq_entries * sizeof(struct io_uring_sqe);
    ring->sqes = mmap(NULL, ring->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring->fd, IORING_OFF_SQES);
    if (ring->sqes == MAP_FAILED) goto fail;
    char *sq = ring->sq_map, *cq = ring->cq_map;
    ring->sq_head = (unsigned *)(sq + params.sq_off.head);
    ring->sq_tail = (unsigned *)(sq + params.sq_off.tail);
    ring->sq_mask = (unsigned *)(sq + params.sq_off.ring_mask);
    ring->sq_array = (unsigned *)(sq + params.sq_off.array);
    ring->cq_head = (unsigned *)(cq + params.cq_off.head);
    ring->cq_tail = (unsigned *)(cq + params.cq_off.tail);
    ring->cq_mask = (unsigned *)(cq + params.cq_off.ring_mask);
    ring->cqes = (struct io_uring_cqe *)(cq + params.cq_off.cqes);
    ring->slots = calloc(depth, sizeof *ring->slots);
    if (!ring->slots) goto fail;
    for (unsigned i = 0; i < depth; i++) {
        ring->slots[i].fd = -1;
        /* On a cache line's boundary: the kernel copies a page into it by its fast path (see
         * forReads in FileSniffer.swift). */
        ring->slots[i].buffer = aligned_alloc(64, IMGSNIFF_RING_PREFIX);
        if (!ring->slots[i].buffer) goto fail;
    }
    return ring;
fail: {
        int saved = errno;
        imgsniff_ring_destroy(ring);
        errno = saved;
        return NULL;
    }
}

/* The file systems whose reads the ring takes: local ones on the kernel's usual read path. On FUSE
 * with direct I/O a short read is retried by io_uring from the wrong offset (a file served 100
 * bytes at a time came back as its first 100 bytes over and over: a wrong answer, not an error),
 * and network file systems may behave alike; those, and any file system not named here, take the
 * usual path (pread, which reads on from where a short read ended). */
static int fs_type_allowed(unsigned long type) {
    switch (type) {
    case 0xEF53:      /* ext2, ext3, ext4 */
    case 0x58465342:  /* xfs */
    case 0x9123683E:  /* btrfs */
    case 0x01021994:  /* tmpfs */
    case 0x858458F6:  /* ramfs */
    case 0xF2F52010:  /* f2fs */
    case 0x794C7630:  /* overlayfs */
    case 0x2FC12FC1:  /* zfs */
    case 0xCA451A4E:  /* bcachefs */
    case 0x4D44:      /* vfat, msdos */
    case 0x2011BAB0:  /* exfat */
    case 0x7366746E:  /* ntfs3 */
    case 0x73717368:  /* squashfs */
    case 0x9660:      /* iso9660 */
    case 0x15013346:  /* udf */
        return 1;
    default:
        return 0;
    }
}

/* The verdict on the device, -1 when not known yet. */
static int fs_lookup(imgsniff_ring *ring, unsigned major, unsigned minor) {
    for (unsigned i = 0; i < ring->verdict_count; i++)
        if (ring->verdicts[i].major == major && ring->verdicts[i].minor == minor) return ring->verdicts[i].allowed;
    return -1;
}

/* Learns the verdict on the device of the open file `fd`. */
static int fs_learn(imgsniff_ring *ring, int fd, unsigned major, unsigned minor) {
    struct statfs info;
    int allowed = fstatfs(fd, &info) == 0 && fs_type_allowed((unsigned long)info.f_type);
    struct fs_verdict *v = &ring->verdicts[ring->verdict_next];
    v->major = major; v->minor = minor; v->allowed = allowed;
    ring->verdict_next = (ring->verdict_next + 1) % FS_VERDICTS;
    if (ring->verdict_count < FS_VERDICTS) ring->verdict_count++;
    return allowed;
}

/* Queues the slot's current step (each slot has at most one operation in flight, so the queue,
 * as deep as the ring, never fills). */
static void slot_submit(imgsniff_ring *ring, unsigned index) {
    struct slot *s = &ring->slots[index];
    unsigned tail = *ring->sq_tail;  /* only this thread writes the tail */
    unsigned at = tail & *ring->sq_mask;
    struct io_uring_sqe *sqe = &ring->sqes[at];
    memset(sqe, 0, sizeof *sqe);
    sqe->user_data = index;
    switch (s->step) {
    case STAT_PATH:
        sqe->opcode = IORING_OP_STATX;
        sqe->fd = s->dirfd;
        sqe->addr = (unsigned long)s->name;
        sqe->len = STATX_TYPE | STATX_INO | STATX_SIZE;
        sqe->off = (unsigned long)&s->before;
        /* As fstatat: an automount point is not mounted by looking at it. */
        sqe->statx_flags = AT_NO_AUTOMOUNT | (s->nofollow ? AT_SYMLINK_NOFOLLOW : 0);
        break;
    case OPEN:
        sqe->opcode = IORING_OP_OPENAT;
        sqe->fd = s->dirfd;
        sqe->addr = (unsigned long)s->name;
        sqe->open_flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (s->nofollow ? O_NOFOLLOW : 0);
        break;
    case STAT_FD:
        sqe->opcode = IORING_OP_STATX;
        sqe->fd = s->fd;
        sqe->addr = (unsigned long)"";
        sqe->len = STATX_TYPE | STATX_INO | STATX_SIZE;
        sqe->off = (unsigned long)&s->after;
        sqe->statx_flags = AT_EMPTY_PATH;
        break;
    case ADVISE:
        sqe->opcode = IORING_OP_FADVISE;
        sqe->fd = s->fd;
        sqe->fadvise_advice = POSIX_FADV_RANDOM;
        break;
    case READ:
        sqe->opcode = IORING_OP_READ;
        sqe->fd = s->fd;
        sqe->addr = (unsigned long)s->buffer;
        sqe->len = s->want;
        sqe->off = 0;
        break;
    case IDLE:
        break;
    }
    ring->sq_array[at] = at;
    __atomic_store_n(ring->sq_tail, tail + 1, __ATOMIC_RELEASE);
    ring->pending++;
}

int imgsniff_ring_start(imgsniff_ring *ring, unsigned slot, int dirfd, const char *name, int nofollow, int advise) {
    if (slot >= ring->depth || ring->slots[slot].step != IDLE) { errno = EINVAL; return -1; }
    struct slot *s = &ring->slots[slot];
    size_t length = strlen(name) + 1;
    if (length > s->capacity) {
        char *grown = realloc(s->name, length);
        if (!grown) return -1;
        s->name = grown;
        s->capacity = length;
    }
    memcpy(s->name, name, length);
    s->dirfd = dirfd;
    s->nofollow = nofollow;
    s->advise = advise;
    s->fd = -1;
    s->blocking = 0;
    s->step = STAT_PATH;
    ring->busy++;
    slot_submit(ring, slot);
    return 0;
}

/* The slot's file is done: fills `result` and frees the slot. */
static void slot_finish(imgsniff_ring *ring, unsigned index, int error, int count, imgsniff_ring_result *result) {
    struct slot *s = &ring->slots[index];
    result->slot = index;
    result->error = error;
    result->read_failed = s->step == READ && error > 0;
    result->fd = -1;
    result->length = 0;
    result->count = 0;
    result->prefix = s->buffer;
    if (error == 0) {
        result->fd = s->fd;
        result->length = (long long)s->after.stx_size;
        result->count = count;
    } else if (s->fd >= 0) {
        close(s->fd);
    }
    s->fd = -1;
    s->step = IDLE;
    ring->busy--;
}

/* Takes one completion: advances its slot, and returns 1 with `result` filled when the slot's file
 * is done, 0 when the slot goes on. */
static int ring_reap(imgsniff_ring *ring, struct io_uring_cqe *cqe, imgsniff_ring_result *result) {
    unsigned index = (unsigned)cqe->user_data;
    int res = cqe->res;
    struct slot *s = &ring->slots[index];
    switch (s->step) {
    case STAT_PATH:
        if (res < 0) { slot_finish(ring, index, -res, 0, result); return 1; }
        if ((s->before.stx_mode & TYPE_MASK) != TYPE_REGULAR ||
            fs_lookup(ring, s->before.stx_dev_major, s->before.stx_dev_minor) == 0) {
            slot_finish(ring, index, -1, 0, result);
            return 1;
        }
        s->step = OPEN;
        break;
    case OPEN:
        if (res < 0) { slot_finish(ring, index, -res, 0, result); return 1; }
        s->fd = res;
        s->step = STAT_FD;
        break;
    case STAT_FD:
        if (res < 0) { slot_finish(ring, index, -res, 0, result); return 1; }
        if ((s->after.stx_mode & TYPE_MASK) != TYPE_REGULAR || s->after.stx_ino != s->before.stx_ino ||
            s->after.stx_dev_major != s->before.stx_dev_major || s->after.stx_dev_minor != s->before.stx_dev_minor) {
            slot_finish(ring, index, -1, 0, result);
            return 1;
        }
        {
            int allowed = fs_lookup(ring, s->after.stx_dev_major, s->after.stx_dev_minor);
            if (allowed < 0) allowed = fs_learn(ring, s->fd, s->after.stx_dev_major, s->after.stx_dev_minor);
            if (!allowed) { slot_finish(ring, index, -1, 0, result); return 1; }
        }
        /* As the usual path: the first read asks for the size stated (a file of /proc states 0
         * and is not read; /proc/self/mem would fail a read), 4 KiB at most. */
        s->want = s->after.stx_size < IMGSNIFF_RING_PREFIX ? (unsigned)s->after.stx_size : IMGSNIFF_RING_PREFIX;
        if (s->want == 0) { slot_finish(ring, index, 0, 0, result); return 1; }
        s->step = s->advise ? ADVISE : READ;
        break;
    case ADVISE:
        s->step = READ;  /* advice refused is advice not taken */
        break;
    case READ:
        /* A short read is fine (the file shrank, or the file system gives less at once): the
         * caller reads on as usual. A failed read is the file's answer (read_failed): reading
         * a bad sector again the usual way would cost a second device timeout. EAGAIN is not
         * a failure: the usual path reads it. */
        if (res == -EAGAIN && !s->blocking) {
            /* Opened without blocking (a FIFO swapped in must not hang the open), and io_uring
             * does not retry such a read on a file system that cannot read without blocking
             * (FUSE, some network ones; any file system before Linux 5.12): now that the file
             * is known to be a regular one, its reads may wait. Read again. */
            int flags = fcntl(s->fd, F_GETFL);
            if (flags >= 0 && fcntl(s->fd, F_SETFL, flags & ~O_NONBLOCK) == 0) {
                s->blocking = 1;
                break;
            }
        }
        if (res == -EAGAIN) { slot_finish(ring, index, -1, 0, result); return 1; }
        slot_finish(ring, index, res < 0 ? -res : 0, res < 0 ? 0 : res, result);
        return 1;
    case IDLE:
        return 0;
    }
    slot_submit(ring, index);
    return 0;
}

int imgsniff_ring_next(imgsniff_ring *ring, imgsniff_ring_result *result) {
    for (;;) {
        unsigned head = *ring->cq_head;
        unsigned tail = __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE);
        while (head != tail) {
            struct io_uring_cqe cqe = ring->cqes[head & *ring->cq_mask];
            head++;
            __atomic_store_n(ring->cq_head, head, __ATOMIC_RELEASE);
            /* (The steps queued meanwhile go to the kernel when the queue is empty: submitting
             * them before returning each file cost more system time than it saved, measured.) */
            if (ring_reap(ring, &cqe, result)) return 1;
        }
        if (ring->busy == 0) return 0;
        /* Submit what is queued and wait for at least one completion. */
        int r = ring_enter(ring->fd, ring->pending, 1, IORING_ENTER_GETEVENTS);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EBUSY) { sched_yield(); continue; }
            return -1;
        }
        ring->pending -= (unsigned)r < ring->pending ? (unsigned)r : ring->pending;
    }
}

int imgsniff_ring_available(void) {
    imgsniff_ring *ring = imgsniff_ring_create(1);
    if (!ring) return 0;
    imgsniff_ring_destroy(ring);
    return 1;
}

#else

imgsniff_ring *imgsniff_ring_create(unsigned depth) { (void)depth; errno = ENOSYS; return NULL; }
int imgsniff_ring_start(imgsniff_ring *ring, unsigned slot, int dirfd, const char *name, int nofollow, int advise) {
    (void)ring; (void)slot; (void)dirfd; (void)name; (void)nofollow; (void)advise;
    errno = ENOSYS;
    return -1;
}
int imgsniff_ring_next(imgsniff_ring *ring, imgsniff_ring_result *result) { (void)ring; (void)result; errno = ENOSYS; return -1; }
void imgsniff_ring_destroy(imgsniff_ring *ring) { (void)ring; }
int imgsniff_ring_available(void) { return 0; }

#endif
