import Foundation
import TestSupport
import Testing
import TributaryCore
import TributaryModel

/// The fixed moment tests count from: 2025-06-01T12:00:00Z.
let fixedNow = Date(timeIntervalSince1970: 1_748_779_200)

/// `fixedNow` moved by `seconds` (negative for the past).
func at(_ seconds: TimeInterval) -> Date {
    fixedNow.addingTimeInterval(seconds)
}

/// The folder the configuration tests pretend their file lives in.
let configDirectory = URL(fileURLWithPath: "/srv/river", isDirectory: true)

/// The environment `${VAR}` reads in the configuration tests.
let testEnvironment = ["TOKEN": "s3cret", "EMPTY": "", "FEED_COUNT": "4"]

/// A loader that knows only the static adapter and reads `testEnvironment`.
func makeLoader(environment: [String: String] = testEnvironment) -> ConfigLoader {
    ConfigLoader(registry: AdapterRegistry([StaticAdapter.self]), environment: environment)
}

/// The text of a file in `Fixtures/`.
func fixture(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return try String(contentsOf: url, encoding: .utf8)
}

/// Loads configuration text that must be valid.
func load(_ text: String, file: String = "feeds.yaml", directory: URL = configDirectory) throws -> Configuration {
    try makeLoader().load(text: text, file: file, directory: directory)
}

/// Loads configuration text that must be invalid and returns the rendered errors.
func loadErrors(_ text: String, file: String = "feeds.yaml") -> String? {
    do {
        _ = try makeLoader().load(text: text, file: file, directory: configDirectory)
        return nil
    } catch {
        return error.description
    }
}

/// A source entry built by hand, for pipeline tests.
func source(_ name: String, weight: Double = 1, tags: [String] = [], maxItems: Int? = nil) -> SourceConfig {
    SourceConfig(
        name: name, adapter: StaticAdapter(count: 0, prefix: name), maxItems: maxItems, weight: weight, tags: tags,
        options: AdapterOptions(file: "feeds.yaml", sourceName: name, values: [:]))
}

/// Everything a `SourceConfig` holds, as one comparable value.
struct SourceSummary: Equatable, CustomStringConvertible {
    var name: String
    var adapterKind: String
    var enabled = true
    var maxItems: Int?
    var timeout: Duration
    var weight: Double = 1
    var tags: [String] = []
    var timeZone: String?
    var line: Int
    var adapter: StaticAdapter?
    /// Every declared option's value (written or default).
    var options: [String: OptionValue]
    /// The options the source wrote itself.
    var written: Set<String>

    var description: String {
        "\(name) (\(adapterKind), line \(line), enabled \(enabled), max \(String(describing: maxItems)), \(timeout), weight \(weight), "
            + "tags \(tags), zone \(String(describing: timeZone)), \(String(describing: adapter)), \(options), written \(written.sorted()))"
    }
}

extension SourceConfig {
    var summary: SourceSummary {
        var values: [String: OptionValue] = [:]
        for option in StaticAdapter.options {
            if let value = options[option.name] { values[option.name] = value }
        }
        return SourceSummary(
            name: name, adapterKind: adapterKind, enabled: enabled, maxItems: maxItems, timeout: timeout, weight: weight, tags: tags,
            timeZone: timeZone, line: line, adapter: adapter as? StaticAdapter, options: values,
            written: Set(StaticAdapter.options.map(\.name).filter { options.isSet($0) }))
    }
}
