import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel
import TributaryState
import TributarySyndication

/// The end-of-run report: a per-source table for people, and JSON for monitoring (`--report`).
enum RunReportTable {
    /// One line per source: status, items, new items, HTTP status, duration, error.
    ///
    /// ```
    /// source       status        items  new  http    time  error
    /// hn           ok               30    2   200  0.21 s
    /// lwn          not-modified     25    0   304  0.05 s
    /// ```
    static func render(_ report: RunReport) -> String {
        var rows = [["source", "status", "items", "new", "http", "time", "error"]]
        for source in report.sources {
            rows.append([
                source.name, source.status.rawValue, String(source.itemCount), source.newItemCount.map(String.init) ?? "-",
                source.httpStatus.map(String.init) ?? "-", source.duration.secondsText, note(source, now: report.started),
            ])
        }
        return TextTable.render(rows, rightAligned: [2, 3, 4, 5])
    }

    /// The error column: why the source failed, and when it is fetched next when that is not at the next run.
    ///
    /// `HTTP 503 Service Unavailable (not fetched now; next in 1h: Retry-After)`, `next in 45m (interval 1h)`.
    static func note(_ source: SourceReport, now: Date) -> String {
        var parts: [String] = []
        if let failure = source.failure { parts.append(firstLine(failure)) }
        if let wait = source.wait {
            let next = "next in \(inText(wait.until.timeIntervalSince(now))): \(wait.reason)"
            parts.append(source.deferred && source.failure != nil ? "(not fetched now; \(next))" : parts.isEmpty ? next : "(\(next))")
        }
        return parts.joined(separator: " ")
    }

    /// A wait to the nearest minute, at least one: `1h5m`, `45m`.
    /// Whole minutes, or whole seconds under a minute (a `Retry-After: 1` is `1s`, not `1m`).
    private static func inText(_ seconds: TimeInterval) -> String {
        guard seconds >= 59.5 else { return DurationParser.format(.seconds(max(1, seconds.rounded()))) }
        return DurationParser.format(.seconds((seconds / 60).rounded() * 60))
    }

    /// The report as JSON: when, how long, the exit status, each source and each output.
    static func json(_ report: RunReport, configuration: String) -> [UInt8] {
        var root = JSONObject()
        root["configuration"] = .string(configuration)
        root["started"] = .string(RFC3339.string(from: report.started))
        root["duration_seconds"] = seconds(report.duration.inSeconds)
        root["exit_status"] = .number(JSONNumber(Int(report.status.rawValue)))
        root["items"] = .number(JSONNumber(report.riverCount))
        root["river_unchanged"] = .bool(report.unchangedRiverCount != nil)
        root["new_items"] = (report.riverNewItemCount ?? report.newItemCount).map { .number(JSONNumber($0)) } ?? .null
        root["state_error"] = report.stateFailure.map(JSONValue.string) ?? .null
        root["error"] = .null
        root["sources"] = .array(
            report.sources.map { source in
                var entry = JSONObject()
                entry["name"] = .string(source.name)
                entry["adapter"] = .string(source.adapter)
                entry["status"] = .string(source.status.rawValue)
                entry["items"] = .number(JSONNumber(source.itemCount))
                entry["new_items"] = source.newItemCount.map { .number(JSONNumber($0)) } ?? .null
                entry["http_status"] = source.httpStatus.map { .number(JSONNumber($0)) } ?? .null
                entry["bytes"] = .number(JSONNumber(source.bytes))
                entry["duration_seconds"] = seconds(source.duration.inSeconds)
                entry["error"] = source.failure.map(JSONValue.string) ?? .null
                entry["fetched"] = .bool(!source.deferred)
                entry["next_attempt"] = source.wait.map { .string(RFC3339.string(from: $0.until)) } ?? .null
                entry["waiting_for"] = source.wait.map { .string($0.reason) } ?? .null
                entry["problems"] = .array(source.problems.map { .string($0.description) })
                return .object(entry)
            })
        root["outputs"] = .array(
            report.outputs.map { output in
                var entry = JSONObject()
                entry["type"] = .string(output.kind.rawValue)
                entry["path"] = output.path.map(JSONValue.string) ?? .null
                entry["items"] = .number(JSONNumber(output.itemCount))
                entry["error"] = output.failure.map(JSONValue.string) ?? .null
                entry["unchanged"] = .bool(output.unchanged)
                return .object(entry)
            })
        return JSONWriter.bytes(from: .object(root), style: .pretty) + [0x0A]
    }

    /// The report of a run that stopped before fetching (a configuration error, the lock held, the state unusable):
    /// the keys of a full report, with no source or output, and `error` saying why.
    static func json(
        stoppedWith status: ExitStatus, errors: [String], configuration: String, started: Date, duration: Duration
    ) -> [UInt8] {
        var root = JSONObject()
        root["configuration"] = .string(configuration)
        root["started"] = .string(RFC3339.string(from: started))
        root["duration_seconds"] = seconds(duration.inSeconds)
        root["exit_status"] = .number(JSONNumber(Int(status.rawValue)))
        root["items"] = .null
        root["river_unchanged"] = .bool(false)
        root["new_items"] = .null
        root["state_error"] = status == .stateUnusable ? .string(errors.joined(separator: "\n")) : .null
        root["error"] = .string(errors.joined(separator: "\n"))
        root["sources"] = .array([])
        root["outputs"] = .array([])
        return JSONWriter.bytes(from: .object(root), style: .pretty) + [0x0A]
    }

    /// Seconds as JSON, to the millisecond.
    static func seconds(_ value: Double) -> JSONValue {
        JSONNumber((value * 1000).rounded() / 1000).map(JSONValue.number) ?? .null
    }

    private static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" })
    }
}
