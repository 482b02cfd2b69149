import CFFmpeg
import Foundation
@testable import MediaCore
@testable import Playback
@testable import Web
import TestSupport
import Testing

/// A film's first picture comes back from its worker with the first packet, where the
/// decoder that plays it (frame threads, B-frames reordered) gives it only after several:
/// a launch shows its first picture that much sooner, and every picture still comes once,
/// in order.
@Suite(.serialized) struct FirstPictureTests {
    init() { FFmpegLog.quiet }

    /// Each picture's time as the worker's decoder gives it back, packet by packet: the
    /// number of packets sent when each came.
    static func decoded(_ path: String, threads: Int) throws -> [(pts: Int64, packets: Int)] {
        let d = try Demuxer(url: "file:" + path, options: SourceOptions())
        let v = try #require(d.bestStream(AVMEDIA_TYPE_VIDEO))
        var o = PlayerOptions()
        o.sandbox = .strict
        guard case .decoder(let decoder) = try DecodeWorkers.shared.video(d.stream(v), threads: threads, maxPixels: 1 << 26,
                                                                            name: "first-picture", options: o) else {
            Issue.record("the video was not decoded in a worker")
            return []
        }
        var out: [(Int64, Int)] = []
        var packets = 0
        func take() {
            let frame = Frame()
            while case .frame = decoder.receive(into: frame) { out.append((frame.raw.pointee.pts, packets)) }
        }
        // The player's decode loop flushes as it takes its first packet (a new seek generation).
        decoder.flush()
        let packet = Packet()
        while case .packet = d.read(into: packet) {
            defer { av_packet_unref(packet.raw) }
            guard Int(packet.raw.pointee.stream_index) == v else { continue }
            packets += 1
            _ = decoder.send(packet)
            take()
        }
        _ = decoder.send(Packet?.none)
        take()
        return out
    }

    @Test("x264's defaults at 1080p: the first picture with the first packet, then every picture once, in order",
          arguments: [1, 2])
    func firstPictureWithTheFirstPacket(threads: Int) throws {
        let path = try Fixtures.make("first-picture-x264-1080.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30",
                                                                     "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let pictures = try FirstPictureTests.decoded(path, threads: threads)
        try #require(!pictures.isEmpty)
        #expect(pictures[0].packets == 1, "the first picture came after \(pictures[0].packets) packets")
        #expect(pictures[0].pts == 0)
        let times = pictures.map(\.pts)
        #expect(times == times.sorted() && Set(times).count == times.count, "pictures out of order or twice: \(times)")
        #expect(times.count == 30, "\(times.count) pictures of 30")
    }

    @Test("A stream heavy enough to need every thread plays as its decoder gives it")
    func heavyStreamsDecodeAsBefore() throws {
        let path = try Fixtures.make("first-picture-x264-1080.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30",
                                                                     "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        // 0: libavcodec's own count, what a 4K or 1080p60 stream is given.
        let pictures = try FirstPictureTests.decoded(path, threads: 0)
        try #require(!pictures.isEmpty)
        #expect(pictures[0].packets > 1, "a heavy stream's first picture was decoded twice")
        #expect(pictures.map(\.pts) == pictures.map(\.pts).sorted() && pictures.count == 30)
    }
}
