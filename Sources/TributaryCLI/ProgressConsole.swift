import Foundation
import Synchronization
import TributaryCore

/// A console for terminals that keeps one live progress line at the bottom of standard error:
/// `fetching 12/40 sources, 3.2 MB, 1 failed`. Diagnostics printed meanwhile clear the line first
/// and redraw it after, so the two never mix. Used only when standard error is a terminal.
final class ProgressConsole: Console {
    private let base: any Console
    private let state = Mutex<(line: String, drawn: ContinuousClock.Instant?)>(("", nil))

    init(_ base: any Console) {
        self.base = base
    }

    var diagnosticsAreTerminal: Bool { base.diagnosticsAreTerminal }

    func output(_ text: String) {
        base.output(text)
    }

    func output(utf8 bytes: [UInt8]) {
        base.output(utf8: bytes)
    }

    func diagnostic(_ text: String) {
        state.withLock { state in
            let line = state.line
            Self.write(line.isEmpty ? "" : "\r\u{1B}[2K")
            base.diagnostic(text)
            if !line.isEmpty { Self.write(line) }
        }
    }

    /// Shows the run's progress (redrawn at most ten times a second).
    func show(_ progress: RunProgress) {
        var text = "fetching \(progress.done)/\(progress.total) sources, \(ByteCountText.format(progress.bytes))"
        if progress.failed > 0 { text += ", \(progress.failed) failed" }
        state.withLock { state in
            let now = ContinuousClock.now
            if let drawn = state.drawn, now - drawn < .milliseconds(100), progress.done < progress.total { return }
            state.line = text
            state.drawn = now
            Self.write("\r\u{1B}[2K" + text)
        }
    }

    /// Removes the progress line.
    func clear() {
        state.withLock { state in
            if !state.line.isEmpty { Self.write("\r\u{1B}[2K") }
            state.line = ""
        }
    }

    private static func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
