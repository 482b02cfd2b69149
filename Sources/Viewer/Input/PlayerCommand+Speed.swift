import Playback

extension PlayerCommand {
    /// How a speed command changes the speed, in mpv's words: `multiply speed 1.1`,
    /// `set speed 1`, `add speed 0.25`. The result is kept within 0.25x to 4x.
    public enum SpeedChange: Equatable, Sendable {
        /// Multiply by this factor (`1/1.1` is written as a fraction, as in mpv's input.conf).
        case multiply(Double)
        /// Set to this speed.
        case set(Double)
        /// Add this much (negative: slower).
        case add(Double)

        /// The speed after the change, from `speed`.
        public func applied(to speed: PlaybackSpeed) -> PlaybackSpeed {
            switch self {
            case .multiply(let f): PlaybackSpeed(clamping: speed.factor * f)
            case .set(let v): PlaybackSpeed(clamping: v)
            case .add(let d): PlaybackSpeed(clamping: speed.factor + d)
            }
        }

        /// The command text that parses back to this change.
        var commandText: String {
            switch self {
            case .multiply(let f):
                // 1/1.1 reads better than 0.9090909090909091 in --list-bindings.
                let inverse = ((1 / f) * 1000).rounded() / 1000
                if f < 1, f > 0, abs(inverse - 1 / f) < 1e-9 { return "multiply speed 1/\(format(inverse))" }
                return "multiply speed \(format(f))"
            case .set(let v): return "set speed \(format(v))"
            case .add(let d): return "add speed \(format(d))"
            }
        }
    }

    /// Parses `multiply speed F` and `set speed X` (the only property they take here).
    static func speedChange(_ name: String, _ args: [String]) throws(ParseError) -> SpeedChange {
        try expectCount(args, 2, usage: "\(name) speed VALUE")
        guard args[0] == "speed" else {
            throw ParseError(description: "cannot \(name) '\(args[0])' (only speed)")
        }
        if name == "set" {
            let v = try number(args[1], for: "set speed")
            guard PlaybackSpeed(v) != nil else {
                throw ParseError(description: "set speed needs a speed from 0.25 to 4, got '\(args[1])'")
            }
            return .set(v)
        }
        let f = try fraction(args[1])
        guard f > 0 else { throw ParseError(description: "multiply speed needs a factor above 0, got '\(args[1])'") }
        return .multiply(f)
    }

    /// A number, or a fraction `A/B` as mpv's input.conf writes `1/1.1`.
    private static func fraction(_ text: String) throws(ParseError) -> Double {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return try number(text, for: "multiply speed") }
        let a = try number(String(parts[0]), for: "multiply speed"), b = try number(String(parts[1]), for: "multiply speed")
        guard b != 0 else { throw ParseError(description: "multiply speed cannot divide by zero: '\(text)'") }
        return a / b
    }
}
