import Foundation

/// Validates Atom documents against RFC 4287's RELAX NG schema with `jing` (Debian package
/// `jing`, which `make test` installs).
public enum AtomSchema {
    /// What jing said.
    public struct Verdict: Sendable {
        /// Whether the document is valid.
        public var isValid: Bool
        /// jing's messages, without its harmless classpath warnings.
        public var messages: String
    }

    /// Why validation could not run.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The schema file bundled with the tests.
    public static var schemaPath: String {
        get throws {
            guard let url = Bundle.module.url(forResource: "Resources/atom", withExtension: "rnc") else {
                throw Unavailable(description: "atom.rnc is missing from the TestSupport resources")
            }
            return url.path
        }
    }

    /// Validates the file at `path`; throws when jing is not installed (run `make test`, which installs it).
    public static func validate(file path: String) async throws -> Verdict {
        let jing = "/usr/bin/jing"
        guard FileManager.default.isExecutableFile(atPath: jing) else {
            throw Unavailable(description: "jing is not installed; run 'make test', which installs it (Debian package 'jing')")
        }
        let result = try await ChildProcess([jing, "-c", try schemaPath, path], directory: "/").run(timeLimit: .seconds(120))
        let messages = (result.standardOutput + result.standardError).split(separator: "\n")
            .filter { !$0.contains("[warning]") }.joined(separator: "\n")
        return Verdict(isValid: result.status == 0 && !result.timedOut, messages: messages)
    }

    /// Validates a document given as text.
    public static func validate(document: String) async throws -> Verdict {
        let folder = try TemporaryDirectory(prefix: "atom-validate")
        let path = try folder.write(document, to: "feed.atom")
        return try await validate(file: path)
    }
}
