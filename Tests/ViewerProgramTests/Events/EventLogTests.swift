import Foundation
import Testing
@testable import ViewerProgram
import Viewer

/// The JSON-lines event log: valid JSON, exact escaping, order, timestamps, live flushing.
@Suite struct EventLogTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
    }

    private func objects(at path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.isEmpty || text.hasSuffix("\n"), "last line is incomplete")
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any])
        }
    }

    @Test func fieldsKeepTheirOrderAndTypes() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try EventLog(path: path)
        log.log("presented", [("index", 0), ("source", "a.png"), ("ok", true), ("rate", 0.5),
                              ("missing", nil), ("size", .array([640, 480])), ("bad", .double(.nan))])
        let line = try String(contentsOfFile: path, encoding: .utf8)
        // The field order is part of the format: people read these logs with grep.
        let expectedTail = #","event":"presented","index":0,"source":"a.png","ok":true,"rate":0.5,"missing":null,"size":[640,480],"bad":null}"#
        #expect(line.hasPrefix(#"{"t":"#))
        #expect(line.hasSuffix(expectedTail + "\n"))
        let object = try #require(try objects(at: path).first)
        #expect(object["event"] as? String == "presented")
        #expect(object["index"] as? Int == 0)
        #expect(object["size"] as? [Int] == [640, 480])
        #expect(object["missing"] is NSNull)
    }

    @Test func stringsRoundTripThroughJSONSerialization() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let nasty = [
            #"quote " backslash \ slash /"#, "new\nline\ttab\rcr", "\u{0}\u{1}\u{7}\u{8}\u{C}\u{1F}\u{7F}",
            "ünïcödé ✓ 日本語 🎬 e\u{301}", "\u{2028}\u{2029}", "",
        ]
        let log = try EventLog(path: path)
        for text in nasty {
            log.log("failed", [("reason", .string(text)), (text, 1)])
        }
        let objects = try objects(at: path)
        #expect(objects.count == nasty.count)
        for (object, text) in zip(objects, nasty) {
            #expect(object["reason"] as? String == text)
            #expect(object[text] as? Int == 1)
        }
        let raw = try String(contentsOfFile: path, encoding: .utf8)
        #expect(raw.contains(#"\u0000\u0001\u0007\u0008\u000c\u001f"#))
        #expect(raw.contains("日本語 🎬"), "non-ASCII text must pass through as UTF-8, not be escaped")
    }

    @Test func timestampsAreMonotonicSecondsWithSixDecimals() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try EventLog(path: path)
        log.log("first")
        Thread.sleep(forTimeInterval: 0.05)
        log.log("second")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let times = try lines.map { line -> Double in
            let field = try #require(line.split(separator: ",").first)
            #expect(field.range(of: #"^\{"t":\d+\.\d{6}$"#, options: .regularExpression) != nil, "\(field)")
            return try #require(Double(field.dropFirst(5)))
        }
        #expect(times[0] >= 0 && times[0] < 1)
        #expect(times[1] - times[0] >= 0.04)
    }

    @Test func linesAreVisibleAtOnceWithoutClosing() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try EventLog(path: path)
        log.log("played", [("index", 3)])
        // The log is still open: a reader must already see the complete line.
        let objects = try objects(at: path)
        #expect(objects.count == 1)
        #expect(objects.first?["index"] as? Int == 3)
        withExtendedLifetime(log) {}
    }

    @Test func concurrentWritersProduceCompleteOrderedLines() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = try EventLog(path: path)
        let writers = 8, perWriter = 200
        let padding = String(repeating: "x", count: 300)   // long lines make tearing likely if unlocked
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for sequence in 0..<perWriter {
                        log.log("tick", [("writer", .int(writer)), ("sequence", .int(sequence)), ("pad", .string(padding))])
                    }
                }
            }
        }
        let objects = try objects(at: path)
        #expect(objects.count == writers * perWriter)
        var next = Array(repeating: 0, count: writers)
        var lastTime = 0.0
        for object in objects {
            let writer = try #require(object["writer"] as? Int)
            #expect(object["sequence"] as? Int == next[writer], "writer \(writer) out of order")
            next[writer] += 1
            let time = try #require(object["t"] as? Double)
            #expect(time >= lastTime, "timestamps went backwards")
            lastTime = time
        }
    }

    @Test func openFailureIsOneReadableLine() {
        let path = "/nonexistent-\(UUID().uuidString)/events.jsonl"
        #expect(throws: EventLog.OpenError(description: "cannot open event log '\(path)': No such file or directory")) {
            try EventLog(path: path)
        }
    }

    @Test func valuesRenderAsJSON() {
        #expect(JSONValue.string("a\"b").json == #""a\"b""#)
        #expect(JSONValue.double(.infinity).json == "null")
        #expect(JSONValue.double(1e-7).json == "1e-07")
        #expect(JSONValue.array([1, "x", true, nil]).json == #"[1,"x",true,null]"#)
    }
}
