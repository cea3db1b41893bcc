import Testing
import TributaryCLI

// MARK: - Fixtures

private let runCommand = CommandSpec(
    name: "run",
    abstract: "Fetch all feeds and print new items.",
    options: [
        OptionSpec(long: "config", short: "c", valueName: "FILE", help: "Configuration file", defaultValue: "feeds.yaml"),
        OptionSpec(long: "quiet", short: "q", help: "Print nothing"),
        OptionSpec(long: "verbose", short: "v", help: "Print more"),
        OptionSpec(long: "feed", short: "f", valueName: "URL", help: "Extra feed", repeatable: true),
        OptionSpec(long: "limit", short: "n", valueName: "N", help: "Maximum items"),
        OptionSpec(long: "title", valueName: "TEXT", help: "Digest title"),
        .help,
    ],
    positionals: [
        PositionalSpec(name: "SOURCE", help: "Feed list"),
        PositionalSpec(name: "DEST", help: "Output file", isOptional: true),
    ]
)

private let fetchCommand = CommandSpec(
    name: "fetch",
    options: [OptionSpec(long: "quiet", short: "q")],
    positionals: [PositionalSpec(name: "URL", isVariadic: true)]
)

private let listCommand = CommandSpec(
    name: "list",
    positionals: [PositionalSpec(name: "TAG", isOptional: true, isVariadic: true)]
)

private let waitCommand = CommandSpec(
    name: "wait",
    options: [
        OptionSpec(long: "wait", valueName: "DURATION", valueIsOptional: true, valueKind: .duration),
        OptionSpec(long: "label", valueName: "TEXT", valueIsOptional: true),
        OptionSpec(long: "quiet", short: "q"),
    ]
)

/// Everything observable through the public API, for whole-result comparison.
private struct Snapshot: Equatable, Sendable {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    init(flags: Set<String> = [], values: [String: [String]] = [:], positionals: [String] = []) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
    }

    init(_ parsed: ParsedArguments, _ command: CommandSpec) {
        for option in command.options {
            if option.takesValue {
                let values = parsed.values(option.long)
                if !values.isEmpty { self.values[option.long] = values }
                #expect(parsed.value(option.long) == values.last)
            } else if parsed.flag(option.long) {
                flags.insert(option.long)
            }
        }
        positionals = parsed.positionals
    }
}

struct SuccessCase: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    fileprivate let command: CommandSpec
    fileprivate let expected: Snapshot

    fileprivate init(
        _ arguments: [String],
        command: CommandSpec = runCommand,
        flags: Set<String> = [],
        values: [String: [String]] = [:],
        positionals: [String]
    ) {
        self.arguments = arguments
        self.command = command
        expected = Snapshot(flags: flags, values: values, positionals: positionals)
    }

    var testDescription: String { "\(command.name) \(arguments)" }
}

struct FailureCase: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let command: CommandSpec
    let messages: [String]

    init(_ arguments: [String], command: CommandSpec = runCommand, _ messages: [String]) {
        self.arguments = arguments
        self.command = command
        self.messages = messages
    }

    var testDescription: String { "\(command.name) \(arguments)" }
}

// MARK: - Parsing

