import CLinux
import TributaryCore

/// How the process uses glibc's allocator.
enum ProcessMemory {
    /// For a process that runs one command and exits. A run allocates and frees many buffers of
    /// a few hundred KB to a few MB (fetched bodies, parsed documents, output pieces); glibc
    /// serves those from fresh mmap'd pages by default and hands the memory back at once, so
    /// every document paid for zeroed pages and page faults again. Served from the heap, with
    /// some free memory kept at its top, the same pages are reused: on the end-to-end benchmark
    /// a sixth fewer page faults and a fifth less system time, for a few MB more at the peak.
    static func tuneForOneCommand() {
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        mallopt(M_TRIM_THRESHOLD, 64 << 20)
        mallopt(M_TOP_PAD, 16 << 20)
        ThreadArena.enable(bytes: 16 << 20)
        ThreadArena.reserveForThisThread()
    }

    /// Gives the free memory back to the system, for a process about to wait (`run --every`
    /// between runs), so that it does not hold a run's peak while it sleeps.
    static func returnFreeMemory() {
        malloc_trim(0)
    }
}
