public import Foundation
public import TributaryModel
import TributaryState
import TributarySyndication

/// The river as one self-contained HTML page: inline CSS, no scripts, no outside resources but
/// the items' own thumbnails. A header gives the title, the update time, the feeds to subscribe
/// to and the health of every source in the run; the items follow grouped by day (in the
/// configured time zone, newest day first, river order within a day), each with its title link,
/// source, time, thumbnail, summary and the duplicates merged into it.
///
/// The markup is polyglot HTML5 — well-formed XML as well as HTML — so both of libxml2's parsers
/// read it. The page is responsive, follows the reader's light or dark preference
/// (`prefers-color-scheme`) and marks Chinese, Japanese and Korean items with `lang` so the
/// CJK font stacks apply.
public struct HTMLRiver: Sendable {
    /// A feed version of the river, linked from the page.
    public struct AlternateFeed: Sendable, Hashable {
        /// Its title.
        public var title: String
        /// Its public URL.
        public var url: String
        /// Its media type (`application/atom+xml`, …).
        public var type: String
        /// A short label (`atom`, `rss`, `jsonfeed`).
        public var kind: String

        /// Creates a link to a feed.
        public init(title: String, url: String, type: String, kind: String) {
            self.title = title
            self.url = url
            self.type = type
            self.kind = kind
        }
    }

    /// The page title.
    public var title: String
    /// The page's public URL (`link rel="canonical"`).
    public var selfURL: String?
    /// The site the river belongs to; the title links to it.
    public var homePageURL: String?
    /// The feed versions of the river.
    public var feeds: [AlternateFeed]
    /// How each source fared in the run.
    public var sources: [SourceReport]
    /// The zone days and times are shown in.
    public var timeZone: TimeZone
    /// When the run started: the page's update time.
    public var now: Date

    /// Whether each item shows its full content (sanitized again for the page) instead of its
    /// summary; items without content show the summary either way.
    public var showsContent = false

    /// The longest summary shown, in characters.
    static let summaryLimit = 280

    /// Creates a page.
    public init(
        title: String, selfURL: String? = nil, homePageURL: String? = nil, feeds: [AlternateFeed] = [], sources: [SourceReport] = [],
        timeZone: TimeZone = .gmt, now: Date
    ) {
        self.title = title
        self.selfURL = selfURL
        self.homePageURL = homePageURL
        self.feeds = feeds
        self.sources = sources
        self.timeZone = timeZone
        self.now = now
    }

