import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing

/// A player its owner drops stops like one that was closed: no thread, no sound left over.
@Suite(.serialized) struct PlayerLifetimeTests {
    /// Threads of this process whose name says they belong to a player.
    static func playerThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { tid in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix("mv-demux") || comm.hasPrefix("mv-video") || comm.hasPrefix("mv-audio")
        }.count
    }

    @Test("Dropping a playing player without close() ends its threads", arguments: [false, true])
    func droppedPlayerStops(audio: Bool) throws {
        let path = try Fixtures.solidVideo("green", width: 160, height: 120, seconds: 3, tone: 440)
        let before = Self.playerThreads()
        do {
            // A bare Player (PlayerDriver would close it in its deinit).
            var o = PlayerOptions()
            o.audio = audio
            let p = Player(url: "file:" + path, options: o, wake: {})
            let start = MonotonicClock.seconds()
            var shown = 0
            while MonotonicClock.seconds() - start < 1.5 && shown < 5 {
                if case .show = p.nextFrame() { shown += 1 }
                usleep(5_000)
            }
            #expect(shown > 0, "the player showed nothing")
            #expect(Self.playerThreads() > before, "the player's threads were not seen while it played")
            // No close(): the player goes out of scope here.
        }
        let end = MonotonicClock.seconds() + 3
        while Self.playerThreads() > before && MonotonicClock.seconds() < end { usleep(20_000) }
        #expect(Self.playerThreads() == before, "\(Self.playerThreads() - before) player threads outlived the player")
    }

    /// What a player's wake-up holds (the viewer's loop, once its X connection).
    final class Held: Sendable {}

    /// Closing joins the threads: once a dropped player's deinit has returned, none of its
    /// threads runs and nothing they held is still held, so an `exit` right after (a quit)
    /// cannot run under one of them tearing its stages down.
    @Test("Once a dropped player is gone, its threads are gone and let go of what they held")
    func dropIsTheEnd() throws {
        let path = try Fixtures.solidVideo("blue", width: 160, height: 120, seconds: 3, tone: 440)
        let before = Self.playerThreads()
        weak var held: Held?
        do {
            let token = Held()
            held = token
            let p = Player(url: "file:" + path, options: PlayerOptions(), wake: { withExtendedLifetime(token) {} })
            let start = MonotonicClock.seconds()
            var shown = 0
            while MonotonicClock.seconds() - start < 3 && shown < 3 {
                if case .show = p.nextFrame() { shown += 1 }
                usleep(5_000)
            }
            #expect(shown > 0, "the player showed nothing")
        }
        // No waiting: the deinit that just returned is the end.
        #expect(Self.playerThreads() == before, "\(Self.playerThreads() - before) player threads still running")
        #expect(held == nil, "a thread of the dropped player still held its wake-up")
    }
}
