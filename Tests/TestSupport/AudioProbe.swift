import Foundation

/// Records what the test sound server plays, and measures it.
public enum AudioProbe {
    /// Starts recording the null sink's monitor as mono s16 at `rate`; stop with `finish`.
    public static func startRecording(rate: Int = 48000) throws -> (Process, String) {
        let monitor = try TestEnvironment.monitor
        let path = Fixtures.directory + "/rec-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).raw"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let p = try Run.start("parec", ["-d", monitor, "--raw", "--format=s16le", "--rate=\(rate)", "--channels=1",
                                        "--latency-msec=20"], stdout: handle)
        return (p, path)
    }

    /// Stops a recording and returns its samples.
    public static func finish(_ recording: (Process, String)) -> [Int16] {
        let (p, path) = recording
        // parec may have been started with SIGTERM blocked (Foundation's Process passes on
        // the spawning thread's mask); what it recorded is already in the file.
        kill(p.processIdentifier, SIGTERM)
        Run.wait(p, timeout: 0.3)
        defer { unlink(path) }
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// How long a recording was loud: its 20 ms blocks above a quarter of the loudest.
    public static func loudSeconds(_ s: [Int16]) -> Double {
        let block = 960
        var levels: [Double] = []
        var i = 0
        while i + block <= s.count { levels.append(rms(s[i..<i + block])); i += block }
        let top = levels.max() ?? 0
        return Double(levels.filter { $0 > top / 4 }.count) * 0.02
    }

    /// Root-mean-square level of samples, 0...32768.
    public static func rms(_ s: ArraySlice<Int16>) -> Double {
        guard !s.isEmpty else { return 0 }
        var sum = 0.0
        for v in s { sum += Double(v) * Double(v) }
        return (sum / Double(s.count)).squareRoot()
    }

    /// The strongest frequency between `low` and `high` Hz, by a Goertzel scan in 5 Hz steps
    /// over the loudest stretch of the recording.
    public static func dominantFrequency(_ samples: [Int16], rate: Int = 48000, low: Int = 100, high: Int = 4000) -> Double? {
        let window = min(samples.count, rate / 2)
        guard window > 1000 else { return nil }
        // The loudest half second, so leading and trailing silence do not matter.
        var best = 0, bestLevel = 0.0
        var start = 0
        while start + window <= samples.count {
            let l = rms(samples[start..<start + window])
            if l > bestLevel { bestLevel = l; best = start }
            start += window / 4
        }
        guard bestLevel > 100 else { return nil }
        let x = samples[best..<best + window].map { Double($0) }
        var top = 0.0, topF = 0.0
        var f = low
        while f <= high {
            let w = 2 * Double.pi * Double(f) / Double(rate)
            let c = 2 * cos(w)
            var s1 = 0.0, s2 = 0.0
            for v in x { let s0 = v + c * s1 - s2; s2 = s1; s1 = s0 }
            let power = s1 * s1 + s2 * s2 - c * s1 * s2
            if power > top { top = power; topF = Double(f) }
            f += 5
        }
        return topF
    }
}
