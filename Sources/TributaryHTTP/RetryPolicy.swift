/// When and how long to wait before trying a request again.
enum RetryPolicy {
    /// Statuses worth another attempt: the server is busy or failed, not the request.
    static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status) && status != 501
    }

    /// `base × 2^attempt`, capped, scaled by a random factor in 0.5…1 so that many clients
    /// retrying at once spread out.
    static func backoff(attempt: Int, base: Duration, cap: Duration) -> Duration {
        let exponential = base * Double(1 << min(attempt, 20))
        let capped = min(exponential, cap)
        return capped * Double.random(in: 0.5...1.0)
    }
}
