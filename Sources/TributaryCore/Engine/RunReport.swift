public import Foundation
public import TributaryModel

/// What happened to one source during a run.
public struct SourceReport: Sendable {
    /// The source's configured name.
    public var name: String
    /// The adapter kind.
    public var adapter: String
    /// How many items it produced (before the pipeline).
    public var itemCount: Int
    /// Problems it recovered from.
    public var problems: [Problem]
    /// Why it failed, when it did.
    public var failure: String?
    /// How long it took.
    public var duration: Duration

    /// Whether the source produced its items.
    public var succeeded: Bool { failure == nil }
}

/// What happened to one output during a run.
public struct OutputReport: Sendable {
    /// The output's kind.
    public var kind: OutputConfig.Kind
    /// The file written, as the configuration names it; nil for standard output.
    public var path: String?
    /// How many items it holds.
    public var itemCount: Int
    /// Why it could not be written, when it could not.
    public var failure: String?
}

/// The outcome of `Engine.run`: per-source and per-output reports, the river, and the exit status.
public struct RunReport: Sendable {
    /// One report per source that ran, in configuration order.
    public var sources: [SourceReport]
    /// One report per output, in configuration order.
    public var outputs: [OutputReport]
    /// The final river, ranked.
    public var items: [Item]
    /// Items the rules dropped, and why.
    public var dropped: [Pipeline.Drop]
    /// What the `stdout` outputs rendered; the CLI prints it.
    public var standardOutput: String
    /// When the run started.
    public var started: Date
    /// How long it took.
    public var duration: Duration

    /// The exit status the run deserves.
    public var status: ExitStatus {
        let failedSources = sources.filter { !$0.succeeded }.count
        let failedOutputs = outputs.filter { $0.failure != nil }.count
        if !sources.isEmpty, failedSources == sources.count { return .nothingProduced }
        if !outputs.isEmpty, failedOutputs == outputs.count { return .nothingProduced }
        if failedSources > 0 || failedOutputs > 0 { return .partialFailure }
        return .success
    }
}
