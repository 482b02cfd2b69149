import Foundation

/// What a process keeps mapped of its program's and libraries' read-only pages, read from
/// `/proc/PID/smaps`: the pages the viewer and its workers let go of once started.
public enum KeptPages {
    /// KiB resident in `pid`'s private, read-only file mappings none of whose pages were
    /// written (smaps' Anonymous is 0): the code, constants and symbol tables it maps. Read
    /// with cat, since Foundation trusts the size procfs reports, 0. `Int.max` when the
    /// process is gone.
    public static func resident(in pid: Int32) -> Int {
        guard let smaps = try? Run.process("cat", ["/proc/\(pid)/smaps"]).stdout, !smaps.isEmpty else { return .max }
        var total = 0, rss = 0, eligible = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
                let perms = Array(fields[1])
                eligible = perms[1] != "w" && perms[3] == "p" && fields[4] != "0"
            } else if fields.first == "Rss:", fields.count > 1 {
                rss = Int(fields[1]) ?? 0
            } else if fields.first == "Anonymous:", fields.count > 1, eligible, Int(fields[1]) == 0 {
                total += rss
            }
        }
        return total
    }

    /// Waits (at most 5 s) until `pid` keeps at most `limit` KiB of them; what it keeps then.
    public static func settle(_ pid: Int32, under limit: Int) -> Int {
        var held = resident(in: pid)
        for _ in 0..<100 where held > limit {
            usleep(50_000)
            held = resident(in: pid)
        }
        return held
    }
}
