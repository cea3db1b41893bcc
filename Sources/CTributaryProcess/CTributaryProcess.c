// For getdents64 and struct dirent64.
#define _GNU_SOURCE
#include "CTributaryProcess.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <stdatomic.h>
#include <string.h>

// More than `jobs` allows (256): every command source could be running at once.
#define GROUP_SLOTS 512

static _Atomic pid_t groups[GROUP_SLOTS];
static atomic_flag installed = ATOMIC_FLAG_INIT;
// Commands being started: between `posix_spawn` and their registration a group is in no table.
static atomic_int starting = 0;
// A signal that arrived while commands were being started, to die of once they are registered.
static atomic_int pending = 0;
// Whether Tributary is the child subreaper, so that what commands left behind are its children.
static atomic_bool subreaper = false;
// Set once Tributary is dying of a signal: see `tributary_process_hold_if_dying`.
static atomic_bool dying = false;

// How many children Tributary may have had before it became the subreaper (its parent's, when a
// shell started them and then `exec`ed Tributary: `sidecar & exec tributary run --every 15m`).
#define INHERITED_SLOTS 64
// Those children: not Tributary's to kill. Written once, before `subreaper` is set.
static pid_t inherited[INHERITED_SLOTS];
static int inherited_count = 0;

// Which of Tributary's children `children` lists.
enum which_children {
    ALL_CHILDREN,
    // Those a command can have left: neither inherited nor in Tributary's own process group (each
    // command runs in a group of its own, and what it starts stays in that group or makes one of
    // its own).
    COMMANDS_CHILDREN,
    // The others.
    OTHER_CHILDREN,
};

static int children(pid_t *pids, int capacity, enum which_children which);

// How many children one round of `kill_children` takes; more are left to the next round.
#define CHILD_BATCH 256

static long milliseconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

// Kills Tributary's children (the commands and what they left behind) round after round, since
// the children of each come to Tributary as it dies; waits at most a second in all for them to end.
static void kill_children(void) {
    if (!atomic_load(&subreaper)) return;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pids[CHILD_BATCH];
    while (milliseconds_since(&start) < 1000) {
        int count = tributary_process_children(pids, CHILD_BATCH);
        if (count <= 0) return;
        if (count > CHILD_BATCH) count = CHILD_BATCH;
        for (int index = 0; index < count; index++) kill(pids[index], SIGKILL);
        for (int index = 0; index < count; index++) {
            // 0 while it runs; its pid once reaped, -1 when another thread reaped it first.
            while (waitpid(pids[index], NULL, WNOHANG) == 0) {
                if (milliseconds_since(&start) >= 1000) return;
                struct timespec millisecond = {0, 1000000};
                nanosleep(&millisecond, NULL);
            }
        }
    }
}

static void kill_groups_and_die(int number) {
    atomic_store(&dying, true);
    for (int index = 0; index < GROUP_SLOTS; index++) {
        pid_t group = atomic_load(&groups[index]);
        if (group > 0) kill(-group, SIGKILL);
    }
    kill_children();
    // Die of the signal as the default disposition would: the signal is blocked while this
    // handler runs, so it is delivered, with the default action, once the handler returns.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    raise(number);
}

// The handler. A signal that comes while a command is being started waits for its registration;
// whichever of the two comes second sees the other (both sides write, then read, sequentially
// consistent atomics), so no command is started unseen and none is left running.
static void on_signal(int number) {
    atomic_store(&pending, number);
    if (atomic_load(&starting) > 0) return;
    kill_groups_and_die(number);
}

static void install_handlers(void) {
    const int numbers[] = {SIGTERM, SIGINT, SIGHUP};
    for (unsigned index = 0; index < sizeof numbers / sizeof numbers[0]; index++) {
        struct sigaction current;
        if (sigaction(numbers[index], NULL, &current) != 0) continue;
        if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL) continue;
        struct sigaction handler;
        memset(&handler, 0, sizeof handler);
        handler.sa_handler = on_signal;
        sigfillset(&handler.sa_mask);
        sigaction(numbers[index], &handler, NULL);
    }
}

void tributary_process_groups_guard(void) {
    if (!atomic_flag_test_and_set(&installed)) install_handlers();
}

int tributary_process_group_add(pid_t group) {
    tributary_process_groups_guard();
    for (int index = 0; index < GROUP_SLOTS; index++) {
        pid_t empty = 0;
        if (atomic_compare_exchange_strong(&groups[index], &empty, group)) return 0;
    }
    return -1;
}

void tributary_process_group_remove(pid_t group) {
    for (int index = 0; index < GROUP_SLOTS; index++) {
        pid_t expected = group;
        if (atomic_compare_exchange_strong(&groups[index], &expected, 0)) return;
    }
}

