// floor: the least work any content sniffer must do per file, to compare `imgsniff scan` with.
//
//   floor [--threads N] [--checked] [--misalign B] DIR...
//   floor --inflight N [--fadvise] [--checked] DIR...
//   floor --uring DEPTH [--submitters S] [--fadvise] [--checked] DIR...   (built with -DFLOOR_URING -luring)
//
// Walks DIR recursively with opendir/readdir (d_type, no stat; DT_UNKNOWN falls back to
// fstatat), and for each regular file: openat(dirfd, name) + pread 4 KiB + close. Nothing else:
// no sorting, no output per file, no detection. Prints one line:
//   files=N bytes=B seconds=S files_per_sec=R threads=T checksum=X
// With --threads N > 1 the directories found are shared among N pthreads through an atomic
// index into a list built by a first, directory-only pass (the listing of file names is part of
// each worker's timed work). Hidden names are skipped, as `imgsniff scan` does.
// --checked adds the two calls `imgsniff scan` makes per file for safety (issue 15): fstatat
// (AT_SYMLINK_NOFOLLOW) just before openat, refusing anything but a regular file, and fstat of
// the open descriptor, which must be that same file, before the read.
//
// --misalign B puts every read buffer B bytes past a page boundary (default 0): the kernel copies a
// page into a buffer by its fast path only when the buffer is on a 64-byte boundary too, so
// --misalign 16 (malloc's alignment) shows what a sniffer that reads into plain malloc'd storage
// pays.
//
// Concurrent floors (issue 28), for a tree that is not in the page cache, where what counts is how
// many reads wait on the device at once:
// --inflight N: the calling thread walks (readdir) and queues every regular file; N threads take
//   files one at a time from the queue, so up to N opens/reads are in flight whatever the shape of
//   the tree. --fadvise adds posix_fadvise(POSIX_FADV_RANDOM) on the open descriptor before the
//   read, so the kernel reads the 4 KiB asked for instead of reading ahead through a small file.
// --uring DEPTH: the same queue, drained by S submitter threads (default 2), each with its own
//   io_uring keeping DEPTH/S files in flight; every step is an io_uring operation (statx, openat,
//   statx of the descriptor, fadvise, read, close), so even opens of cold inodes overlap. Only in
//   the build of Benchmarks/table.sh (liburing); when io_uring_queue_init fails (io_uring disabled
//   by the kernel or a container's seccomp profile) it says so and exits 3.

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PREFIX 4096

typedef struct {
    uint64_t files, bytes, checksum;
} Counts;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int is_dir(int dfd, struct dirent *e) {
    if (e->d_type == DT_DIR) return 1;
    if (e->d_type != DT_UNKNOWN) return 0;
    struct stat st;
    return fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

static int is_reg(int dfd, struct dirent *e) {
    if (e->d_type == DT_REG) return 1;
    if (e->d_type != DT_UNKNOWN) return 0;
    struct stat st;
    return fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
}

static int checked = 0;
static int fadvise_random = 0;
static int misalign = 0;

// The buffer a file's first bytes are read into: on a page boundary, or --misalign bytes past one.
static unsigned char *buffer_new(void) { return (unsigned char *)aligned_alloc(4096, PREFIX + 4096) + misalign; }
static void buffer_free(unsigned char *b) { free(b - misalign); }

static void sniff(int dfd, const char *name, unsigned char *buf, Counts *c) {
    struct stat before, after;
    if (checked && (fstatat(dfd, name, &before, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(before.st_mode))) return;
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (checked ? O_NOFOLLOW : 0));
    if (fd < 0) return;
    if (checked && (fstat(fd, &after) != 0 || after.st_ino != before.st_ino || after.st_dev != before.st_dev)) {
        close(fd);
        return;
    }
    if (fadvise_random) posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    ssize_t n = pread(fd, buf, PREFIX, 0);
    close(fd);
    if (n > 0) {
        c->files++;
        c->bytes += (uint64_t)n;
        c->checksum += buf[0] + buf[n - 1];  // touch the bytes
    }
}

// Files of one directory only (no recursion): for the threaded mode.
static void scan_files(const char *path, unsigned char *buf, Counts *c) {
    DIR *d = opendir(path);
    if (!d) return;
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (is_reg(dfd, e)) sniff(dfd, e->d_name, buf, c);
    }
    closedir(d);
}

