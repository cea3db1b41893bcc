/// Where a feed request starts: the newest items, or items recommended before a `behot_time`.
enum ToutiaoCursor: Hashable, Sendable {
    /// The first request: `min_behot_time` = now, as the app's pull-to-refresh sends.
    case latest
    /// A later request: `max_behot_time` = the smallest `behot_time` received so far (Unix seconds).
    case olderThan(Int)
}
