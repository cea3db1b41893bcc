import Foundation
import TributaryCore

/// The zone Kanzhihu's zone-less answer times (`2016-02-20 21:27:11`) are read in.
///
/// They are Beijing time, so the default is Asia/Shanghai. The common `timezone` key (the
/// source's own, or `defaults:`) overrides it. The engine hands every source a zone, GMT when
/// neither sets one, and an adapter cannot add an option named `timezone` (the common key owns
/// it), so the context's zone counts as "not set" exactly when it is GMT itself. Foundation
/// names `UTC` GMT too, so `timezone: UTC` reads as not set; `Etc/UTC` and every other zone are
/// honoured.
enum KanzhihuTimeZone {
    /// China Standard Time, UTC+8 all year.
    static let beijing = TimeZone(identifier: "Asia/Shanghai") ?? TimeZone(secondsFromGMT: 8 * 3600) ?? .gmt

    /// The zone for answer times in this fetch.
    static func answers(in context: FetchContext) -> TimeZone {
        context.timeZone.identifier == TimeZone.gmt.identifier ? beijing : context.timeZone
    }
}
