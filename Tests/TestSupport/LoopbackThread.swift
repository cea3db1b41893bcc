import Glibc

/// A joinable POSIX thread running a closure.
enum LoopbackThread {
    /// Boxes the closure so it can travel through `pthread_create`'s context pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`; returns its handle (to pass to ``join(_:)``), or nil if the
    /// system refused to create one.
    static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { raw in
                if let raw {
                    Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                }
                return nil
            },
            context
        )
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Waits for `thread` to finish. Joining the calling thread itself would deadlock, so that thread is
    /// detached instead (it then finishes on its own).
    static func join(_ thread: pthread_t) {
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }
}
