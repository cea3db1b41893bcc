// glibc calls that Swift's Glibc module does not import.

// malloc tuning (mallopt, malloc_trim).
#include <malloc.h>

// sync_file_range(2), which glibc declares only under _GNU_SOURCE.
#include <sys/types.h>
int sync_file_range(int fd, __off64_t offset, __off64_t nbytes, unsigned int flags);
#ifndef SYNC_FILE_RANGE_WRITE
#define SYNC_FILE_RANGE_WRITE 2
#endif

// A hint to bring the memory at `address` into the cache ahead of its use (it never faults).
static inline void tributary_prefetch(const void *address) { __builtin_prefetch(address); }
