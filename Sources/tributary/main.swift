import Foundation
import TributaryCLI

let status = await CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), endsProcess: true)
exit(status)
