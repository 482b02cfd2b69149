import CX11
import Glibc

/// Fetches one ICCCM selection's data into a property of our window: whole, or in chunks
/// when the owner sends INCR. Bounded in size, and given up when the owner goes silent, so a
/// huge or dead source never freezes the window. Drops (XdndSelection) and pastes
/// (CLIPBOARD) both read through one of these.
///
/// A transfer also has a whole-transfer limit: an owner that keeps sending a byte now and
/// then is never silent, yet would keep the paste busy for ever.
final class SelectionReader {
    /// How a transfer went.
    enum Outcome {
        /// The bytes, and the type the owner said they are.
        case done([UInt8], type: Atom)
        /// Why nothing usable came, for one line to the user.
        case failed(String)
    }

    let display: XDisplay
    let window: UInt
    /// Our property the owner writes into.
    let property: Atom
    /// The most a transfer may carry.
    let limit: Int
    private var transfer: (selection: Atom, type: Atom, data: [UInt8], incremental: Bool, deadline: Double, end: Double)?
    /// Seconds a silent owner is waited for.
    static let patience = 5.0
    /// Seconds a whole transfer may take: megabytes on a local display take milliseconds,
    /// so an owner still sending after this is stuck or hostile.
    static let longest = 10.0
    private var watchesProperties = false

    init(display: XDisplay, window: UInt, property: String, limit: Int) {
        self.display = display
        self.window = window
        self.property = display.atom(property)
        self.limit = limit
    }

    /// Whether a transfer is under way.
    var isBusy: Bool { transfer != nil }
    /// When (on `now()`'s clock) a silent or too slow owner is given up.
    var deadline: Double? { transfer.map { min($0.deadline, $0.end) } }

    /// Asks the owner of `selection` for its data as `type`.
    func request(_ selection: Atom, as type: Atom, time: UInt) {
        if !watchesProperties {
            // Incremental transfers arrive as PropertyNotify on our window; asked for only
            // now, so a window that never reads a selection is not woken by property changes.
            var attrs = XWindowAttributes()
            XGetWindowAttributes(display.raw, window, &attrs)
            XSelectInput(display.raw, window, attrs.your_event_mask | PropertyChangeMask)
            watchesProperties = true
        }
        XDeleteProperty(display.raw, window, property)
        let now = Self.now()
        transfer = (selection, type, [], false, now + Self.patience, now + Self.longest)
        XConvertSelection(display.raw, selection, type, property, window, time)
        XFlush(display.raw)
    }

    /// The owner answered: the data, the start of an incremental transfer, or a refusal.
    /// Nil while the transfer goes on (or the event is not for us).
    func selectionNotify(_ s: XSelectionEvent) -> Outcome? {
        guard let t = transfer, s.selection == t.selection, s.requestor == window else { return nil }
        guard s.property != 0 else { return end(.failed("the program that has it refused to send it")) }
        guard let (type, bytes, whole) = take() else { return end(.failed("it could not be read")) }
        if type == display.atom("INCR") {
            transfer?.incremental = true
            transfer?.deadline = Self.now() + Self.patience
            return nil
        }
        guard whole else { return end(.failed(tooBig)) }
        return end(.done(bytes, type: type))
    }

    /// A chunk of an incremental transfer is there; an empty one ends it.
    func propertyNotify(_ p: XPropertyEvent) -> Outcome? {
        guard let t = transfer, t.incremental, p.window == window, p.atom == property, p.state == PropertyNewValue,
              let (_, bytes, _) = take() else { return nil }
        if bytes.isEmpty { return end(.done(t.data, type: t.type)) }
        guard t.data.count + bytes.count <= limit else { return end(.failed(tooBig)) }
        transfer?.data += bytes
        transfer?.deadline = Self.now() + Self.patience
        return nil
    }

    /// Gives up a transfer whose owner went silent (it died, or hangs), or sends too slowly.
    func expire() -> Outcome? {
        let now = Self.now()
        guard let t = transfer, now >= min(t.deadline, t.end) else { return nil }
        if now >= t.end && now < t.deadline {
            return end(.failed("the program it came from sent it too slowly (still not all there after \(Int(Self.longest)) s)"))
        }
        return end(.failed("the program it came from stopped answering"))
    }

    private var tooBig: String { "it is larger than \(limit >> 20) MiB" }

    private func end(_ o: Outcome) -> Outcome {
        transfer = nil
        XDeleteProperty(display.raw, window, property)
        XFlush(display.raw)
        return o
    }

    /// Reads and deletes our property: its type, bytes (8-bit data only), and whether that
    /// was all of it (within the limit).
    private func take() -> (Atom, [UInt8], Bool)? {
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XDisplay.errorCode.store(0, ordering: .relaxed)
        let r = XGetWindowProperty(display.raw, window, property, 0, limit / 4 + 1, 1, UInt(AnyPropertyType),
                                   &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard r == Success, XDisplay.errorCode.load(ordering: .relaxed) == 0 else { return nil }
        if type == display.atom("INCR") { return (type, [], true) }
        guard format == 8 || count == 0 else { return nil }
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        return (type, bytes, after == 0 && bytes.count <= limit)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// Something that reads a selection (a drop target, the paste reader): the X events of
/// its transfer go to its reader, and the end of the transfer becomes a window event.
protocol SelectionClient: AnyObject {
    var reader: SelectionReader { get }
    /// What the end of a transfer (nil: not ended) means for the window.
    func outcome(_ o: SelectionReader.Outcome?) -> WindowEvent?
}

extension SelectionClient {
    /// The owner answered the conversion.
    func selectionNotify(_ s: XSelectionEvent) -> WindowEvent? { outcome(reader.selectionNotify(s)) }
    /// A chunk of an incremental transfer came.
    func propertyNotify(_ p: XPropertyEvent) -> WindowEvent? { outcome(reader.propertyNotify(p)) }
    /// When a silent owner is given up, if a transfer is waiting.
    var deadline: Double? { reader.deadline }
    /// Gives up a transfer whose owner went silent (it died, or hangs).
    func expire() -> WindowEvent? { outcome(reader.expire()) }
}
