import Foundation
import Synchronization
import TributaryModel

#if canImport(Glibc)
    import Glibc
#endif

/// Where the command line writes: data to standard output, diagnostics to standard error.
public protocol Console: Sendable {
    /// Writes data (listings, JSON) to standard output.
    func output(_ text: String)
    /// Writes a diagnostic line (or lines) to standard error, the secrets of the URLs in it as `***`
    /// (`URLSecrets`): messages quote URLs, errors included.
    func diagnostic(_ text: String)
    /// Whether standard error is a terminal (progress and colours only then).
    var diagnosticsAreTerminal: Bool { get }
    /// Writes data already encoded as UTF-8 to standard output.
    func output(utf8 bytes: [UInt8])
}

extension Console {
    /// Writes the bytes as text through `output(_:)`.
    public func output(utf8 bytes: [UInt8]) {
        output(String(decoding: bytes, as: UTF8.self))
    }
}

/// The process's real standard output and standard error.
public struct StandardConsole: Console {
    /// Creates the console of this process.
    public init() {}

    public func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes the bytes as they are, without a copy.
    public func output(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    public func diagnostic(_ text: String) {
        let text = URLSecrets.redacted(in: text)
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    public var diagnosticsAreTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

/// A console that keeps what was written, for tests and embedding.
public final class CapturedConsole: Console {
    // Protected by the mutex: commands may write from several tasks.
    private let state = Mutex<(output: String, diagnostics: String)>(("", ""))

    /// Creates an empty capture.
    public init() {}

    public func output(_ text: String) {
        state.withLock { $0.output += text }
    }

    public func diagnostic(_ text: String) {
        let text = URLSecrets.redacted(in: text)
        state.withLock { $0.diagnostics += text.hasSuffix("\n") ? text : text + "\n" }
    }

    public var diagnosticsAreTerminal: Bool { false }

    /// Everything written to standard output.
    public var standardOutput: String { state.withLock { $0.output } }
    /// Everything written to standard error.
    public var standardError: String { state.withLock { $0.diagnostics } }
}
