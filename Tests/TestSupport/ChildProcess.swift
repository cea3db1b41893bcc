public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion with `posix_spawn`, its output captured in files.
///
/// `Foundation.Process` started from a test's cooperative thread hands the child that thread's
/// blocked signal mask (SIGTERM blocked, swift-corelibs-foundation #4772), so such children
/// cannot be stopped. Here the child gets an empty mask and default signal handlers, and a
/// child that outlives its time limit is killed with SIGKILL.
public struct ChildProcess: Sendable {
    /// What the program did.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Everything it wrote to standard output.
        public var standardOutput: String
        /// Everything it wrote to standard error.
        public var standardError: String
        /// Whether it was killed for running past its time limit.
        public var timedOut: Bool
    }

    /// The program and its arguments.
    public var arguments: [String]
    /// The working directory.
    public var directory: String
    /// The environment, replacing the test's own.
    public var environment: [String: String]

    /// Describes a run of `arguments` in `directory` with `environment`.
    public init(_ arguments: [String], directory: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
    }

    /// Starts the program and returns its pid, with output going to the two files.
    public func spawn(standardOutput: String, standardError: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // `env -C` changes the directory in the child (posix_spawn_file_actions_addchdir_np is
        // not visible through Swift's Glibc module).
        let argv = (["/usr/bin/env", "-C", directory] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(result), userInfo: [NSLocalizedDescriptionKey: "cannot start \(arguments[0])"])
        }
        return pid
    }

    /// Runs the program, waiting at most `timeLimit`.
    public func run(timeLimit: Duration = .seconds(120)) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        let pid = try spawn(standardOutput: outPath, standardError: errPath)
        let deadline = ContinuousClock.now + timeLimit
        var timedOut = false
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                timedOut = true
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(
            status: exitStatus,
            standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            timedOut: timedOut)
    }
}
