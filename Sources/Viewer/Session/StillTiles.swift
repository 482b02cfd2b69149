import Dispatch
import Playback
import Synchronization
import Windowing

/// The detail of a zoomed JPEG, PNG or TIFF too large to hold whole, as tiles decoded for what is on
/// screen and kept within a memory budget.
///
/// Such a photo is shown fitted from a reduced decode. Zoomed past that, the view keeps
/// showing the reduced picture blown up, and asks for the tiles it covers at the scale they
/// are shown; the missing ones are decoded together off the main thread, one pass at a
/// time, and drawn over the blown-up picture when they come. Tiles not drawn
/// for longest go first when the budget is full. A decode that fails leaves the blown-up
/// picture, quietly: the picture on screen already showed what the file holds.
@MainActor
final class StillTiles {
    /// One tile: `level` halvings of the stored size, column and row of `side`-pixel squares.
    struct Key: Hashable {
        var level: Int, column: Int, row: Int
    }

    /// Tiles are squares of this many decoded pixels: 1 MiB each.
    nonisolated static let side = 512

    private let path: String
    private let displayProfile: [UInt8]?
    /// Where its pieces are decoded: a sandboxed worker, or here.
    private let sandbox: SandboxMode
    /// Where a PNG's or TIFF's pyramid is written (nil: the system's temporary directory).
    private let scratch: String?
    /// Where the file is in being opened, once, off the main thread.
    private enum Phase {
        case closed, opening
        case open(any RegionSource)
        /// The file or a decode failed: the blown-up picture stays, quietly.
        case failed
    }
    private var phase = Phase.closed
    private var tiles: [Key: VideoFrame] = [:]
    /// When each tile was last drawn, in draws: the oldest go first.
    private var lastDrawn: [Key: Int] = [:]
    private var draws = 0
    /// A decode is under way.
    private var busy = false
    /// What a user zooming or panning waits for: since when the screen has shown the
    /// blown-up picture where tiles are missing, counted from the view's last move.
    private struct Wait {
        var blurredSince: Double?
        /// Where the picture lay at the last draw: a move restarts the wait.
        var picture: Rect?
    }
    private var wait = Wait()
    /// Pixels of tiles held at most.
    let budget: Int
    private let inbox = TileInbox()
    private let wake: @Sendable () -> Void
    private let queue = DispatchQueue(label: "mediaview.still-tiles", attributes: [])

    /// Tiles of the JPEG at `path`, holding at most `budget` pixels of them, in the colours
    /// of the display with `displayProfile` (nil: sRGB).
    init(path: String, budget: Int, displayProfile: [UInt8]?, sandbox: SandboxMode, scratch: String? = nil,
         wake: @escaping @Sendable () -> Void) {
        self.path = path
        self.scratch = scratch
        self.displayProfile = displayProfile
        self.sandbox = sandbox
        // Never fewer than a large screen's worth, or the tiles on screen would push each other out.
        self.budget = max(budget, StillTiles.side * StillTiles.side * 48)
        self.wake = wake
    }

    /// Pixels held in tiles now.
    var heldPixels: Int { tiles.values.reduce(0) { $0 + $1.width * $1.height } }

    /// Takes the tiles decoded since the last call; true when any came (a redraw is due).
    func takeArrivals() -> Bool {
        let arrived = inbox.take()
        for a in arrived {
            switch a {
            case .opened(let s): phase = .open(s)
            case .failed: phase = .failed
            case .decoded(let frames):
                busy = false
                for (key, frame) in frames { tiles[key] = frame; lastDrawn[key] = draws }
            case .decodeFailed:
                busy = false
                phase = .failed
            }
        }
        evict()
        return !arrived.isEmpty
    }

    /// Draws the tiles there are over `picture` (where the whole photo lies on screen, in
    /// `target`), and asks for the missing ones; nothing when the reduced picture of
    /// `shownWidth` pixels across is already as sharp as this zoom can show. Returns how
    /// long the screen waited for its detail, `now` being the first draw with none missing
    /// after some were.
    @discardableResult
    func draw(into target: ImageTarget, picture: Rect, shownWidth: Int, scaler: Scaler, now: Double) -> Double? {
        let source: any RegionSource
        switch phase {
        case .failed: wait.blurredSince = nil; return nil
        case .closed, .opening:
            // Until the file is open, a picture shown larger than its reduced decode is blurred.
            if case .closed = phase { open() }
            noteBlur(picture, blurred: picture.width > shownWidth, now: now)
            return nil
        case .open(let s): source = s
        }
        draws += 1
        let level = Self.level(for: picture.width, of: source)
        let (lw, lh) = source.size(level: level)
        let visible = picture.intersection(Rect(x: 0, y: 0, width: target.width, height: target.height))
        guard lw > shownWidth, !visible.isEmpty else { wait.blurredSince = nil; return nil }
        let s = Double(picture.width) / Double(lw)
        func cell(_ screen: Int, _ origin: Int, _ limit: Int) -> Int {
            min(limit - 1, max(0, Int(Double(screen - origin) / s) / Self.side))
        }
        let c0 = cell(visible.x, picture.x, (lw + Self.side - 1) / Self.side)
        let c1 = cell(visible.x + visible.width - 1, picture.x, (lw + Self.side - 1) / Self.side)
        let r0 = cell(visible.y, picture.y, (lh + Self.side - 1) / Self.side)
        let r1 = cell(visible.y + visible.height - 1, picture.y, (lh + Self.side - 1) / Self.side)
        var missing: (rows: ClosedRange<Int>, columns: ClosedRange<Int>)?
        for r in r0...r1 {
            for c in c0...c1 {
                let key = Key(level: level, column: c, row: r)
                guard let tile = tiles[key] else {
                    missing = missing.map { (min($0.rows.lowerBound, r)...max($0.rows.upperBound, r),
                                             min($0.columns.lowerBound, c)...max($0.columns.upperBound, c)) } ?? (r...r, c...c)
                    continue
                }
                lastDrawn[key] = draws
                let x0 = picture.x + Int((Double(c * Self.side) * s).rounded())
                let y0 = picture.y + Int((Double(r * Self.side) * s).rounded())
                let x1 = picture.x + Int((Double(c * Self.side + tile.width) * s).rounded())
                let y1 = picture.y + Int((Double(r * Self.side + tile.height) * s).rounded())
                // 1:1 is a copy; swscale's own unscaled copy reads past a tile cropped to the window.
                if x1 - x0 == tile.width, y1 - y0 == tile.height, tile.copy(into: target, x: x0, y: y0) { continue }
                scaler.render(tile, into: target, rect: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                              quality: .best, rotation: 0)
            }
        }
        if let missing {
            noteBlur(picture, blurred: true, now: now)
            request(source, level: level, rows: missing.rows, columns: missing.columns)
            return nil
        }
        prefetch(source, level: level, rows: r0...r1, columns: c0...c1)
        defer { wait = Wait(picture: picture) }
        return wait.blurredSince.map { now - $0 }
    }

