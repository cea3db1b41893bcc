import Foundation

/// Reads playing times: `hh:mm:ss`, `mm:ss`, plain seconds, and seconds with a fraction.
enum MediaDuration {
    /// Whole seconds, or nil when the text is not a duration.
    static func seconds(from text: String) -> Int? {
        let trimmed = FeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3 else { return nil }
        var total = 0.0
        for part in parts {
            guard let value = Double(part), value >= 0, value.isFinite else { return nil }
            total = total * 60 + value
        }
        guard total < Double(Int32.max) else { return nil }
        return Int(total.rounded())
    }
}
