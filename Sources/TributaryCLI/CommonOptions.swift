import Foundation
import TributaryCore

/// Options every command that reads the configuration accepts.
enum CommonOptions {
    static let config = OptionSpec(
        long: "config", short: "c", valueName: "FILE", help: "The configuration file.", defaultValue: "feeds.yaml")
    static let quiet = OptionSpec(long: "quiet", short: "q", help: "Print only errors on standard error.")
    static let verbose = OptionSpec(
        long: "verbose", short: "v", help: "Print what happens (twice for debugging detail).")

    /// `--state FILE`, for the commands that use the state file.
    static let state = OptionSpec(long: "state", valueName: "FILE", help: "Use this state file (overrides 'state').")

    /// `-c`, `-q`, `-v` and `-h`.
    static let all = [config, quiet, verbose, OptionSpec.help]

    /// The log level the flags ask for: errors only with -q, warnings by default, more with -v.
    static func level(_ arguments: ParsedArguments) -> Logger.Level {
        if arguments.flag("quiet") { return .error }
        switch arguments.count("verbose") {
        case 0: return .warning
        case 1: return .info
        default: return .debug
        }
    }

    /// The configuration path the flags name.
    static func configPath(_ arguments: ParsedArguments) -> String {
        arguments.value("config") ?? "feeds.yaml"
    }

    /// A path the command line names, relative to the working directory (unlike the
    /// configuration's paths, which are relative to its folder).
    static func commandLinePath(_ text: String) -> URL {
        URLResolver.resolve(text, against: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
    }

    /// The state file: `--state`, else the configuration's `state:`; nil when that says `off`.
    static func statePath(_ arguments: ParsedArguments, configuration: Configuration) -> String? {
        arguments.value("state").map { commandLinePath($0).path } ?? configuration.statePath?.path
    }
}