    /// Starts the wait at a blurred draw, again when the view moved since the last draw.
    private func noteBlur(_ picture: Rect, blurred: Bool, now: Double) {
        let moved = wait.picture != picture
        wait.picture = picture
        if !blurred { wait.blurredSince = nil } else if wait.blurredSince == nil || moved { wait.blurredSince = now }
    }

    /// The most halvings whose picture is still at least as wide as it is shown.
    static func level(for shown: Int, of source: any RegionSource) -> Int {
        (0...3).last { source.size(level: $0).width >= shown } ?? 0
    }

    private func open() {
        phase = .opening
        let (path, inbox, wake, sandbox, scratch) = (path, inbox, wake, sandbox, scratch)
        queue.async {
            do { inbox.put(.opened(try SandboxedRegions.open(path: path, mode: sandbox, scratch: scratch))) } catch {
                inbox.put(.failed)
            }
            wake()
        }
    }

    /// Decodes the missing tiles on screen in one pass, unless a pass is under way: the
    /// rows above them are read once, and on two cores a second pass at once would only
    /// halve the speed of the first.
    private func request(_ source: any RegionSource, level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        guard !busy else { return }
        busy = true
        let (inbox, wake, profile) = (inbox, wake, displayProfile)
        queue.async {
            do {
                let grid = try source.tiles(level: level, rows: rows, columns: columns, side: StillTiles.side,
                                            displayProfile: profile)
                var keyed: [(Key, VideoFrame)] = []
                for (i, row) in grid.enumerated() {
                    for (j, tile) in row.enumerated() {
                        keyed.append((Key(level: level, column: columns.lowerBound + j, row: rows.lowerBound + i), tile))
                    }
                }
                inbox.put(.decoded(keyed))
            } catch {
                inbox.put(.decodeFailed)
            }
            wake()
        }
    }

    /// Once everything on screen is sharp, the ring of tiles around it is decoded too (in one
    /// pass, the rows above read once more): a pan of up to a tile then shows sharp pixels at
    /// once instead of after another pass. Only when the ring fits half the budget, so it
    /// never pushes out what is on screen.
    private func prefetch(_ source: any RegionSource, level: Int, rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        let (lw, lh) = source.size(level: level)
        let lastColumn = (lw - 1) / Self.side, lastRow = (lh - 1) / Self.side
        let ring = (rows: max(0, rows.lowerBound - 1)...min(lastRow, rows.upperBound + 1),
                    columns: max(0, columns.lowerBound - 1)...min(lastColumn, columns.upperBound + 1))
        guard ring.rows.count * ring.columns.count * Self.side * Self.side <= budget / 2 else { return }
        let complete = ring.rows.allSatisfy { r in ring.columns.allSatisfy { tiles[Key(level: level, column: $0, row: r)] != nil } }
        if !complete { request(source, level: level, rows: ring.rows, columns: ring.columns) }
    }

    /// Lets go of the tiles drawn longest ago until the rest fit the budget.
    private func evict() {
        var held = heldPixels
        guard held > budget else { return }
        for key in lastDrawn.sorted(by: { $0.value < $1.value }).map(\.key) where held > budget {
            if let t = tiles.removeValue(forKey: key) { held -= t.width * t.height }
            lastDrawn[key] = nil
        }
    }
}

/// What the decode threads hand the main thread.
enum TileArrival: Sendable {
    case opened(any RegionSource)
    case failed
    case decoded([(StillTiles.Key, VideoFrame)])
    case decodeFailed
}

/// Arrivals from the decode threads, taken on the main thread.
final class TileInbox: Sendable {
    private let items = Mutex<[TileArrival]>([])

    func put(_ a: TileArrival) { items.withLock { $0.append(a) } }

    func take() -> [TileArrival] { items.withLock { list in defer { list.removeAll() }; return list } }
}
