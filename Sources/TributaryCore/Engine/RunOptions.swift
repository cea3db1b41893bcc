/// Choices for one run that the command line makes, not the configuration.
public struct RunOptions: Sendable {
    /// How many sources are fetched at once; nil for the configuration's `jobs`.
    public var jobs: Int?
    /// Only these sources run (by name); nil for all enabled sources.
    public var onlySources: [String]?
    /// Overrides the format of `stdout` outputs, and adds one when the configuration has none.
    public var standardOutputFormat: OutputConfig.Format?
    /// Skips writing files (`--dry-run`): sources are read and the river built, nothing written
    /// (the state included).
    public var dryRun: Bool
    /// Fetches every source, even one whose `interval` has not passed or that waits while it fails (`--force`).
    public var force = false
    /// Called as sources finish and bytes arrive, for a progress line.
    public var progress: (@Sendable (RunProgress) -> Void)?

    /// Runs everything as configured.
    public init(jobs: Int? = nil, onlySources: [String]? = nil, standardOutputFormat: OutputConfig.Format? = nil, dryRun: Bool = false) {
        self.jobs = jobs
        self.onlySources = onlySources
        self.standardOutputFormat = standardOutputFormat
        self.dryRun = dryRun
    }
}

/// How far a run's fetching has got.
public struct RunProgress: Sendable, Hashable {
    /// Sources finished, failed ones included.
    public var done = 0
    /// Sources in the run.
    public var total = 0
    /// Response bytes received so far.
    public var bytes = 0
    /// Sources that failed so far.
    public var failed = 0
}