// Recursive walk, one thread.
static void walk(int parent, const char *name, unsigned char *buf, Counts *c) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    DIR *d = fdopendir(fd);
    if (!d) { close(fd); return; }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (is_dir(fd, e)) walk(fd, e->d_name, buf, c);
        else if (is_reg(fd, e)) sniff(fd, e->d_name, buf, c);
    }
    closedir(d);
}

// Threaded mode: the list of directories, then workers taking them by an atomic index.
typedef struct {
    char **items;
    size_t count, cap;
} List;

static void push(List *l, const char *s) {
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->items = realloc(l->items, l->cap * sizeof(char *));
    }
    l->items[l->count++] = strdup(s);
}

static void list_dirs(const char *path, List *l) {
    push(l, path);
    DIR *d = opendir(path);
    if (!d) return;
    int dfd = dirfd(d);
    struct dirent *e;
    char sub[4096];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (is_dir(dfd, e)) {
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            list_dirs(sub, l);
        }
    }
    closedir(d);
}

static List dirs;
static atomic_size_t next_dir;

static void *worker(void *arg) {
    Counts *c = arg;
    unsigned char *buf = buffer_new();
    for (;;) {
        size_t i = atomic_fetch_add(&next_dir, 1);
        if (i >= dirs.count) break;
        scan_files(dirs.items[i], buf, c);
    }
    buffer_free(buf);
    return NULL;
}


// --- The file queue of the concurrent floors: the walker fills it, workers drain it. ---------

typedef struct {
    int fd;
    atomic_int refs;  // queued files of the directory, plus one while the walker lists it
} Dir;

typedef struct {
    Dir *dir;
    char *name;
} Item;

#define QUEUE_CAP 8192
static Item queue_items[QUEUE_CAP];
static size_t queue_head, queue_count;
static int queue_done;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_nonempty = PTHREAD_COND_INITIALIZER, queue_nonfull = PTHREAD_COND_INITIALIZER;

static void dir_release(Dir *d) {
    if (atomic_fetch_sub(&d->refs, 1) == 1) {
        close(d->fd);
        free(d);
    }
}

static void queue_push(Dir *d, const char *name) {
    atomic_fetch_add(&d->refs, 1);
    Item it = {d, strdup(name)};
    pthread_mutex_lock(&queue_lock);
    while (queue_count == QUEUE_CAP) pthread_cond_wait(&queue_nonfull, &queue_lock);
    queue_items[(queue_head + queue_count++) % QUEUE_CAP] = it;
    pthread_cond_signal(&queue_nonempty);
    pthread_mutex_unlock(&queue_lock);
}

// Up to `max` items; blocks while the queue is empty and the walk goes on (unless `wait` is 0).
// Returns 0 at the end of the walk (or when nothing is there and `wait` is 0).
static size_t queue_pop(Item *out, size_t max, int wait) {
    pthread_mutex_lock(&queue_lock);
    while (queue_count == 0 && !queue_done && wait) pthread_cond_wait(&queue_nonempty, &queue_lock);
    size_t n = 0;
    while (n < max && queue_count > 0) {
        out[n++] = queue_items[queue_head];
        queue_head = (queue_head + 1) % QUEUE_CAP;
        queue_count--;
    }
    if (n) pthread_cond_broadcast(&queue_nonfull);
    pthread_mutex_unlock(&queue_lock);
    return n;
}

static void queue_finish(void) {
    pthread_mutex_lock(&queue_lock);
    queue_done = 1;
    pthread_cond_broadcast(&queue_nonempty);
    pthread_mutex_unlock(&queue_lock);
}

// The walk of the concurrent floors: recursive, queues regular files.
static void walk_queue(int parent, const char *name) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    int listing = dup(fd);
    DIR *dir = fdopendir(listing);
    if (!dir) { close(listing); close(fd); return; }
    Dir *d = malloc(sizeof *d);
    d->fd = fd;
    atomic_init(&d->refs, 1);
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (is_dir(fd, e)) walk_queue(fd, e->d_name);
        else if (is_reg(fd, e)) queue_push(d, e->d_name);
    }
    closedir(dir);
    dir_release(d);
}

static void *inflight_worker(void *arg) {
    Counts *c = arg;
    unsigned char *buf = buffer_new();
    Item it;
    while (queue_pop(&it, 1, 1) == 1) {
        sniff(it.dir->fd, it.name, buf, c);
        free(it.name);
        dir_release(it.dir);
    }
    buffer_free(buf);
    return NULL;
}

#ifdef FLOOR_URING
#include <liburing.h>

