public import Foundation
public import TributaryModel

/// The listing `stdout` outputs print for a person: one entry per item with its title, source,
/// age and link.
public struct TextListing: Sendable {
    /// The moment ages are counted from.
    public var now: Date

    /// Creates a listing relative to `now`.
    public init(now: Date) { self.now = now }

    /// The whole listing, one blank-line-free block per item, ending with a newline.
    public func render(_ items: [Item]) -> String {
        guard !items.isEmpty else { return "(no items)\n" }
        let width = String(items.count).count
        var output = ""
        for (index, item) in items.enumerated() {
            let number = String(index + 1)
            let title =
                item.title.flatMap { $0.isEmpty ? nil : $0 } ?? item.summary.flatMap { $0.isEmpty ? nil : String($0.prefix(80)) }
                ?? "(untitled)"
            output += String(repeating: " ", count: width - number.count) + number + ". " + oneLine(title) + "\n"
            var details = [item.source, age(of: item.date)]
            if let url = item.url, !url.isEmpty { details.append(url) }
            if !item.duplicates.isEmpty { details.append("+\(item.duplicates.count) similar") }
            output += String(repeating: " ", count: width + 2) + details.joined(separator: " · ") + "\n"
        }
        return output
    }

    /// `just now`, `5 min ago`, `3 h ago`, `2 days ago`, or the date for anything older than four weeks.
    public func age(of date: Date?) -> String {
        guard let date else { return "undated" }
        let seconds = now.timeIntervalSince(date)
        if seconds < -60 { return "in the future (\(RFC3339Text.day(date)))" }
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<86_400: return "\(Int(seconds / 3600)) h ago"
        case ..<172_800: return "1 day ago"
        case ..<(28 * 86_400): return "\(Int(seconds / 86_400)) days ago"
        default: return RFC3339Text.day(date)
        }
    }

    private func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ")
    }
}

/// Calendar days in UTC for listings.
enum RFC3339Text {
    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 1970
        let month = parts.month ?? 1
        let day = parts.day ?? 1
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