    /// The whole page.
    public func render(_ items: [Item]) -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        html += "<meta name=\"color-scheme\" content=\"light dark\"/>\n"
        html += "<meta name=\"generator\" content=\"Tributary \(Self.escape(Tributary.version))\"/>\n"
        html += "<title>\(Self.escape(title))</title>\n"
        if let safe = selfURL.flatMap(WebLink.page) {
            html += "<link rel=\"canonical\" href=\"\(Self.escape(safe))\"/>\n"
        }
        for feed in feeds {
            guard let url = WebLink.page(feed.url) else { continue }
            html +=
                "<link rel=\"alternate\" type=\"\(Self.escape(feed.type))\" title=\"\(Self.escape(feed.title))\" href=\"\(Self.escape(url))\"/>\n"
        }
        html += "<style>\n" + Self.styleSheet + "</style>\n</head>\n<body>\n"
        header(itemCount: items.count, into: &html)
        html += "<main>\n"
        if items.isEmpty { html += "<p class=\"empty\">No items in this run.</p>\n" }
        for day in days(items) {
            section(day, into: &html)
        }
        html += "</main>\n<footer><p>Made by Tributary \(Self.escape(Tributary.version)).</p></footer>\n</body>\n</html>\n"
        return html
    }

    // MARK: Header

    private func header(itemCount: Int, into html: inout String) {
        html += "<header class=\"masthead\">\n<h1>"
        if let home = homePageURL.flatMap(WebLink.page) {
            html += "<a href=\"\(Self.escape(home))\">\(Self.escape(title))</a>"
        } else {
            html += Self.escape(title)
        }
        html +=
            "</h1>\n<p class=\"updated\">Updated <time datetime=\"\(RFC3339.string(from: now))\">\(Self.escape(dateTimeText(now)))</time>"
        html += " · \(itemCount) item\(itemCount == 1 ? "" : "s")</p>\n"
        let linked = feeds.compactMap { feed in WebLink.page(feed.url).map { (feed, $0) } }
        if !linked.isEmpty {
            html += "<p class=\"feeds\">Subscribe:"
            for (feed, url) in linked {
                html += " <a href=\"\(Self.escape(url))\" type=\"\(Self.escape(feed.type))\">\(Self.escape(feed.kind))</a>"
            }
            html += "</p>\n"
        }
        if !sources.isEmpty {
            let failed = sources.filter { !$0.succeeded }
            let summary =
                failed.isEmpty
                ? "All \(sources.count) source\(sources.count == 1 ? "" : "s") ok"
                : "\(failed.count) of \(sources.count) source\(sources.count == 1 ? "" : "s") failed"
            html += "<details class=\"health\"\(failed.isEmpty ? "" : " open=\"open\"")>\n"
            html += "<summary class=\"\(failed.isEmpty ? "ok" : "failed")\">\(Self.escape(summary))</summary>\n<ul>\n"
            for source in sources {
                let (label, kind) = Self.health(source)
                html += "<li class=\"source \(kind)\"><span class=\"name\">\(Self.escape(source.name))</span> "
                html += "<span class=\"status\">\(label)</span>"
                if let failure = source.failure {
                    html += " <span class=\"reason\">\(Self.escape(failure))</span>"
                }
                if source.succeeded || source.status == .stale {
                    html += " <span class=\"count\">\(source.itemCount) item\(source.itemCount == 1 ? "" : "s")</span>"
                }
                if !source.problems.isEmpty {
                    let count = source.problems.count
                    let first = source.problems[0].description
                    html += " <span class=\"warnings\" title=\"\(Self.escape(first))\">\(count) warning\(count == 1 ? "" : "s")</span>"
                }
                html += "</li>\n"
            }
            html += "</ul>\n</details>\n"
        }
        html += "</header>\n"
    }

    /// What the page calls a source's outcome, and the class that colours it.
    static func health(_ source: SourceReport) -> (label: String, kind: String) {
        switch source.status {
        case .stale: ("stale", "stale")
        case .failed: ("failed", "failed")
        case .notModified where source.succeeded: ("unchanged", "ok")
        case .ok where source.succeeded, .deferred where source.succeeded: ("ok", "ok")
        case .ok, .notModified, .deferred: ("failed", "failed")
        }
    }

    // MARK: Days and items

    /// A day's items, or the undated ones (`day == nil`).
    struct Day {
        var day: DateComponents?
        var items: [Item]
    }

    /// The items grouped by calendar day in `timeZone` (proleptic Gregorian, as the items' RFC 3339
    /// times are written: `CivilCalendar`), newest day first, river order within a day; undated
    /// items last.
    func days(_ items: [Item]) -> [Day] {
        var groups: [DateComponents: [Item]] = [:]
        var undated: [Item] = []
        for item in items {
            guard let date = item.date else {
                undated.append(item)
                continue
            }
            groups[Self.day(of: date, in: timeZone), default: []].append(item)
        }
        var result = groups.sorted { Self.sortKey($0.key) > Self.sortKey($1.key) }.map { Day(day: $0.key, items: $0.value) }
        if !undated.isEmpty { result.append(Day(day: nil, items: undated)) }
        return result
    }

    private static func sortKey(_ day: DateComponents) -> Int {
        (day.year ?? 0) * 10_000 + (day.month ?? 0) * 100 + (day.day ?? 0)
    }

    private func section(_ day: Day, into html: inout String) {
        if let parts = day.day {
            let iso = Self.isoDay(parts)
            html += "<section class=\"day\" aria-labelledby=\"day-\(iso)\">\n"
            html += "<h2 id=\"day-\(iso)\"><time datetime=\"\(iso)\">\(Self.escape(Self.dayTitle(parts)))</time></h2>\n"
        } else {
            html += "<section class=\"day undated\" aria-labelledby=\"day-undated\">\n<h2 id=\"day-undated\">Undated</h2>\n"
        }
        for item in day.items {
            article(item, into: &html)
        }
        html += "</section>\n"
    }

    private func article(_ item: Item, into html: inout String) {
        let summary = summaryText(item)
        let title = item.title.flatMap { $0.isEmpty ? nil : $0 } ?? String(summary.prefix(80)).trimmingCharacters(in: .whitespaces)
        let language = Self.language(of: title + " " + summary)
        // `dir="auto"`: an Arabic or Hebrew item reads right to left, its punctuation on the right side.
        html += "<article class=\"item\" dir=\"auto\"\(language.map { " lang=\"\($0)\"" } ?? "")>\n"
        let link = item.url.flatMap(WebLink.page)
        if let image = item.image.flatMap(WebLink.page) {
            html += "<a class=\"thumb\" href=\"\(Self.escape(link ?? image))\" tabindex=\"-1\" aria-hidden=\"true\">"
            html += "<img src=\"\(Self.escape(image))\" alt=\"\" loading=\"lazy\" decoding=\"async\" width=\"96\" height=\"96\"/></a>\n"
        }
        html += "<div class=\"body\">\n<h3>"
        let shown = title.isEmpty ? "(untitled)" : title
        if let link {
            html += "<a href=\"\(Self.escape(link))\">\(Self.escape(shown))</a>"
        } else {
            html += Self.escape(shown)
        }
        html += "</h3>\n<p class=\"meta\"><span class=\"source\">\(Self.escape(item.source))</span>"
        if let date = item.date {
            html += " · <time datetime=\"\(RFC3339.string(from: date))\">\(Self.escape(timeText(date)))</time>"
        }
        let names = item.authors.compactMap { $0.name.flatMap { $0.isEmpty ? nil : $0 } }
        if !names.isEmpty { html += " · <span class=\"author\">\(Self.escape(names.joined(separator: ", ")))</span>" }
        if let external = item.externalURL.flatMap(WebLink.page) {
            html += " · <a class=\"external\" href=\"\(Self.escape(external))\">→ \(Self.escape(Self.host(of: external)))</a>"
        }
        html += "</p>\n"
        if showsContent, let content = item.contentHTML.map(Self.pageContent), !content.isEmpty {
            html += "<div class=\"content\">\(content)</div>\n"
        } else if !summary.isEmpty {
            html += "<p class=\"summary\">\(Self.escape(summary))</p>\n"
        }
        if !item.duplicates.isEmpty {
            html += "<ul class=\"duplicates\">\n"
            for duplicate in item.duplicates {
                let text = duplicate.title.flatMap { $0.isEmpty ? nil : $0 } ?? duplicate.url ?? duplicate.source
                html += "<li>Also: "
                if let url = duplicate.url.flatMap(WebLink.page) {
                    html += "<a href=\"\(Self.escape(url))\">\(Self.escape(text))</a>"
                } else {
                    html += Self.escape(text)
                }
                html += " <span class=\"source\">\(Self.escape(duplicate.source))</span></li>\n"
            }
            html += "</ul>\n"
        }
        html += "</div>\n</article>\n"
    }

    /// The host of a web link as written (`例子.测试`, where `URL` would give its punycode), without a user or port.
    static func host(of link: String) -> String {
        guard var host = WebLink.authority(of: link) else { return link }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if !host.hasPrefix("["), let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        return host.isEmpty ? link : String(host)
    }

    /// Content HTML as the page embeds it: sanitized again (whatever adapter made it, nothing
    /// but the allow-list reaches the page), with void elements closed as XML wants them
    /// (`<br/>`), so the page stays polyglot markup.
    static func pageContent(_ html: String) -> String {
        HTMLSanitizer(closesVoidElements: true).sanitize(html)
    }

    /// The summary, else the start of the content's text, cut to `summaryLimit` characters.
    private func summaryText(_ item: Item) -> String {
        var text = item.summary ?? ""
        if text.isEmpty, let html = item.contentHTML, !html.isEmpty {
            text = HTMLSanitizer.plainText(fromHTML: html, limit: Self.summaryLimit + 1)
        }
        text = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return text.count > Self.summaryLimit ? String(text.prefix(Self.summaryLimit)) + "…" : text
    }

    // MARK: Text

    private func calendar() -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// `14:03`.
    private func timeText(_ date: Date) -> String {
        let parts = calendar().dateComponents([.hour, .minute], from: date)
        return Self.pad(parts.hour ?? 0) + ":" + Self.pad(parts.minute ?? 0)
    }

    /// `2024-05-01 14:03 UTC` (or the zone's name).
    private func dateTimeText(_ date: Date) -> String {
        let parts = Self.day(of: date, in: timeZone)
        let zone = ["GMT", "UTC"].contains(timeZone.identifier) ? "UTC" : timeZone.identifier
        return Self.isoDay(parts) + " " + timeText(date) + " " + zone
    }

    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// `Wednesday, 1 May 2024`.
    static func dayTitle(_ parts: DateComponents) -> String {
        let weekday = parts.weekday.map { weekdays[($0 - 1) % 7] + ", " } ?? ""
        return weekday + "\(parts.day ?? 1) " + months[max(0, min(11, (parts.month ?? 1) - 1))] + " \(parts.year ?? 1970)"
    }

    /// `2024-05-01`.
    static func isoDay(_ parts: DateComponents) -> String {
        let year = parts.year ?? 1970
        return pad(year / 100) + pad(year % 100) + "-" + pad(parts.month ?? 1) + "-" + pad(parts.day ?? 1)
    }

    /// The calendar day `date` falls on in `zone` (`CivilCalendar.day`), with its weekday.
    static func day(of date: Date, in zone: TimeZone) -> DateComponents {
        let day = CivilCalendar.day(of: date, in: zone)
        return DateComponents(year: day.year, month: day.month, day: day.day, weekday: day.weekday)
    }

    private static func pad(_ number: Int) -> String {
        number < 10 ? "0" + String(number) : String(number)
    }

    /// `ja` when the text has kana, `ko` for hangul, `zh` for Han characters alone; nil otherwise.
    static func language(of text: String) -> String? {
        var han = false
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF: return "ja"
            case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: return "ko"
            case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2FA1F: han = true
            default: continue
            }
        }
        return han ? "zh" : nil
    }

    /// Text escaped for element content and double-quoted attributes alike.
    static func escape(_ text: String) -> String {
        XMLEscaping.attribute(text)
    }

    /// The page's whole style sheet: system fonts with CJK stacks, light and dark colors,
    /// a single column that narrows on phones. No `<` or `&`, so it is also valid XML text.
    static let styleSheet = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1f1f23; --muted: #5f6068; --line: #e2e2e6; --accent: #0b57d0;
          --ok: #1e7d32; --bad: #b3261e; --chip: #f1f1f4;
          --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC",
            "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #141416; --fg: #e6e6ea; --muted: #a2a3ab; --line: #2d2d33; --accent: #8ab4f8;
            --ok: #81c995; --bad: #f2b8b5; --chip: #24242a; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0 auto; max-width: 46rem; padding: 1rem 1rem 3rem; background: var(--bg); color: var(--fg);
          font-family: var(--sans); font-size: 1rem; line-height: 1.6; overflow-wrap: anywhere; }
        :lang(zh) { font-family: system-ui, -apple-system, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei",
          "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif; line-height: 1.75; }
        :lang(ja) { font-family: system-ui, -apple-system, "Hiragino Kaku Gothic ProN", "Hiragino Sans", "Yu Gothic", Meiryo,
          "Noto Sans CJK JP", "Source Han Sans JP", sans-serif; line-height: 1.75; }
        :lang(ko) { font-family: system-ui, -apple-system, "Apple SD Gothic Neo", "Malgun Gothic", "Noto Sans CJK KR",
          "Source Han Sans KR", sans-serif; line-height: 1.75; word-break: keep-all; }
        a { color: var(--accent); text-decoration: none; }
        a:hover, a:focus { text-decoration: underline; }
        .masthead { border-bottom: 1px solid var(--line); padding-bottom: .75rem; margin-bottom: 1rem; }
        h1 { font-size: 1.6rem; line-height: 1.25; margin: .5rem 0; }
        h1 a { color: inherit; }
        .updated, .feeds, .meta, .duplicates, .health, footer { color: var(--muted); font-size: .875rem; }
        .updated, .feeds { margin: .25rem 0; }
        .health summary { cursor: pointer; }
        .health summary.failed, .source.failed .status { color: var(--bad); font-weight: 600; }
        .health summary.ok, .source.ok .status { color: var(--ok); }
        .source.stale .status { color: var(--bad); }
        .health ul { list-style: none; padding: 0; margin: .5rem 0; }
        .health li { padding: .125rem 0; }
        .health .name { font-weight: 600; color: var(--fg); }
        h2 { position: sticky; top: 0; background: var(--bg); font-size: 1rem; margin: 1.5rem 0 .25rem;
          padding: .375rem 0; border-bottom: 1px solid var(--line); z-index: 1; }
        .item { display: flex; gap: .875rem; padding: .75rem 0; border-bottom: 1px solid var(--line); }
        .item .body { flex: 1; min-width: 0; }
        .thumb { flex: none; order: 2; }
        .thumb img { display: block; width: 96px; height: 96px; object-fit: cover; border-radius: 6px; background: var(--chip); }
        h3 { font-size: 1.0625rem; line-height: 1.4; margin: 0 0 .125rem; }
        .meta { margin: 0 0 .25rem; }
        .meta .source { background: var(--chip); border-radius: 4px; padding: 0 .375rem; }
        .summary { margin: 0; }
        .content { overflow-wrap: anywhere; }
        .content > :first-child { margin-top: 0; }
        .content > :last-child { margin-bottom: 0; }
        .content img, .content video { max-width: 100%; height: auto; }
        .content pre { overflow-x: auto; }
        .duplicates { list-style: none; padding: 0; margin: .25rem 0 0; }
        .duplicates .source { font-style: italic; }
        .empty { color: var(--muted); }
        footer { margin-top: 2rem; }
        @media (max-width: 30rem) {
          body { padding: .75rem .75rem 2rem; }
          h1 { font-size: 1.35rem; }
          .thumb img { width: 72px; height: 72px; }
        }

        """
}
