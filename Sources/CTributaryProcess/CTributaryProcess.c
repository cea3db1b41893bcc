#include "CTributaryProcess.h"

#include <pthread.h>
#include <signal.h>
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

static void kill_groups_and_die(int number) {
    for (int index = 0; index < GROUP_SLOTS; index++) {
        pid_t group = atomic_load(&groups[index]);
        if (group > 0) kill(-group, SIGKILL);
    }
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
