import CFFmpeg
import Foundation
import Glibc
import Testing
@testable import Playback

/// A worker's still arrives as a frame over the worker's memfd, made without libavutil.
/// Zoomed, its visible part is cut where it lies; what the window shows must be what the
/// same pixels in an FFmpeg frame show, at each quarter turn.
@Suite struct PlainFrameTests {
    /// The same pixels as `ffmpegFrame`, in a frame over an anonymous mapping of our own.
    static func plainCopy(of frame: VideoFrame) throws -> VideoFrame {
        let f = frame.frame.raw
        let stride = Int(f.pointee.linesize.0), h = Int(f.pointee.height)
        let count = stride * h
        let p = try #require(mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(p != MAP_FAILED)
        memcpy(p, try #require(f.pointee.data.0), count)
        let plain = try #require(Frame(plane: UnsafeMutableRawBufferPointer(start: p, count: count)))
        plain.raw.pointee.data.0 = p.assumingMemoryBound(to: UInt8.self)
        plain.raw.pointee.linesize.0 = Int32(stride)
        plain.raw.pointee.width = f.pointee.width
        plain.raw.pointee.height = Int32(h)
        plain.raw.pointee.format = f.pointee.format
        #expect(plain.isPlain && !frame.frame.isPlain)
        return VideoFrame(frame: plain, pts: 0, duration: 0, serial: 0, rotation: 0)
    }

    /// `frame` zoomed: drawn into `rect`, larger than the 160 x 120 window and off its corner.
    static func zoomed(_ frame: VideoFrame, rect: PixelRect, turn: Int) -> [UInt32] {
        var px = [UInt32](repeating: 0, count: 160 * 120)
        px.withUnsafeMutableBytes { raw in
            let t = ImageTarget(base: raw.baseAddress!, width: 160, height: 120, stride: 160 * 4)
            Scaler().render(frame, into: t, rect: rect, quality: .best, rotation: turn)
        }
        return px
    }

    @Test("Zoomed and panned, a worker's still shows the same pixels as FFmpeg's frame of it",
          arguments: [0, 90, 180, 270])
    func zoomedPlainFrameMatches(turn: Int) throws {
        let picture = try PackedScalingTests().packedFrame(AV_PIX_FMT_BGR0, width: 600, height: 400, PackedScalingTests.scene)
        let plain = try Self.plainCopy(of: picture)
        for rect in [PixelRect(x: -700, y: -300, width: 1800, height: 1200), PixelRect(x: -37, y: -410, width: 640, height: 640)] {
            let theirs = Self.zoomed(picture, rect: rect, turn: turn)
            let ours = Self.zoomed(plain, rect: rect, turn: turn)
            #expect(theirs.contains { $0 & 0xFFFFFF != 0 }, "nothing was drawn at all")
            #expect(ours == theirs, "turn \(turn), \(rect): \(zip(ours, theirs).filter { $0 != $1 }.count) pixels differ")
        }
    }

    @Test("A part outside the picture, or of a frame that is FFmpeg's, is refused")
    func partsOutsideAreRefused() throws {
        let picture = try PackedScalingTests().packedFrame(AV_PIX_FMT_BGR0, width: 60, height: 40) { _, _ in (1, 2, 3) }
        let plain = try Self.plainCopy(of: picture)
        #expect(plain.frame.packedPart(left: 10, top: 10, width: 50, height: 30) != nil)
        #expect(plain.frame.packedPart(left: 11, top: 10, width: 50, height: 30) == nil)
        #expect(plain.frame.packedPart(left: 0, top: -1, width: 5, height: 5) == nil)
        #expect(plain.frame.packedPart(left: 0, top: 0, width: 0, height: 5) == nil)
        #expect(picture.frame.packedPart(left: 0, top: 0, width: 5, height: 5) == nil)
    }
}
