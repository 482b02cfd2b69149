import Foundation

/// The two ways a fuzz program runs: under libFuzzer (built for fuzzing), or replaying the
/// files of corpus directories once each (the regression check `make test` runs).
public enum FuzzDriver {
    /// Runs `one` on every input and exits; a broken invariant traps inside `one`.
    public static func main(_ one: @escaping @Sendable ([UInt8]) -> Void) -> Never {
        #if FUZZING
        target = one
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
        #else
        var count = 0
        for dir in CommandLine.arguments.dropFirst() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for n in names.sorted() {
                guard let d = FileManager.default.contents(atPath: dir + "/" + n) else { continue }
                one(Array(d))
                count += 1
            }
        }
        print("fuzz corpus: \(count) inputs replayed, no invariant broken")
        exit(0)
        #endif
    }

    #if FUZZING
    /// Set once, before libFuzzer starts calling.
    nonisolated(unsafe) static var target: ([UInt8]) -> Void = { _ in }
    #endif
}

#if FUZZING
// libFuzzer's own driver, entered from our main: SwiftPM names the program's entry point
// itself, so libFuzzer's `main` cannot be the one that runs.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The entry point libFuzzer's driver links against.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FuzzDriver.target(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#endif