// One file in flight on a ring, and the step it is at.
enum Step { STAT_PATH, OPEN, STAT_FD, ADVISE, READ, CLOSE };

typedef struct {
    Item item;
    enum Step step;
    int fd;
    struct statx before, after;
    unsigned char *buf;
} Slot;

static int uring_depth = 128, submitters = 2;
static atomic_int uring_failed;

static void slot_submit(struct io_uring *ring, Slot *s) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    switch (s->step) {
    case STAT_PATH:
        io_uring_prep_statx(sqe, s->item.dir->fd, s->item.name, AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_INO, &s->before);
        break;
    case OPEN:
        io_uring_prep_openat(sqe, s->item.dir->fd, s->item.name,
                             O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (checked ? O_NOFOLLOW : 0), 0);
        break;
    case STAT_FD:
        io_uring_prep_statx(sqe, s->fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO, &s->after);
        break;
    case ADVISE:
        io_uring_prep_fadvise(sqe, s->fd, 0, 0, POSIX_FADV_RANDOM);
        break;
    case READ:
        io_uring_prep_read(sqe, s->fd, s->buf, PREFIX, 0);
        break;
    case CLOSE:
        io_uring_prep_close(sqe, s->fd);
        break;
    }
    io_uring_sqe_set_data(sqe, s);
}

// The slot's file is done: release it and start the next one, if any. Returns 0 when idle.
static int slot_start(struct io_uring *ring, Slot *s, int wait) {
    if (queue_pop(&s->item, 1, wait) != 1) { s->item.dir = NULL; return 0; }
    s->step = checked ? STAT_PATH : OPEN;
    slot_submit(ring, s);
    return 1;
}

static void slot_finish_item(Slot *s) {
    free(s->item.name);
    dir_release(s->item.dir);
    s->item.dir = NULL;
}

static void *uring_submitter(void *arg) {
    Counts *c = arg;
    int depth = uring_depth / submitters < 1 ? 1 : uring_depth / submitters;
    struct io_uring ring;
    int rc = io_uring_queue_init(depth, &ring, 0);
    if (rc < 0) {
        fprintf(stderr, "floor: io_uring_queue_init failed: %s (io_uring disabled by the kernel or a sandbox?)\n", strerror(-rc));
        atomic_store(&uring_failed, 1);
        return NULL;
    }
    Slot *slots = calloc(depth, sizeof *slots);
    int live = 0;
    for (int i = 0; i < depth; i++) {
        slots[i].buf = buffer_new();
        // Block for the first file only: the walk may not have queued the rest yet.
        live += slot_start(&ring, &slots[i], i == 0);
    }
    while (live > 0) {
        io_uring_submit_and_wait(&ring, 1);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(&ring, head, cqe) {
            seen++;
            Slot *s = io_uring_cqe_get_data(cqe);
            int res = cqe->res;
            int done = 0;
            switch (s->step) {
            case STAT_PATH:
                if (res < 0 || !S_ISREG(s->before.stx_mode)) done = 1; else s->step = OPEN;
                break;
            case OPEN:
                if (res < 0) { done = 1; break; }
                s->fd = res;
                s->step = checked ? STAT_FD : fadvise_random ? ADVISE : READ;
                break;
            case STAT_FD:
                if (res < 0 || !S_ISREG(s->after.stx_mode) || s->after.stx_ino != s->before.stx_ino ||
                    s->after.stx_dev_major != s->before.stx_dev_major || s->after.stx_dev_minor != s->before.stx_dev_minor) s->step = CLOSE;
                else s->step = fadvise_random ? ADVISE : READ;
                break;
            case ADVISE:
                s->step = READ;
                break;
            case READ:
                if (res > 0) {
                    c->files++;
                    c->bytes += (uint64_t)res;
                    c->checksum += s->buf[0] + s->buf[res - 1];
                }
                s->step = CLOSE;
                break;
            case CLOSE:
                done = 1;
                break;
            }
            if (done) {
                slot_finish_item(s);
                // Keep the ring full; wait for the walk only when nothing else is in flight.
                if (!slot_start(&ring, s, live == 1)) live--;
            } else {
                slot_submit(&ring, s);
            }
        }
        io_uring_cq_advance(&ring, seen);
        if (live < depth) {  // refill idle slots from what the walk queued meanwhile
            for (int i = 0; i < depth; i++)
                if (slots[i].item.dir == NULL) live += slot_start(&ring, &slots[i], live == 0);
        }
        if (live == 0) {  // all idle: the walk may still be going
            for (int i = 0; i < depth && live == 0; i++) live += slot_start(&ring, &slots[i], 1);
        }
    }
    io_uring_queue_exit(&ring);
    for (int i = 0; i < depth; i++) buffer_free(slots[i].buf);
    free(slots);
    return NULL;
}
#endif

