import CLinux
import Glibc
import Synchronization

/// Makes glibc grow a thread's malloc arena in one step instead of page by page.
///
/// Every thread but the main one allocates from an arena of its own, and glibc extends such an arena by exactly what
/// an allocation lacks: one `mprotect(2)` per 4 KB page, each taking the process's memory-map lock for writing, so a
/// thread mapping libraries (libcurl's load) or another thread growing its arena waits meanwhile. An end-to-end run
/// without a state made some 4,000 of these calls. Allocating a large block once and freeing it leaves that stretch
/// of the arena writable: glibc keeps the free top of a thread's arena as it is below the trim threshold (which a
/// one-command process raises, see `ProcessMemory` in the command line). The pages are not touched, so this costs
/// address space, not memory.
public enum ThreadArena {
    /// What each thread reserves; zero, the default, reserves nothing.
    private static let reservation = Atomic<Int>(0)
    /// Set (to a non-null marker) for a thread that has made its reservation.
    private static let reserved: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    /// From now on, each thread that calls ``reserveForThisThread()`` reserves `bytes` (below the mmap threshold, or
    /// glibc serves the block from a mapping of its own and the arena does not grow); zero turns reserving off.
    public static func enable(bytes: Int) {
        reservation.store(bytes, ordering: .relaxed)
    }

    /// Makes the calling thread's reservation, the first time it calls this while reserving is on; afterwards a check
    /// of a thread-specific value. Returns whether it reserved now.
    @discardableResult
    public static func reserveForThisThread() -> Bool {
        let bytes = reservation.load(ordering: .relaxed)
        guard bytes > 0, pthread_getspecific(reserved) == nil else { return false }
        _ = pthread_setspecific(reserved, UnsafeRawPointer(bitPattern: 1))
        let block = malloc(bytes)
        // Reading the block's size keeps the compiler from removing an allocation it would otherwise see unused.
        if let block { _ = malloc_usable_size(block) }
        free(block)
        return true
    }
}