int tributary_process_start_begin(void) {
    tributary_process_groups_guard();
    atomic_fetch_add(&starting, 1);
    if (atomic_load(&pending) == 0) return 0;
    tributary_process_start_end(0);
    return -1;
}

void tributary_process_start_end(pid_t group) {
    if (group > 0) tributary_process_group_add(group);
    if (atomic_fetch_sub(&starting, 1) == 1) {
        int number = atomic_load(&pending);
        if (number == 0) return;
        // Outside the handler, in a thread that may block the signal (a runtime's worker): unblock
        // it, so that `raise` delivers it here and now.
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, number);
        pthread_sigmask(SIG_UNBLOCK, &only, NULL);
        kill_groups_and_die(number);
        _exit(128 + number);
    }
}

void tributary_process_hold_if_dying(void) {
    if (!atomic_load(&dying)) return;
    for (;;) pause();
}

int tributary_process_become_subreaper(void) {
    if (atomic_load(&subreaper)) return 0;
    int count = children(inherited, INHERITED_SLOTS, ALL_CHILDREN);
    if (count < 0) return -1;
    if (count > INHERITED_SLOTS) {
        errno = E2BIG;
        return -1;
    }
    inherited_count = count;
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return -1;
    atomic_store(&subreaper, true);
    return 0;
}

// The parent and the process group of the process named `name` (its pid, in decimal) from
// `/proc/PID/stat`, read through `proc`, an open /proc; -1 when it cannot be read. The line is
// `PID (NAME) STATE PPID PGRP …`: the name may hold spaces and parentheses, so it ends at the last
// `)` (no later field has one).
static int parent_and_group_of(int proc, const char *name, pid_t *parent, pid_t *group) {
    char path[32];
    size_t length = strnlen(name, 16);
    if (length > 15) return -1;
    memcpy(path, name, length);
    memcpy(path + length, "/stat", sizeof "/stat");
    int file = openat(proc, path, O_RDONLY | O_CLOEXEC);
    if (file < 0) return -1;
    char text[512];
    ssize_t size = read(file, text, sizeof text);
    close(file);
    if (size <= 0) return -1;
    ssize_t end = size - 1;
    while (end >= 0 && text[end] != ')') end--;
    // `) S ` and at least one digit.
    if (end < 0 || end + 4 >= size) return -1;
    ssize_t index = end + 4;
    *parent = 0;
    for (; index < size && text[index] >= '0' && text[index] <= '9'; index++) *parent = *parent * 10 + (text[index] - '0');
    *group = 0;
    if (index < size && text[index] == ' ') index++;
    for (; index < size && text[index] >= '0' && text[index] <= '9'; index++) *group = *group * 10 + (text[index] - '0');
    return 0;
}

static bool is_inherited(pid_t pid) {
    for (int index = 0; index < inherited_count; index++) {
        if (inherited[index] == pid) return true;
    }
    return false;
}

// Stores the pids of this process's children of the kind `which`, as `tributary_process_children`
// does.
static int children(pid_t *pids, int capacity, enum which_children which) {
    int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return -1;
    pid_t self = getpid();
    pid_t own_group = getpgrp();
    int count = 0;
    // getdents64 rather than readdir, which allocates: this runs in the signal handler too.
    _Alignas(struct dirent64) char entries[4096];
    ssize_t size;
    while ((size = getdents64(proc, entries, sizeof entries)) > 0) {
        for (ssize_t offset = 0; offset < size;) {
            const struct dirent64 *entry = (const struct dirent64 *)(entries + offset);
            offset += entry->d_reclen;
            // A process's folder; the others (self, sys, …) do not start with a digit from 1.
            if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
            pid_t parent, group;
            if (parent_and_group_of(proc, entry->d_name, &parent, &group) != 0 || parent != self) continue;
            pid_t pid = 0;
            for (const char *digit = entry->d_name; *digit >= '0' && *digit <= '9'; digit++) pid = pid * 10 + (*digit - '0');
            bool other = group == own_group || is_inherited(pid);
            if ((which == COMMANDS_CHILDREN && other) || (which == OTHER_CHILDREN && !other)) continue;
            if (count < capacity) pids[count] = pid;
            count++;
        }
    }
    close(proc);
    return size < 0 ? -1 : count;
}

int tributary_process_children(pid_t *pids, int capacity) {
    return children(pids, capacity, COMMANDS_CHILDREN);
}

int tributary_process_reap_others(void) {
    pid_t others[CHILD_BATCH];
    int count = children(others, CHILD_BATCH, OTHER_CHILDREN);
    if (count > CHILD_BATCH) count = CHILD_BATCH;
    int reaped = 0;
    for (int index = 0; index < count; index++) {
        if (waitpid(others[index], NULL, WNOHANG) == others[index]) reaped++;
    }
    return reaped;
}
