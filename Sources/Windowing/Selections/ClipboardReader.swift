import CX11

/// Reads the CLIPBOARD for a paste (Ctrl+V): as a `text/uri-list` when the owner has paths
/// or links (file managers), else as UTF-8 text (browsers' address bars, terminals).
final class ClipboardReader: SelectionClient {
    let display: XDisplay
    /// Fetches the text; a clipboard is text here, so a few MiB is already far too much.
    let reader: SelectionReader
    /// The type asked for now, and the ones left to try after it.
    private var types: [Atom] = []
    private var time: UInt = 0
    /// The most a paste may carry.
    static let limit = 4 << 20

    init(display: XDisplay, window: UInt) {
        self.display = display
        reader = SelectionReader(display: display, window: window, property: "MEDIAVIEW_PASTE", limit: Self.limit)
    }

    /// Starts reading; the result comes as a `.pasted` or `.pasteFailed` event. Returns why
    /// not at once when there is nothing to read.
    func paste(time: UInt) -> String? {
        let clipboard = display.atom("CLIPBOARD")
        guard XGetSelectionOwner(display.raw, clipboard) != 0 else { return "the clipboard is empty" }
        // Said, not ignored: the paste before is still arriving, and ends within
        // `SelectionReader.longest` seconds either way.
        guard !reader.isBusy else { return "the paste before is still arriving" }
        types = ["text/uri-list", "UTF8_STRING"].map { display.atom($0) }
        self.time = time
        reader.request(clipboard, as: types.removeFirst(), time: time)
        return nil
    }

    /// What a transfer's end means for the window.
    func outcome(_ o: SelectionReader.Outcome?) -> WindowEvent? {
        switch o {
        case nil:
            return nil
        case .done(let bytes, let type)?:
            return .pasted(text: String(decoding: bytes, as: UTF8.self), isURIList: type == display.atom("text/uri-list"))
        case .failed(let why)? where !types.isEmpty && why.contains("refused"):
            // The owner has no file list: ask for its text instead.
            reader.request(display.atom("CLIPBOARD"), as: types.removeFirst(), time: time)
            return nil
        case .failed(let why)?:
            return .pasteFailed(why)
        }
    }
}
