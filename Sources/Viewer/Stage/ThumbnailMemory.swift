import Glibc
import Windowing

/// The thumbnail's last place and size, kept per monitor layout in one small text file, so
/// the next minimize and the next run put it where the user left it.
///
/// Each line is `LAYOUT X Y WIDTH HEIGHT`, where LAYOUT lists the monitors
/// (`1920x1080+0+0,1280x1024+1920+0`): a place remembered under another layout is never
/// used. The file is replaced atomically (written beside, then renamed), so a crash never
/// leaves half a line, and it keeps at most `capacity` layouts.
struct ThumbnailMemory {
    let path: String
    static let capacity = 16

    /// The key of a monitor layout.
    static func key(_ monitors: [Rect]) -> String {
        monitors.map { "\($0.width)x\($0.height)+\($0.x)+\($0.y)" }.sorted().joined(separator: ",")
    }

    /// The remembered frame for `layout`, if any and sane.
    func frame(for layout: String) -> Rect? {
        for line in read() {
            let f = line.split(separator: " ")
            guard f.count == 5, f[0] == layout else { continue }
            let n = f.dropFirst().compactMap { Int($0) }
            guard n.count == 4, n[2] >= ThumbnailSnap.minimumWidth, n[3] > 0, n[2] <= 16384, n[3] <= 16384 else { continue }
            return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        return nil
    }

    /// Remembers `frame` for `layout`, newest first.
    func remember(_ frame: Rect, for layout: String) {
        let line = "\(layout) \(frame.x) \(frame.y) \(frame.width) \(frame.height)"
        let others = read().filter { !$0.hasPrefix(layout + " ") }
        write(([line] + others).prefix(ThumbnailMemory.capacity).joined(separator: "\n") + "\n")
    }

    private func read() -> [String] {
        guard let f = fopen(path, "r") else { return [] }
        defer { fclose(f) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 512)
        while lines.count < ThumbnailMemory.capacity * 2, fgets(&buffer, Int32(buffer.count), f) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            lines.append(line.trimmingCharacters(in: "\n"))
        }
        return lines
    }

    private func write(_ text: String) {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !dir.isEmpty { makeDirectories(dir) }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let ok = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) == $0.count }
        close(fd)
        if ok { rename(temporary, path) } else { unlink(temporary) }
    }

    private func makeDirectories(_ dir: String) {
        var partial = ""
        for part in dir.split(separator: "/") {
            partial += "/" + part
            mkdir(partial, 0o700)
        }
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
