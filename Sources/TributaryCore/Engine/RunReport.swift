public import Foundation
public import TributaryModel
public import TributaryState

/// What happened to one source during a run.
public struct SourceReport: Sendable {
    /// The source's configured name.
    public var name: String
    /// The adapter kind.
    public var adapter: String
    /// How the source fared: fetched, unchanged (304), failed but served from the state, failed.
    public var status: SourceStatus = .ok
    /// How many items it produced (before the pipeline).
    public var itemCount: Int
    /// How many of them no earlier run had seen; nil without a state.
    public var newItemCount: Int?
    /// The HTTP status of its first request, when it made one.
    public var httpStatus: Int?
    /// The bytes of every response body it received.
    public var bytes: Int = 0
    /// Problems it recovered from.
    public var problems: [Problem]
    /// Why it failed, when it did.
    public var failure: String?
    /// How long it took.
    public var duration: Duration
    /// Whether it was left unfetched this run: not due (its `interval`), or waiting while it fails (``wait``).
    public var deferred = false
    /// When it is next fetched, when not at the next run: its interval, or, while it fails, a backoff or the server's
    /// `Retry-After`.
    public var wait: FetchSchedule.Wait?

    /// Creates a report; the engine does this.
    public init(
        name: String, adapter: String, itemCount: Int = 0, problems: [Problem] = [], failure: String? = nil, duration: Duration = .zero
    ) {
        self.name = name
        self.adapter = adapter
        self.itemCount = itemCount
        self.problems = problems
        self.failure = failure
        self.duration = duration
    }

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
    /// Whether it was left as it was because nothing it holds changed.
    public var unchanged = false
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
    /// Why the state could not be read or written, when it could not.
    public var stateFailure: String?
    /// The river's size when it was found unchanged and not rebuilt (`items` is then empty).
    public var unchangedRiverCount: Int?

    /// How many items the river holds.
    public var riverCount: Int { unchangedRiverCount ?? items.count }

    /// How many of the river's items no earlier run had seen, when a state told; nil without
    /// one. A new item merged into another as its duplicate is not counted again.
    public var riverNewItemCount: Int?

    /// How many items the sources gave that no earlier run had seen (the sum of the sources'
    /// counts), when a state told; nil without one.
    public var newItemCount: Int? {
        let counts = sources.compactMap(\.newItemCount)
        return counts.isEmpty ? nil : counts.reduce(0, +)
    }

    /// The exit status the run deserves.
    public var status: ExitStatus {
        if stateFailure != nil { return .stateUnusable }
        let failedSources = sources.filter { !$0.succeeded }.count
        let failedOutputs = outputs.filter { $0.failure != nil }.count
        if !sources.isEmpty, failedSources == sources.count { return .nothingProduced }
        if !outputs.isEmpty, failedOutputs == outputs.count { return .nothingProduced }
        if failedSources > 0 || failedOutputs > 0 { return .partialFailure }
        return .success
    }
}
