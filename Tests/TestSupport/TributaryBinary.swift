import Foundation

/// The `tributary` executable that `swift build` put beside the test bundle.
public enum TributaryBinary {
    /// Its path; tests that run the real binary start from here.
    public static let path: String = {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["TRIBUTARY_BINARY"] { candidates.append(explicit) }
        let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        candidates.append(runner.appendingPathComponent("tributary").path)
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("tributary").path)
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tributary").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    /// Runs `tributary` with `arguments` in `directory`.
    public static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], timeLimit: Duration = .seconds(120)
    ) async throws -> ChildProcess.Result {
        var env = ["PATH": "/usr/bin:/bin", "HOME": directory, "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        return try await ChildProcess([path] + arguments, directory: directory, environment: env).run(timeLimit: timeLimit)
    }
}
