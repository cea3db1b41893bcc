import Foundation
import TributaryCLI

let status = await CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), endsProcess: true)
// Everything is written and closed; what is left for the exit handlers of the libraries (libcurl's TLS library and
// its own) is freeing what the exit frees anyway. Skipping them saves about a millisecond of every run.
fflush(nil)
_exit(status)
