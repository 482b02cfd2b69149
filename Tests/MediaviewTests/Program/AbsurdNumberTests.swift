import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// Numbers no user means, on every option that takes a number: each is refused with one
    /// line (exit 2) or clamped and played (exit 0); none may crash the program or hang it.
    @Suite struct AbsurdNumbers {
        static let values = ["1e308", "-1", "nan", "inf", "99999999999999999999"]
        static let options = ["--image-duration", "--frames", "--volume", "--minimized-aspect",
                              "--minimized-width-ratio", "--top-buffer", "--bottom-buffer", "--max-pixels",
                              "--timeout", "--wid", "--geometry", "--speed"]

        @Test func everyNumericOptionRefusesOrClampsAbsurdValues() throws {
            let red = try Fixtures.solidImage("red")
            for option in Self.options {
                for value in Self.values {
                    let given = option == "--geometry" ? "\(value)x\(value)" : value
                    // The option comes after the quick settings, so it wins over them.
                    let args = ["--autoexit", "--image-duration", "0.3", "--no-audio", option, given, red]
                    let r = try mediaview(args, timeout: 15)
                    let what = "\(option) \(given)"
                    #expect(!r.timedOut, "\(what): hung")
                    #expect(r.status == 0 || r.status == 2, "\(what): status \(r.status), stderr: \(r.stderr)")
                    if r.status == 2 {
                        let errs = lines(r.stderr)
                        #expect(errs.count == 1 && errs.first?.contains(option) == true, "\(what): \(errs)")
                    }
                }
            }
        }
    }
}
