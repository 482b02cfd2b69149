import Foundation
import TestSupport
import Testing

extension MediaviewProgram {
    /// Animations play from a sandboxed worker: when that worker dies mid-animation, the
    /// item ends in one line and the queue goes on, as with a still.
    @Suite(.serialized) struct AnimationWorker {
        /// A test-only name makes the worker abort after the first frame, as a crafted frame
        /// breaking the GIF decoder would: one line, the next picture shows, the program ends
        /// on its own saying an item failed.
        @Test func aGIFWhoseDecoderCrashesMidwayFailsInOneLineAndTheQueueGoesOn() throws {
            let dir = try Scratch.directory("animation-crash")
            let gif = dir + "/party worker-crashes-later.gif"
            try FileManager.default.createSymbolicLink(atPath: gif,
                                                       withDestinationPath: try Fixtures.gif(colors: ["red", "lime"], delayCentiseconds: 20))
            let blue = try Fixtures.solidImage("blue", width: 64, height: 48)
            let log = dir + "/events.jsonl"
            let r = try mediaview(["--autoexit", "--image-duration", "0.3", "--no-audio", "--events", log, gif, blue],
                                  timeout: 30, environment: ["MEDIAVIEW_WORKER_TEST": "1"])
            #expect(!r.timedOut && r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
            #expect(lines(r.stderr) == ["mediaview: \(gif): the decoder stopped: crashed (SIGABRT)"], "\(r.stderr)")
            #expect(Events.waitFor(log, "first_frame", index: 1, timeout: 1) != nil, "the picture after it never showed")
        }
    }
}
