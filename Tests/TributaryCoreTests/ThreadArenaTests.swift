import Foundation
import Testing

@testable import TributaryCore

@Suite("Thread arena reservation", .serialized)
struct ThreadArenaTests {
    /// Runs `body` on a thread of its own and returns what it returned.
    private func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test("each thread reserves once while reserving is on, and not at all while it is off")
    func oncePerThread() async {
        ThreadArena.enable(bytes: 0)
        let whileOff = await onNewThread { [ThreadArena.reserveForThisThread(), ThreadArena.reserveForThisThread()] }
        #expect(whileOff == [false, false])

        ThreadArena.enable(bytes: 1 << 20)
        defer { ThreadArena.enable(bytes: 0) }
        let first = await onNewThread { [ThreadArena.reserveForThisThread(), ThreadArena.reserveForThisThread()] }
        #expect(first == [true, false])
        // Another thread makes its own reservation.
        let second = await onNewThread { ThreadArena.reserveForThisThread() }
        #expect(second)
    }
}