@Suite("Argument parser")
struct ArgumentParserTests {
    static let successes: [SuccessCase] = [
        // Positionals
        SuccessCase(["in"], positionals: ["in"]),
        SuccessCase(["in", "out"], positionals: ["in", "out"]),
        SuccessCase(["-"], positionals: ["-"]),
        SuccessCase(["-", "-"], positionals: ["-", "-"]),
        // Long options
        SuccessCase(["--config=a.yaml", "in"], values: ["config": ["a.yaml"]], positionals: ["in"]),
        SuccessCase(["--config", "a.yaml", "in"], values: ["config": ["a.yaml"]], positionals: ["in"]),
        SuccessCase(["--config=a=b", "in"], values: ["config": ["a=b"]], positionals: ["in"]),
        SuccessCase(["--config=--weird", "in"], values: ["config": ["--weird"]], positionals: ["in"]),
        SuccessCase(["--quiet", "in"], flags: ["quiet"], positionals: ["in"]),
        SuccessCase(["--quiet", "--quiet", "in"], flags: ["quiet"], positionals: ["in"]),
        // Short options
        SuccessCase(["-c", "a.yaml", "in"], values: ["config": ["a.yaml"]], positionals: ["in"]),
        SuccessCase(["-ca.yaml", "in"], values: ["config": ["a.yaml"]], positionals: ["in"]),
        SuccessCase(["-c=x", "in"], values: ["config": ["=x"]], positionals: ["in"]),  // getopt: rest of cluster verbatim
        SuccessCase(["-qv", "in"], flags: ["quiet", "verbose"], positionals: ["in"]),
        SuccessCase(["-q", "-v", "in"], flags: ["quiet", "verbose"], positionals: ["in"]),
        SuccessCase(["-qc", "file", "in"], flags: ["quiet"], values: ["config": ["file"]], positionals: ["in"]),
        SuccessCase(["-qcfile", "in"], flags: ["quiet"], values: ["config": ["file"]], positionals: ["in"]),
        SuccessCase(["-vqcq", "in"], flags: ["quiet", "verbose"], values: ["config": ["q"]], positionals: ["in"]),
        SuccessCase(["-h", "in"], flags: ["help"], positionals: ["in"]),
        // Option values that start with a dash
        SuccessCase(["-c", "-", "in"], values: ["config": ["-"]], positionals: ["in"]),
        SuccessCase(["--limit", "-5", "in"], values: ["limit": ["-5"]], positionals: ["in"]),
        SuccessCase(["-n", "-0.5", "in"], values: ["limit": ["-0.5"]], positionals: ["in"]),
        // Empty values
        SuccessCase(["--title=", "in"], values: ["title": [""]], positionals: ["in"]),
        SuccessCase(["--title", "", "in"], values: ["title": [""]], positionals: ["in"]),
        SuccessCase(["-c", "", "in"], values: ["config": [""]], positionals: ["in"]),
        // Last one wins / repeatable accumulates
        SuccessCase(["--config=a", "-cb", "--config", "c", "in"], values: ["config": ["c"]], positionals: ["in"]),
        SuccessCase(["-f", "u1", "--feed=u2", "-fu3", "in"], values: ["feed": ["u1", "u2", "u3"]], positionals: ["in"]),
        // GNU-style interleaving
        SuccessCase(["in", "-q", "out"], flags: ["quiet"], positionals: ["in", "out"]),
        SuccessCase(["in", "out", "--quiet"], flags: ["quiet"], positionals: ["in", "out"]),
        SuccessCase(["in", "--config", "x", "out", "-v"], flags: ["verbose"], values: ["config": ["x"]], positionals: ["in", "out"]),
        // "--" ends options
        SuccessCase(["--", "-x"], positionals: ["-x"]),
        SuccessCase(["--", "--config", "x"], positionals: ["--config", "x"]),
        SuccessCase(["-q", "--", "--"], flags: ["quiet"], positionals: ["--"]),
        SuccessCase(["in", "--", "-"], positionals: ["in", "-"]),
        // Variadic positionals
        SuccessCase(["a", "-q", "b", "c"], command: fetchCommand, flags: ["quiet"], positionals: ["a", "b", "c"]),
        SuccessCase([], command: listCommand, positionals: []),
        SuccessCase(["x", "y"], command: listCommand, positionals: ["x", "y"]),
    ]

    @Test("parses", arguments: successes)
    func parses(_ testCase: SuccessCase) throws {
        let parsed = try ArgumentParser.parse(testCase.arguments, for: testCase.command).get()
        #expect(Snapshot(parsed, testCase.command) == testCase.expected)
    }

