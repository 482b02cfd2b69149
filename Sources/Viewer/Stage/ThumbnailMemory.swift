import Glibc
import Windowing

/// The thumbnail's last place and size, kept per monitor layout in one small text file, so
/// the next minimize and the next run put it where the user left it.
///
/// Each line is `LAYOUT X Y WIDTH HEIGHT`, where LAYOUT lists the monitors
/// (`1920x1080+0+0,1280x1024+1920+0`): a place remembered under another layout is never
/// used. The file is replaced atomically (`StateFile`: written beside, then renamed), so a
/// crash never leaves half a line, and it keeps at most `capacity` layouts.
package struct ThumbnailMemory {
    let path: String
    static let capacity = 16

    /// The key of a monitor layout.
    static func key(_ monitors: [Rect]) -> String {
        monitors.map { "\($0.width)x\($0.height)+\($0.x)+\($0.y)" }.sorted().joined(separator: ",")
    }

    /// The remembered frame for `layout`, if any and sane.
    func frame(for layout: String) -> Rect? {
        ThumbnailMemory.frame(in: read(), for: layout)
    }

    /// The first sane frame `lines` (the file's) hold for `layout`: anyone can write the
    /// file, so every number is checked before it places a window.
    package static func frame(in lines: [String], for layout: String) -> Rect? {
        for line in lines {
            let f = line.split(separator: " ")
            guard f.count == 5, f[0] == layout else { continue }
            let n = f.dropFirst().compactMap { Int($0) }
            // X places a window within ±32767 (16-bit coordinates); a place beyond that
            // came from no window, and near Int.max its centre overflowed on the next
            // minimize and crashed the program.
            guard n.count == 4, n[2] >= ThumbnailSnap.minimumWidth, n[3] > 0, n[2] <= 16384, n[3] <= 16384,
                  ThumbnailMemory.coordinates.contains(n[0]), ThumbnailMemory.coordinates.contains(n[1]) else { continue }
            return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        return nil
    }

    /// Where X can place a window: its coordinates are 16-bit.
    package static let coordinates = -32768...32767

    /// Remembers `frame` for `layout`, newest first, merged under the file's lock with
    /// what other instances remembered meanwhile.
    func remember(_ frame: Rect, for layout: String) {
        let line = "\(layout) \(frame.x) \(frame.y) \(frame.width) \(frame.height)"
        _ = StateFile.locked(path) {
            let others = read().filter { !$0.hasPrefix(layout + " ") }
            let text = ([line] + others).prefix(ThumbnailMemory.capacity).joined(separator: "\n") + "\n"
            _ = StateFile.replace(path, with: Array(text.utf8))
        }
    }

    /// The file's first lines (it keeps the newest first); a file grown large is not read
    /// past what `capacity` lines can take.
    private func read() -> [String] {
        guard let bytes = StateFile.read(path, maxBytes: ThumbnailMemory.capacity * 2 * 512, keep: .head) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).prefix(ThumbnailMemory.capacity * 2)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
