import CFFmpeg
import Foundation
import Testing
import TestSupport
@testable import Playback

/// When a GIF that is downloading has its first frame all in: what decides when the viewer
/// shows it before the rest of the animation has come.
@Suite struct GIFFirstFrameTests {
    /// A noisy red frame then noisy blue ones, 320x240: a frame is tens of kilobytes, as a
    /// photo-like GIF's are. ffmpeg's GIF muxer with its defaults.
    static func ffmpegGIF() throws -> String {
        try Fixtures.make("first-frame-noisy.gif", [
            "-f", "lavfi", "-i",
            "color=c=red:s=320x240:r=4:d=0.5[a];color=c=blue:s=320x240:r=4:d=1.5[b];[a][b]concat=n=2:v=1,noise=alls=40:allf=t",
        ])
    }

    /// ImageMagick's GIF with its defaults: a comment extension and a colour table per frame.
    static func magickGIF() throws -> String {
        try Fixtures.tool("first-frame-magick.gif", "convert") { out in
            ["-delay", "20", "-size", "64x48", "plasma:red-yellow", "plasma:blue-cyan", "-comment", "made here", out]
        }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The first frame decoded from `bytes`, as its pixels.
    static func firstFrame(_ bytes: [UInt8]) throws -> [UInt8] {
        let r = try StillWork.decodeSoFar(bytes, name: "a.gif", target: nil, maxPixels: 100_000_000, displayProfile: nil)
        let f = r.frame.raw.pointee
        var out: [UInt8] = []
        for y in 0..<Int(f.height) {
            out += UnsafeBufferPointer(start: f.data.0! + y * Int(f.linesize.0), count: Int(f.width) * 4)
        }
        return out
    }

    @Test("The first frame counts as in exactly where its data ends, and then it decodes whole",
          arguments: ["ffmpeg", "magick"])
    func completeWhereTheFirstImageEnds(encoder: String) throws {
        let file = try Self.bytes(encoder == "ffmpeg" ? try Self.ffmpegGIF() : try Self.magickGIF())
        // The shortest start of the file a fresh follower calls complete.
        var low = 0, high = file.count
        while low < high {
            let mid = (low + high) / 2
            var f = GIFFirstFrame()
            if f.isComplete(in: Array(file.prefix(mid))) { high = mid } else { low = mid + 1 }
        }
        let end = low
        #expect(end < file.count, "never complete before the whole file")
        // It ends on the empty sub-block closing the image, and the next block follows.
        #expect(file[end - 1] == 0x00 && [0x21, 0x2C, 0x3B].contains(file[end]), "ends at \(end) of \(file.count)")
        #expect(try Self.firstFrame(Array(file.prefix(end))) == Self.firstFrame(file),
                "the first frame from \(end) bytes is not the whole file's first frame")
        // A follower fed the file as it grows agrees, whatever the steps.
        var growing = GIFFirstFrame()
        var said: Int?
        for n in stride(from: 0, through: file.count, by: max(1, file.count / 97)) where said == nil {
            if growing.isComplete(in: Array(file.prefix(n))) { said = n }
        }
        let step = max(1, file.count / 97)
        #expect(said.map { $0 >= end && $0 < end + step } == true, "said complete at \(String(describing: said)), not just after \(end)")
    }

    @Test("What is not a GIF, or a GIF cut or broken before its first frame ends, never counts as in")
    func badStartsNeverComplete() throws {
        let real = try Self.bytes(try Self.ffmpegGIF())
        var wild = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0xF7, 0, 0]
        wild += [UInt8](repeating: 0xFF, count: 3000)
        let starts: [(String, [UInt8])] = [
            ("nothing", []),
            ("a PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)),
            ("a header alone", Array(real.prefix(13))),
            ("a colour table that claims more than there is", wild),
            ("a block of an unknown kind", Array(real.prefix(13)) + [0x99] + [UInt8](repeating: 0, count: 40)),
            ("the trailer before any image", Array("GIF87a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B, 0x2C, 0, 0]),
            ("sub-block lengths past the end", Array(real.prefix(800)) + [0xFF, 0xFF]),
        ]
        for (what, bytes) in starts {
            var f = GIFFirstFrame()
            let first = f.isComplete(in: bytes), again = f.isComplete(in: bytes)
            #expect(!first, "\(what) counts as a whole first frame")
            #expect(!again, "\(what), asked again")
        }
    }
}