    static let failures: [FailureCase] = [
        // Unknown options
        FailureCase(["--confg=x", "in"], ["unknown option '--confg'; did you mean '--config'?"]),
        FailureCase(["--confg", "in"], ["unknown option '--confg'; did you mean '--config'?"]),
        FailureCase(["--QUIET", "in"], ["unknown option '--QUIET'; did you mean '--quiet'?"]),
        FailureCase(["--verb", "in"], ["unknown option '--verb'; did you mean '--verbose'?"]),
        FailureCase(["--zzz", "in"], ["unknown option '--zzz'"]),
        FailureCase(["-x", "in"], ["unknown option '-x'"]),
        FailureCase(["-qxv", "in"], ["unknown option '-x'"]),
        FailureCase(["-xyz", "in"], ["unknown option '-x'", "unknown option '-y'", "unknown option '-z'"]),
        FailureCase(["-verbose", "in"], ["unknown option '-verbose'; did you mean '--verbose'?"]),
        FailureCase(["--=x", "in"], ["unknown option '--=x'"]),
        // Missing values
        FailureCase(["in", "--config"], ["option '--config' needs a value (FILE)"]),
        FailureCase(["--config"], ["option '--config' needs a value (FILE)", "missing argument SOURCE"]),
        FailureCase(["--config", "--quiet", "in"], ["option '--config' needs a value (FILE)"]),
        FailureCase(["--config", "-q", "in"], ["option '--config' needs a value (FILE)"]),
        FailureCase(["--config", "--", "in"], ["option '--config' needs a value (FILE)"]),
        FailureCase(["in", "-c"], ["option '-c' needs a value (FILE)"]),
        FailureCase(["in", "-qc"], ["option '-c' needs a value (FILE)"]),
        FailureCase(["-c", "--title=x", "in"], ["option '-c' needs a value (FILE)"]),
        // Flags given values
        FailureCase(["--quiet=yes", "in"], ["option '--quiet' does not take a value"]),
        FailureCase(["--quiet=", "in"], ["option '--quiet' does not take a value"]),
        // Positional count
        FailureCase(["a", "b", "c"], ["unexpected argument 'c'"]),
        FailureCase(["a", "b", "c", "d"], ["unexpected argument 'c'", "unexpected argument 'd'"]),
        FailureCase(["a", "b", "--", "-q"], ["unexpected argument '-q'"]),
        FailureCase([], ["missing argument SOURCE"]),
        FailureCase(["-q"], ["missing argument SOURCE"]),
        FailureCase(["-q"], command: fetchCommand, ["missing argument URL"]),
        FailureCase(["x"], command: CommandSpec(name: "sync"), ["unexpected argument 'x'"]),
        // An optional value written after a space
        FailureCase(["--wait", "10m"], command: waitCommand, ["unexpected argument '10m'; use '--wait=10m' (its value must follow '=')"]),
        FailureCase(
            ["--label", "x y"], command: waitCommand, ["unexpected argument 'x y'; use '--label=x y' (its value must follow '=')"]),
        FailureCase(["--wait", "soon"], command: waitCommand, ["unexpected argument 'soon'"]),
        FailureCase(["--wait=1m", "10m"], command: waitCommand, ["unexpected argument '10m'"]),
        FailureCase(["--wait", "-q", "10m"], command: waitCommand, ["unexpected argument '10m'"]),
        FailureCase(["--wait", "--", "10m"], command: waitCommand, ["unexpected argument '10m'"]),
        // All errors, in order of appearance
        FailureCase(
            ["--confg", "x", "-z", "--quiet=1", "--title"],
            [
                "unknown option '--confg'; did you mean '--config'?",
                "unknown option '-z'",
                "option '--quiet' does not take a value",
                "option '--title' needs a value (TEXT)",
            ]
        ),
        FailureCase(["a", "b", "--nope", "c"], ["unknown option '--nope'", "unexpected argument 'c'"]),
        FailureCase(["a", "b", "c", "--nope"], ["unexpected argument 'c'", "unknown option '--nope'"]),
        FailureCase(
            ["--quiet=1", "--config"],
            ["option '--quiet' does not take a value", "option '--config' needs a value (FILE)", "missing argument SOURCE"]),
    ]

    @Test("reports usage errors", arguments: failures)
    func fails(_ testCase: FailureCase) {
        let result = ArgumentParser.parse(testCase.arguments, for: testCase.command)
        #expect(throws: UsageError(messages: testCase.messages)) { try result.get() }
    }

    @Test func fetchAcceptsDashedPositionalsAfterDoubleDash() throws {
        let parsed = try ArgumentParser.parse(["--", "--quiet"], for: fetchCommand).get()
        #expect(parsed.positionals == ["--quiet"])
        #expect(!parsed.flag("quiet"))
    }

    @Test func scanKeepsWhatItRecognisesAlongsideErrors() {
        let scanned = ArgumentParser.scan(["-qxv", "--help"], for: runCommand)
        #expect(scanned.arguments.flag("help"))
        #expect(scanned.arguments.flag("quiet"))
        #expect(scanned.arguments.flag("verbose"))
        #expect(scanned.errors == ["unknown option '-x'", "missing argument SOURCE"])
    }

    @Test func unknownNamesReadAsAbsent() throws {
        let parsed = try ArgumentParser.parse(["in"], for: runCommand).get()
        #expect(!parsed.flag("nope"))
        #expect(parsed.value("nope") == nil)
        #expect(parsed.values("nope").isEmpty)
        #expect(parsed.value("config") == nil)  // defaults are for display only
    }

    @Test func helpOptionConvenience() {
        #expect(OptionSpec.help.long == "help")
        #expect(OptionSpec.help.short == "h")
        #expect(!OptionSpec.help.takesValue)
    }
}

// MARK: - Help and error rendering

