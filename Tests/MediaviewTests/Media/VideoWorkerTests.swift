import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// A video's pictures come from a sandboxed worker: when that worker dies or hangs
    /// mid-play, the video ends in one line and the queue goes on.
    @Suite(.serialized) struct VideoWorker {
        /// Test-only names make the decoding worker abort or stop answering after 30 packets,
        /// or the one reading the container after 120 (past the player's read-ahead, so
        /// mid-play in this 8 s clip of 200), as a crafted frame breaking the H.264 decoder
        /// or a crafted box breaking the MP4 reader could: one line each, the next item
        /// shows, and the program ends on its own saying an item failed.
        @Test(arguments: [("worker-crashes-later", "crashed (SIGABRT)"), ("worker-hangs-later", "took too long"),
                          ("demuxer-crashes-later", "crashed (SIGABRT)"), ("demuxer-hangs-later", "took too long")])
        func aVideoWhoseDecoderStopsMidPlayFailsInOneLineAndTheQueueGoesOn(_ name: String, _ why: String) throws {
            let dir = try Scratch.directory("video-worker-\(name)")
            let video = dir + "/clip \(name).mp4"
            try FileManager.default.createSymbolicLink(atPath: video,
                                                       withDestinationPath: try Fixtures.solidVideo("red", seconds: 8))
            let blue = try Fixtures.solidImage("blue", width: 64, height: 48)
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", "--events", log, video, blue],
                                  timeout: 30, environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            #expect(!r.timedOut && r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
            #expect(lines(r.stderr) == ["mediaview: \(video): the decoder stopped: \(why)"], "\(r.stderr)")
            #expect(Events.waitFor(log, "first_frame", index: 0, timeout: 1) != nil, "the video never showed")
            #expect(Events.waitFor(log, "first_frame", index: 1, timeout: 1) != nil, "the picture after it never showed")
        }
    }
}

extension MediaviewProgram.VideoWorker {
    /// Sound is decoded by a worker too: a song whose decoder crashes mid-play ends in one
    /// line, and the next item plays.
    @Test func aSongWhoseDecoderCrashesMidPlayFailsInOneLineAndTheQueueGoesOn() throws {
        let dir = try Scratch.directory("sound-worker-crash")
        let song = dir + "/song worker-crashes-later.mp3"
        try FileManager.default.createSymbolicLink(atPath: song, withDestinationPath: try Fixtures.tone(440, seconds: 4, ext: "mp3"))
        let blue = try Fixtures.solidImage("blue", width: 64, height: 48)
        let log = dir + "/events.jsonl"
        let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--events", log, song, blue],
                              timeout: 30, environment: ["MEDIAVIEW_WORKER_TEST": "1"])
        #expect(!r.timedOut && r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        #expect(lines(r.stderr) == ["mediaview: \(song): the decoder stopped: crashed (SIGABRT)"], "\(r.stderr)")
        #expect(Events.waitFor(log, "first_frame", index: 1, timeout: 1) != nil, "the picture after it never showed")
    }
}
