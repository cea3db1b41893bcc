import Foundation
import Glibc

/// The result of running a child process.
struct ProcessOutput: Sendable {
    var exitCode: Int32
    var stdout: [UInt8]
    var stderr: String
    var elapsed: Duration

    /// Standard output decoded as UTF-8.
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs a program without blocking a cooperative thread; output goes through temporary files so a chatty
/// child can never fill a pipe. A watchdog SIGKILLs the child after `timeout` (SIGTERM may be blocked in
/// children spawned from test threads).
func runProcess(
    _ executable: String,
    _ arguments: [String],
    stdin: [UInt8] = [],
    timeout: Duration = .seconds(30)
) async throws -> ProcessOutput {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputPath = directory.appendingPathComponent("stdin").path
    let outputPath = directory.appendingPathComponent("stdout").path
    let errorPath = directory.appendingPathComponent("stderr").path
    guard FileManager.default.createFile(atPath: inputPath, contents: Data(stdin)),
        FileManager.default.createFile(atPath: outputPath, contents: nil),
        FileManager.default.createFile(atPath: errorPath, contents: nil),
        let input = FileHandle(forReadingAtPath: inputPath),
        let output = FileHandle(forWritingAtPath: outputPath),
        let error = FileHandle(forWritingAtPath: errorPath)
    else { throw CocoaError(.fileWriteUnknown) }
    defer {
        try? input.close()
        try? output.close()
        try? error.close()
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    let start = ContinuousClock.now
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
            return
        }
        let pid = process.processIdentifier
        Thread {
            // Watchdog on its own thread so it works even if the cooperative pool is saturated.
            let deadline = ContinuousClock.now + timeout
            while process.isRunning {
                if ContinuousClock.now >= deadline {
                    kill(pid, SIGKILL)
                    return
                }
                usleep(20_000)
            }
        }.start()
    }
    let elapsed = ContinuousClock.now - start
    let stdout = FileManager.default.contents(atPath: outputPath) ?? Data()
    let stderr = FileManager.default.contents(atPath: errorPath) ?? Data()
    return ProcessOutput(exitCode: status, stdout: [UInt8](stdout), stderr: String(decoding: stderr, as: UTF8.self), elapsed: elapsed)
}

/// Runs `/usr/bin/curl -sS` with `arguments` (quiet, but errors on stderr).
func curl(_ arguments: String..., stdin: [UInt8] = [], timeout: Duration = .seconds(30)) async throws -> ProcessOutput {
    try await runProcess("/usr/bin/curl", ["-sS"] + arguments, stdin: stdin, timeout: timeout)
}

/// One response as printed by `curl -i`.
struct DumpedResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Parses `curl -i` output for a single response (skipping interim `100 Continue` heads).
    init?(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while true {
            guard let end = rest.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) else { return nil }
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            rest = rest[end.upperBound...]
            let statusParts = lines[0].split(separator: " ")
            guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
            if status == 100 { continue }
            self.status = status
            self.headers = lines.dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            self.body = Array(rest)
            return
        }
    }
}

/// Runs blocking work on a fresh thread and awaits its result, keeping the cooperative pool free.
func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A blocking TCP client for requests curl cannot express (malformed input, pipelining, early close).
final class RawClient {
    let fd: Int32

    /// Connects to `127.0.0.1:port`; reads time out after `timeoutSeconds`.
    init?(port: Int, timeoutSeconds: Int = 5) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends all of `text`.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends all of `bytes`.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the server closes, `limit` bytes arrived, or the read timeout passes.
    func receive(limit: Int = 1 << 24) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while result.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, limit - result.count), 0) }
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// Reads until `marker` has been seen `times` times (or close/timeout).
    func receive(untilSeen marker: String, times: Int = 1) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let needle = Array(marker.utf8)
        while result.ranges(of: needle).count < times {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// Whether the server has closed the connection (EOF within the read timeout).
    func seesEOF() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }
}

/// Sends `request` on a fresh connection and reads until the server closes (or times out).
func rawExchange(port: Int, _ request: String) async -> String {
    await offload {
        guard let client = RawClient(port: port) else { return "<connect failed>" }
        client.send(request)
        return String(decoding: client.receive(), as: UTF8.self)
    }
}

/// Python 3 one-liners used to decode bodies independently of curl.
enum Python {
    static func run(_ script: String, _ arguments: [String] = [], stdin: [UInt8] = []) async throws -> ProcessOutput {
        try await runProcess("/usr/bin/python3", ["-c", script] + arguments, stdin: stdin)
    }
}
