import Foundation
import FuzzDriver
import Playback

/// Feeds one input, as a file's bytes, through everything a user's file goes through; the
/// work per input is bounded (`MediaProbe.Budget`), so a slow input is a finding, not a hang.
/// Whatever FFmpeg, libjpeg or libwebp make of it, the probe must return, and say why when
/// it refused the input in one line; so must a worker's animation, a picture still
/// downloading, a JPEG worker's decode and a gallery's thumbnail.
enum FuzzMedia {
    static func run(_ bytes: [UInt8]) {
        let outcome = MediaProbe.run(bytes)
        if let e = outcome.failure {
            precondition(!e.message.isEmpty && !e.message.contains("\n"), "a refusal must be one line: \(e.message)")
        }
        // The same bytes as a subtitle file beside a video: read, bounded, drawn.
        let subtitles = SubtitleProbe.run(bytes)
        if let e = subtitles.failure {
            precondition(!e.message.isEmpty && !e.message.contains("\n"), "a subtitle refusal must be one line: \(e.message)")
        }
        precondition(subtitles.events <= 20_000, "a subtitle file kept \(subtitles.events) events")
        thumbnail(bytes)
        animation(bytes)
        soFar(bytes)
        large(bytes)
        zoomedJPEG(bytes)
        jpegWorker(bytes)
    }

    /// The same bytes as a JPEG worker decodes them, with libjpeg-turbo alone: a picture, or
    /// one line (what it hands back to a photos worker among them).
    static func jpegWorker(_ bytes: [UInt8]) {
        do {
            let r = try StillWork.decodeJPEG(bytes, name: "fuzz", target: (640, 480), maxPixels: 16_000_000, displayProfile: nil)
            if let answer = r.answer(), answer.fd >= 0 { close(answer.fd) }
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
        }
        // Over a budget of 1,000 pixels, as a huge photo is: a progressive file's DC scans.
        do {
            _ = try StillWork.decodeJPEG(bytes, name: "fuzz", target: (640, 480), maxPixels: 1_000, displayProfile: nil)
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
        }
    }

    /// The same bytes as a JPEG too large to hold whole, zoomed in: its entropy index read
    /// (when the bytes allow one) and tiles at the bottom left and right cut out with it (by
    /// rows and columns), at full size and at an eighth; each tiles or one line saying why
    /// not. A claimed size over 16 MP is left out: the rows libjpeg would fill in would take
    /// the fuzzer's time, not test the index.
    static func zoomedJPEG(_ bytes: [UInt8]) {
        guard let regions = try? JPEGRegions(bytes: bytes, name: "fuzz"), regions.width * regions.height <= 16_000_000 else {
            return
        }
        for level in [0, 3] {
            let (w, h) = regions.size(level: level)
            let row = (h - 1) / 64
            for column in Set([0, (w - 1) / 64]) {
                zoomedTile(regions, level: level, row: row, column: column)
            }
        }
    }

    /// One tile of `regions` cut out and checked, or its refusal in one line.
    private static func zoomedTile(_ regions: JPEGRegions, level: Int, row: Int, column: Int) {
        do {
            let tiles = try regions.tiles(level: level, rows: max(0, row - 1)...row, columns: column...column, side: 64,
                                          displayProfile: nil)
            precondition(tiles.joined().allSatisfy { $0.width <= 64 && $0.height <= 64 }, "a tile over its size")
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
        }
    }

    /// The same bytes as a PNG or TIFF too large to hold whole (a budget of 1,000 pixels makes
    /// any picture one): its stored size from the header, a reduced picture read a few rows
    /// at a time, and its zoom's tile pyramid; each a result or one line saying why not.
    static func large(_ bytes: [UInt8]) {
        let path = NSTemporaryDirectory() + "fuzz-media-large-\(getpid())"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        if let size = LargePictureHeader.size(head: Array(bytes.prefix(1024)), fd: fd) {
            precondition(size.width > 0 && size.height > 0, "a header size that is not one")
        }
        do {
            let r = try LargeStill.decode(fd: fd, name: "fuzz", target: (640, 480), maxPixels: 1_000)
            precondition(r.pixels.width * r.pixels.height <= 1_000, "a reduced picture over the budget")
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
        }
        guard let store = try? PyramidStore.create(in: NSTemporaryDirectory()) else { return }
        do {
            let pyramid = try PyramidRegions.build(file: fd, store: store, name: "fuzz")
            _ = try pyramid.tiles(level: 3, rows: 0...0, columns: 0...0, side: 512, displayProfile: nil)
        } catch {
            precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
        }
    }

    /// The bytes, and their first half, as a web picture still downloading (a JPEG's rows or
    /// scans so far, a GIF's first frame): a picture, or one line saying why not.
    static func soFar(_ bytes: [UInt8]) {
        for part in [bytes, Array(bytes.prefix(bytes.count / 2))] {
            do {
                let r = try StillWork.decodeSoFar(part, name: "fuzz", target: (640, 480), maxPixels: 16_000_000, displayProfile: nil)
                // What the worker would send the viewer: the pixels in a sealed memfd.
                if let answer = r.answer(), answer.fd >= 0 { close(answer.fd) }
            } catch {
                precondition(!error.message.isEmpty && !error.message.contains("\n"), "a refusal must be one line: \(error.message)")
            }
        }
    }

    /// The same bytes as an animation a worker plays: frames, or one line saying why not.
    static func animation(_ bytes: [UInt8]) {
        guard let work = try? AnimationWork(bytes, name: "fuzz", maxPixels: 16_000_000, displayProfile: nil) else { return }
        // A bounded number of frames, and one loop back to the start.
        for i in 0..<24 {
            let answer = work.next(restart: i == 12)
            if answer.fd >= 0 { close(answer.fd) }
            switch answer.kind {
            case .picture:
                continue
            case .animationEnd:
                return
            default:
                precondition(!answer.text.isEmpty && !answer.text.contains("\n"), "an animation's refusal must be one line: \(answer.text)")
                return
            }
        }
    }

    /// The same bytes as a file in a gallery: a thumbnail, or one line saying why not.
    static func thumbnail(_ bytes: [UInt8]) {
        let path = NSTemporaryDirectory() + "fuzz-media-thumbnail-\(getpid())"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        do {
            let p = try ThumbnailMaker.make(path: path, size: 128, maxPixels: 16_000_000)
            precondition(p.width <= 128 && p.height <= 128 && p.pixels.count == p.width * p.height * 4, "a thumbnail out of size")
        } catch {
            if case .broken(let why) = error {
                precondition(!why.isEmpty && !why.contains("\n"), "a thumbnail failure must be one line: \(why)")
            }
        }
    }
}

@main
struct FuzzMain {
    static func main() {
        FuzzDriver.main { FuzzMedia.run($0) }
    }
}
