import Foundation
import Testing
import TestSupport

extension MediaviewProgram {
    /// The window carries the program's icon (`_NET_WM_ICON`), which task bars and window
    /// switchers show.
    @Suite struct WindowIcon {
        @Test func theWindowHasTheIconInSeveralSizes() throws {
            let probe = try ScreenProbe()
            let run = try Launched(["--windowed", "--geometry", "320x240+0+0", try Fixtures.solidImage("red")])
            let window = try #require(ProgramWindow.wait(probe, of: run), "no window; stderr: \(run.stderr)")
            // The icon is set before the window is mapped, so a task bar never shows it
            // without one; the window is found by its class while still being set up.
            let start = Date()
            while !probe.isViewable(window.id) && Date().timeIntervalSince(start) < 10 { usleep(20_000) }
            #expect(probe.isViewable(window.id), "the window was never mapped")
            let r = try Run.process("xprop", ["-id", String(window.id), "-notype", "-f", "_NET_WM_ICON", "32c", "_NET_WM_ICON"],
                                    timeout: 10)
            let numbers = r.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { UInt32($0) }
            var sizes: [Int] = []
            var centre: [Int: UInt32] = [:]
            var i = 0
            while i + 1 < numbers.count {
                let (w, h) = (Int(numbers[i]), Int(numbers[i + 1]))
                guard w > 0, w == h, i + 2 + w * h <= numbers.count else { break }
                sizes.append(w)
                // Left of the play triangle, inside the blue square.
                centre[w] = numbers[i + 2 + (h / 2) * w + w / 4]
                i += 2 + w * h
            }
            #expect(sizes == [16, 32, 48, 64, 128], "icon sizes \(sizes); xprop: \(r.stdout.prefix(200)) \(r.stderr)")
            let pixel = centre[64] ?? 0
            #expect(pixel >> 24 == 0xFF && abs(Int((pixel >> 16) & 0xFF) - 0x3D) < 16 && abs(Int(pixel & 0xFF) - 0xFD) < 16,
                    "the icon's blue, opaque: \(String(pixel, radix: 16))")
            kill(run.pid, SIGTERM)
            _ = run.finish(timeout: 5)
        }
    }
}
