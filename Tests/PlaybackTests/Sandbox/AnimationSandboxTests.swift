import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// Animations played frame by frame by a confined worker of their own: the frames a user
/// sees, in order and on time, looping; a damaged file or a decoder that dies is one line.
@Suite(.serialized) struct AnimationSandboxTests {
    let pool = DecodeWorkers(timeout: 10, testing: true)

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func open(_ path: String, name: String) throws -> WorkerAnimation {
        switch try pool.animation(try bytes(path), name: name, options: PlayerOptions()) {
        case .animation(let a): return a
        case .inProcess: throw FixtureError("\(name): no worker")
        }
    }

    /// The frame's colour as shown, the way a viewer's scaler draws it.
    private func colour(_ f: (frame: Frame, pts: Double, duration: Double)) -> (r: Double, g: Double, b: Double) {
        VideoFrame(frame: f.frame, pts: f.pts, duration: f.duration, serial: 0, rotation: 0).averageColor()
    }

    @Test("A GIF's frames come from the worker in order, each for its delay, and loop")
    func gifFramesInOrder() throws {
        defer { pool.stopAll() }
        let gif = try Fixtures.gif(colors: ["red", "blue", "lime"], delayCentiseconds: 30)
        let a = try open(gif, name: "rbg.gif")
        #expect(a.info.kind == .animated && a.info.width == 64 && a.info.height == 64, "\(a.info)")
        #expect(a.info.formatName == "gif")
        #expect(a.info.duration.map { abs($0 - 0.9) < 0.02 } == true, "the length: \(String(describing: a.info.duration))")
        #expect(a.info.streams.frameRate != nil, "the rate the info panel and container-fps show")
        var seen: [(r: Double, g: Double, b: Double)] = []
        var times: [Double] = []
        while let f = try a.next() {
            seen.append(colour(f))
            times.append(f.pts)
            #expect(abs(f.duration - 0.3) < 0.011, "a frame lasts its delay: \(f.duration)")
        }
        #expect(seen.count == 3, "\(seen)")
        guard seen.count == 3 else { return }
        #expect(seen[0].r > 200 && seen[0].b < 50, "red first: \(seen[0])")
        #expect(seen[1].b > 200 && seen[1].r < 50, "then blue: \(seen[1])")
        #expect(seen[2].g > 200 && seen[2].r < 50, "then green: \(seen[2])")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.3) < 0.011 }, "\(times)")
        a.rewind()
        let again = try #require(try a.next())
        #expect(colour(again).r > 200 && abs(again.pts - times[0]) < 0.001, "looping starts at the red frame again")
        #expect(pool.picturesDecoded == 0, "no still was decoded")
    }

    @Test("An APNG, an animated WebP and an animated AVIF play in the worker too")
    func otherFormats() throws {
        defer { pool.stopAll() }
        let apng = try Fixtures.make("sbx-anim.apng", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=0.6", "-plays", "0", "-f", "apng"])
        let webp = try Fixtures.make("sbx-anim.webp", ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=0.6",
                                                       "-c:v", "libwebp_anim", "-loop", "0"])
        for (name, path) in [("anim.png", apng), ("anim.webp", webp), ("anim.avif", try PictureFormatTests.animatedAVIF())] {
            let a = try open(path, name: name)
            var count = 0, last = -1.0
            var firstPixels: [UInt8]?
            var changed = false
            while let f = try a.next(), count < 50 {
                #expect(f.pts > last, "\(name): times go forward")
                last = f.pts
                let p = pixels(f.frame)
                if let firstPixels { changed = changed || p != firstPixels } else { firstPixels = p }
                count += 1
            }
            #expect(count >= 2 && changed, "\(name): \(count) frames, pictures changed: \(changed)")
        }
    }

    @Test("A damaged or cut animation is one line, and the worker plays the next one")
    func damagedIsOneLine() throws {
        defer { pool.stopAll() }
        let good = try bytes(try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50))
        let garbage = Array("GIF89a".utf8) + [UInt8](repeating: 0xFF, count: 300)
        for (name, b) in [("garbage.gif", garbage), ("cut.gif", Array(good.prefix(40))), ("empty-apng.png", Array(StillFile.png))] {
            do {
                switch try pool.animation(b, name: name, options: PlayerOptions()) {
                case .animation:
                    Issue.record("\(name) played")
                case .inProcess:
                    Issue.record("no worker")
                }
            } catch {
                #expect(error.message.hasPrefix(name + ": ") && !error.message.contains("\n"), "\(error.message)")
                #expect(!error.message.contains("the decoder stopped"), "the worker survived: \(error.message)")
            }
        }
        let a = try open(try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50), name: "good.gif")
        #expect(try a.next() != nil)
    }

    @Test("A decoder that crashes opening, or between frames, or is killed, ends the animation in one line; nothing leaks")
    func crashesAreOneLine() throws {
        defer { pool.stopAll() }
        let gif = try bytes(try Fixtures.gif(colors: ["red", "blue"], delayCentiseconds: 50))
        let fds = openDescriptors()
        do {
            _ = try pool.animation(gif, name: "a worker-crashes.gif", options: PlayerOptions())
            Issue.record("a crashing decoder played")
        } catch {
            #expect(error.message == "a worker-crashes.gif: the decoder stopped: crashed (SIGABRT)", "\(error.message)")
        }
        var pids: [Int32] = []
        do {
            let later = try open(try Fixtures.bytes("later.gif", Data(gif)), name: "b worker-crashes-later.gif")
            pids.append(later.pid)
            #expect(try later.next() != nil, "the first frame came with the opening")
            do {
                _ = try later.next()
                Issue.record("a decoder that crashed gave a frame")
            } catch {
                #expect(error.message == "b worker-crashes-later.gif: the decoder stopped: crashed (SIGABRT)", "\(error.message)")
            }
            #expect(later.endsItemOnFailure, "the item fails, not only the animation")
            let killed = try open(try Fixtures.bytes("killed.gif", Data(gif)), name: "c.gif")
            pids.append(killed.pid)
            _ = try killed.next()
            kill(killed.pid, SIGKILL)
            do {
                _ = try killed.next()
                Issue.record("a killed decoder gave a frame")
            } catch {
                #expect(error.message.hasPrefix("c.gif: the decoder stopped: ") && error.message.contains("SIGKILL"), "\(error.message)")
            }
        }
        pool.stopAll()
        for pid in pids { #expect(kill(pid, 0) != 0, "worker \(pid) is gone and reaped") }
        #expect(openDescriptors() <= fds, "descriptors before \(fds), after \(openDescriptors())")
    }

    private func pixels(_ frame: Frame) -> [UInt8] {
        let f = frame.raw.pointee
        return Array(UnsafeRawBufferPointer(start: f.data.0, count: Int(f.linesize.0) * Int(f.height)))
    }

    private func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
