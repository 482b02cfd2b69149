import CX11
import Glibc

/// Serves what the user copied (Ctrl+C) on the CLIPBOARD: the picture as `image/png`, its
/// source as text, and a local file as a file (`text/uri-list` for most file managers,
/// `x-special/gnome-copied-files` for Nautilus and its kin), so pasting into a folder
/// copies the file. It is served for as long as we own the selection, whatever has the
/// focus, until another program takes it over. Pictures larger than one request go in
/// chunks (ICCCM's INCR), each sent when the reader deleted the one before.
final class ClipboardOwner {
    let display: XDisplay
    let window: UInt
    private var png: [UInt8] = []
    private var text: [UInt8] = []
    /// The file's `file://` URI, when the source is a local file.
    private var fileURI: String?
    /// Chunked transfers under way, by reader window and property.
    private var chunked: [Key: (offset: Int, started: Double)] = [:]
    /// Above this many bytes a picture goes in chunks.
    static let chunk = 256 << 10

    struct Key: Hashable {
        let window: UInt
        let property: Atom
    }

    init(display: XDisplay, window: UInt) {
        self.display = display
        self.window = window
    }

    /// Takes the CLIPBOARD with a picture (PNG bytes, may be empty) and text. False when the
    /// server gave it to someone else.
    func offer(png: [UInt8], text: String, fileURI: String? = nil) -> Bool {
        self.png = png
        self.text = Array(text.utf8)
        self.fileURI = fileURI
        chunked.removeAll()
        let clipboard = display.atom("CLIPBOARD")
        XSetSelectionOwner(display.raw, clipboard, window, UInt(CurrentTime))
        XFlush(display.raw)
        return XGetSelectionOwner(display.raw, clipboard) == window
    }

    /// Another program took the clipboard: what we held is let go.
    func selectionClear(_ c: XSelectionClearEvent) {
        guard c.selection == display.atom("CLIPBOARD") else { return }
        png = []
        text = []
        fileURI = nil
        chunked.removeAll()
    }

    /// A program asks for the clipboard as some type: it gets it, or a refusal.
    func selectionRequest(_ r: XSelectionRequestEvent) {
        // Obsolete readers name no property; ICCCM says to use the target then.
        let property = r.property != 0 ? r.property : r.target
        var answered = r.selection == display.atom("CLIPBOARD") && (!png.isEmpty || !text.isEmpty)
        if answered {
            answered = write(r.target, to: r.requestor, property)
        }
        var ev = XEvent()
        ev.xselection.type = SelectionNotify
        ev.xselection.requestor = r.requestor
        ev.xselection.selection = r.selection
        ev.xselection.target = r.target
        ev.xselection.property = answered ? property : 0
        ev.xselection.time = r.time
        XSendEvent(display.raw, r.requestor, 0, 0, &ev)
        XFlush(display.raw)
    }

    private var fileTypes: [Atom] {
        ["text/uri-list", "x-special/gnome-copied-files"].map { display.atom($0) }
    }

    private var textTypes: [Atom] {
        ["UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING"].map { display.atom($0) }
    }

    private func write(_ target: Atom, to requestor: UInt, _ property: Atom) -> Bool {
        XDisplay.errorCode.store(0, ordering: .relaxed)
        if target == display.atom("TARGETS") {
            var list = [display.atom("TARGETS")] + (png.isEmpty ? [] : [display.atom("image/png")]) + textTypes
                + (fileURI == nil ? [] : fileTypes)
            XChangeProperty(display.raw, requestor, property, XA_ATOM, 32, PropModeReplace,
                            list.withUnsafeMutableBytes { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) },
                            Int32(list.count))
        } else if target == display.atom("image/png"), !png.isEmpty {
            if png.count > Self.chunk {
                // INCR: the size first; the chunks follow as the reader deletes the property.
                var size = UInt(png.count)
                XSelectInput(display.raw, requestor, PropertyChangeMask)
                XChangeProperty(display.raw, requestor, property, display.atom("INCR"), 32, PropModeReplace,
                                withUnsafeBytes(of: &size) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
                chunked[Key(window: requestor, property: property)] = (0, SelectionReader.now())
            } else {
                put(png[...], type: target, on: requestor, property)
            }
        } else if textTypes.contains(target) {
            put(text[...], type: target, on: requestor, property)
        } else if let uri = fileURI, target == display.atom("text/uri-list") {
            // RFC 2483: one URI a line, each ended by CR LF.
            put(Array((uri + "\r\n").utf8)[...], type: target, on: requestor, property)
        } else if let uri = fileURI, target == display.atom("x-special/gnome-copied-files") {
            put(Array("copy\n\(uri)".utf8)[...], type: target, on: requestor, property)
        } else {
            return false
        }
        return XDisplay.errorCode.load(ordering: .relaxed) == 0
    }

    /// A reader deleted a chunk: the next goes, and an empty one ends the transfer.
    func propertyNotify(_ p: XPropertyEvent) -> Bool {
        let key = Key(window: p.window, property: p.atom)
        guard p.state == PropertyDelete, let t = chunked[key] else { return false }
        let end = min(png.count, t.offset + Self.chunk)
        put(png[t.offset..<end], type: display.atom("image/png"), on: p.window, p.atom)
        if t.offset == end {
            chunked[key] = nil
            XSelectInput(display.raw, p.window, 0)
        } else {
            chunked[key] = (end, t.started)
        }
        XFlush(display.raw)
        // A reader that went away leaves its transfer behind; forget those after a while.
        let now = SelectionReader.now()
        chunked = chunked.filter { now - $0.value.started < 60 }
        return true
    }

    private func put(_ bytes: ArraySlice<UInt8>, type: Atom, on window: UInt, _ property: Atom) {
        _ = bytes.withUnsafeBufferPointer { b in
            XChangeProperty(display.raw, window, property, type, 8, PropModeReplace, b.baseAddress, Int32(b.count))
        }
    }
}
