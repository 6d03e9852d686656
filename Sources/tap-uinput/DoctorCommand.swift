import ArgumentParser
import Foundation
import TapUinput

/// `tap-uinput doctor`: What is wrong when nothing types.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check every link from the TAP to typed text, and say how to fix what is broken.",
        discussion: """
            In order: uinput access, bluetoothd, the adapter, each TAP (paired, bonded, trusted, \
            connected, services, held by the daemon in controller mode), the user service, the \
            keymap files, the desktop's focus and layout. Exit status 1 when something is broken.
            """)
    @OptionGroup var logging: LogOptions

    @Flag(help: "Print JSON (one object per check) instead of text.")
    var json = false

    func run() throws {
        try logging.bootstrap()
        let findings = TapUinput.Doctor.diagnose(DoctorProbe.gather())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(findings), as: UTF8.self))
        } else {
            for f in findings {
                let mark = switch f.status { case .ok: "ok     "; case .warning: "warning"; case .problem: "PROBLEM" }
                print("\(mark)  \(f.check): \(f.detail)")
                if let fix = f.fix, f.status != .ok { print("         fix: \(fix)") }
            }
        }
        if !TapUinput.Doctor.healthy(findings) { throw ExitCode(1) }
    }
}