@Suite("Help text")
struct HelpTextTests {
    @Test func pinnedHelpForSmallCommand() {
        let command = CommandSpec(
            name: "run",
            abstract: "Fetch all feeds and print new items.",
            discussion: "Feeds are fetched concurrently.",
            options: [
                OptionSpec(long: "config", short: "c", valueName: "FILE", help: "Configuration file", defaultValue: "feeds.yaml"),
                OptionSpec(long: "quiet", short: "q", help: "Print nothing"),
                OptionSpec(long: "title", valueName: "TEXT", help: "Digest title"),
                .help,
            ],
            positionals: [
                PositionalSpec(name: "SOURCE", help: "Feed list"),
                PositionalSpec(name: "DEST", help: "Output file", isOptional: true),
            ]
        )
        let expected = """
            Usage: tributary run [options] SOURCE [DEST]

            Fetch all feeds and print new items.

            Options:
              -c, --config FILE   Configuration file (default: feeds.yaml)
              -q, --quiet         Print nothing
                  --title TEXT    Digest title
              -h, --help          Show this help and exit.

            Arguments:
              SOURCE              Feed list
              DEST                Output file

            Feeds are fetched concurrently.
            """
        #expect(ArgumentParser.help(for: command, programName: "tributary") == expected)
    }

    @Test func customUsageVariadicsAndWideRows() {
        let command = CommandSpec(
            name: "fetch",
            usage: "tributary fetch [options] URL...",
            options: [
                OptionSpec(long: "user-agent-override", short: "A", valueName: "STRING", help: "Custom agent"),
                OptionSpec(long: "dry-run", help: "Fetch nothing\nbut report what would be fetched", defaultValue: "off"),
                OptionSpec(long: "silent"),
            ],
            positionals: [PositionalSpec(name: "URL", help: "Feeds", isVariadic: true)]
        )
        let expected = """
            Usage: tributary fetch [options] URL...

            Options:
              -A, --user-agent-override STRING
                              Custom agent
                  --dry-run   Fetch nothing
                              but report what would be fetched (default: off)
                  --silent

            Arguments:
              URL             Feeds
            """
        #expect(ArgumentParser.help(for: command, programName: "tributary") == expected)
    }

    @Test(
        "generated usage",
        arguments: [
            (CommandSpec(name: "sync"), "Usage: tributary sync"),
            (CommandSpec(name: "", options: [.help]), "Usage: tributary [options]"),
            (
                CommandSpec(name: "list", positionals: [PositionalSpec(name: "TAG", isOptional: true, isVariadic: true)]),
                "Usage: tributary list [TAG...]"
            ),
            (
                CommandSpec(name: "fetch", positionals: [PositionalSpec(name: "URL", isVariadic: true)]),
                "Usage: tributary fetch URL..."
            ),
        ])
    func generatedUsage(_ command: CommandSpec, _ firstLine: String) {
        let help = ArgumentParser.help(for: command, programName: "tributary")
        #expect(help.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == firstLine)
    }

    @Test func renderedUsageError() {
        let error = UsageError(messages: ["unknown option '-x'", "missing argument SOURCE"])
        #expect(
            error.rendered(programName: "tributary", commandName: "run") == """
                tributary: unknown option '-x'
                tributary: missing argument SOURCE
                Try 'tributary run --help' for more information.
                """)
        #expect(error.rendered(programName: "tributary", commandName: nil).hasSuffix("Try 'tributary --help' for more information."))
        #expect(error.description == "unknown option '-x'\nmissing argument SOURCE")
    }

    @Test(
        "configuration problems",
        arguments: [
            (
                CommandSpec(
                    name: "ok", options: [.help], positionals: [PositionalSpec(name: "A"), PositionalSpec(name: "B", isOptional: true)]), []
            ),
            (
                CommandSpec(name: "dup", options: [.help, OptionSpec(long: "help"), OptionSpec(long: "hush", short: "h")]),
                ["duplicate option '--help'", "duplicate option '-h'"]
            ),
            (
                CommandSpec(name: "bad", options: [OptionSpec(long: "--x"), OptionSpec(long: "a=b")]),
                ["invalid long option name '--x'", "invalid long option name 'a=b'"]
            ),
            (
                CommandSpec(
                    name: "order",
                    positionals: [
                        PositionalSpec(name: "A", isVariadic: true), PositionalSpec(name: "B", isOptional: true), PositionalSpec(name: "C"),
                    ]), ["variadic argument A must be last", "required argument C follows an optional one"]
            ),
        ] as [(CommandSpec, [String])])
    func configurationProblems(_ command: CommandSpec, _ expected: [String]) {
        #expect(command.configurationProblems == expected)
    }
}
