// The process groups of the programs `command` sources run, and what becomes of them when
// Tributary is stopped by a signal.
//
// A command runs in a process group of its own, so that its timeout can kill everything it
// started and Ctrl-C on the terminal does not reach it. The other side of that: when Tributary
// itself dies of SIGTERM, SIGINT or SIGHUP (cron's `timeout`, a service manager, Ctrl-C), the
// group would live on, reparented to init. These functions keep the running groups in a table a
// signal handler can read, and the handler kills them before Tributary dies of the signal as it
// would have. Written in C: a signal handler may only touch lock-free memory and call
// async-signal-safe functions.
//
// A process that left its command's group (a daemon, after `setsid`) is out of the groups' reach.
// Once Tributary is the child subreaper, such a process comes to Tributary when its parent ends,
// and the handler kills Tributary's children too (CommandLeftovers, in the command adapter, does
// so between commands).
#ifndef TRIBUTARY_PROCESS_H
#define TRIBUTARY_PROCESS_H

#include <sys/types.h>

/// From the first call on, SIGTERM, SIGINT and SIGHUP kill every group in the table before the
/// process dies of them, for each of those signals whose disposition is still the default (one
/// that is ignored, or that the program handles itself, as `run --every` does to finish its run
/// first, is left alone). Called before a command is started, so that a signal in the moment
/// between its start and `tributary_process_group_add` does not end Tributary unhandled.
void tributary_process_groups_guard(void);

/// Adds a running command's process group (guarding as above, if that was not done yet).
/// Returns 0, or -1 when the table is full (the group is then not killed on a signal).
int tributary_process_group_add(pid_t group);

/// Call before starting a command: returns 0, or -1 when Tributary is dying of a signal (start
/// nothing then). Every 0 must be followed by `tributary_process_start_end`.
int tributary_process_start_begin(void);

/// Call once the command started (`group` is its process group) or failed to (`group` 0): adds
/// the group, and if a signal came meanwhile, kills every group and dies of it once no other
/// command is being started. Closes the gap between a command's start and its registration.
void tributary_process_start_end(pid_t group);

/// Removes a process group once its leader was reaped.
void tributary_process_group_remove(pid_t group);

/// Makes Tributary the child subreaper (Linux's `PR_SET_CHILD_SUBREAPER`): a descendant whose
/// parent ends is then handed to Tributary instead of init. From then on, a signal handled above
/// also kills Tributary's children, and theirs as they come to it, before Tributary dies (waiting
/// at most a second for them to end). The children Tributary has at this call are noted first:
/// they are not a command's, and `tributary_process_children` leaves them out. Returns 0, or -1
/// with errno set (E2BIG when there are more than 64 such children: then it does not become one).
int tributary_process_become_subreaper(void);

/// Call before reaping a command that ended: while Tributary is dying of a signal, this never
/// returns. The handler takes a moment to kill and reap what is left (the commands it killed end
/// first); meanwhile the run must not go on as if they had failed, and end the process normally.
void tributary_process_hold_if_dying(void);

/// Stores the pids of Tributary's children that a command can have left (the processes whose
/// parent it is, zombies included, read from /proc/PID/stat; not those it had before it became
/// the subreaper, nor those in its own process group), as many as fit in `pids`; returns how many
/// there are (more than `capacity` when they did not all fit), or -1 when /proc cannot be read.
/// Async-signal-safe.
int tributary_process_children(pid_t *pids, int capacity);

/// Reaps those of Tributary's children that `tributary_process_children` leaves out (inherited,
/// or in its own process group) and that have ended, without waiting for the others: as the
/// subreaper, or as a container's PID 1, Tributary is their parent, and no one else reaps them.
/// Returns how many it reaped. Not for a signal handler.
int tributary_process_reap_others(void);

#endif