int main(int argc, char **argv) {
    int threads = 1, first = 1, inflight = 0, uring = 0, subs = 2;
    for (; first < argc; first++) {
        if (strcmp(argv[first], "--threads") == 0 && first + 1 < argc) threads = atoi(argv[++first]);
        else if (strcmp(argv[first], "--inflight") == 0 && first + 1 < argc) inflight = atoi(argv[++first]);
        else if (strcmp(argv[first], "--uring") == 0 && first + 1 < argc) uring = atoi(argv[++first]);
        else if (strcmp(argv[first], "--submitters") == 0 && first + 1 < argc) subs = atoi(argv[++first]);
        else if (strcmp(argv[first], "--checked") == 0) checked = 1;
        else if (strcmp(argv[first], "--fadvise") == 0) fadvise_random = 1;
        else if (strcmp(argv[first], "--misalign") == 0 && first + 1 < argc) misalign = atoi(argv[++first]);
        else break;
    }
    if (first >= argc || threads < 1 || subs < 1 || inflight < 0 || uring < 0 || (inflight && uring) ||
        misalign < 0 || misalign > 4095) {
        fprintf(stderr, "usage: floor [--threads N | --inflight N | --uring DEPTH [--submitters S]] [--fadvise] [--checked] [--misalign B] DIR...\n");
        return 64;
    }
    Counts total = {0};
    double t0 = now();
    if (inflight > 0 || uring > 0) {
#ifndef FLOOR_URING
        if (uring > 0) {
            fprintf(stderr, "floor: built without io_uring (Benchmarks/table.sh builds it with -DFLOOR_URING -luring)\n");
            return 3;
        }
#else
        if (uring > 0) {
            // Probe first: a kernel or sandbox that refuses io_uring fails here, before the walk.
            struct io_uring probe;
            int rc = io_uring_queue_init(8, &probe, 0);
            if (rc < 0) {
                fprintf(stderr, "floor: io_uring unavailable: io_uring_queue_init: %s (disabled by the kernel, "
                        "kernel.io_uring_disabled, or a container's seccomp profile)\n", strerror(-rc));
                return 3;
            }
            io_uring_queue_exit(&probe);
            submitters = threads = subs;
            uring_depth = uring;
        }
#endif
        int n = inflight > 0 ? inflight : threads;
        pthread_t tid[n];
        Counts counts[n];
        memset(counts, 0, sizeof counts);
        for (int t = 0; t < n; t++)
#ifdef FLOOR_URING
            pthread_create(&tid[t], NULL, uring > 0 ? uring_submitter : inflight_worker, &counts[t]);
#else
            pthread_create(&tid[t], NULL, inflight_worker, &counts[t]);
#endif
        for (int i = first; i < argc; i++) walk_queue(AT_FDCWD, argv[i]);
        queue_finish();
        for (int t = 0; t < n; t++) {
            pthread_join(tid[t], NULL);
            total.files += counts[t].files;
            total.bytes += counts[t].bytes;
            total.checksum += counts[t].checksum;
        }
#ifdef FLOOR_URING
        if (atomic_load(&uring_failed)) return 3;
#endif
        threads = n;
    } else if (threads == 1) {
        unsigned char *buf = buffer_new();
        for (int i = first; i < argc; i++) walk(AT_FDCWD, argv[i], buf, &total);
        buffer_free(buf);
    } else {
        for (int i = first; i < argc; i++) list_dirs(argv[i], &dirs);
        pthread_t tid[threads];
        Counts counts[threads];
        memset(counts, 0, sizeof counts);
        for (int t = 0; t < threads; t++) pthread_create(&tid[t], NULL, worker, &counts[t]);
        for (int t = 0; t < threads; t++) {
            pthread_join(tid[t], NULL);
            total.files += counts[t].files;
            total.bytes += counts[t].bytes;
            total.checksum += counts[t].checksum;
        }
    }
    double s = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("files=%llu bytes=%llu seconds=%.6f files_per_sec=%.0f threads=%d maxrss_kib=%ld checksum=%llu\n",
           (unsigned long long)total.files, (unsigned long long)total.bytes, s, total.files / s, threads,
           ru.ru_maxrss, (unsigned long long)total.checksum);
    return 0;
}
