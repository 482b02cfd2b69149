import CFFmpeg
import MediaCore

/// One GET over FFmpeg's `tcp` or `tls` protocol, with the HTTP/1.1 framing read by us.
///
/// FFmpeg's own http protocol reports a chunked answer cut before its last chunk, and an
/// HTTP/1.0 answer that ends at the close, the same way as a complete one (or the other way
/// round), so neither whether a download is whole nor whether it may be cached could be
/// told. Here the body's framing is explicit: a Content-Length, chunks ending in the last
/// (empty) one, or the close; and a body ends either as its framing promised or cut.
/// Certificates are still checked by FFmpeg's tls protocol, and the same timeouts and
/// interrupt apply, since every byte goes through an `AVIOContext` FFmpeg opened.
final class HTTPConnection {
    enum Framing: Equatable {
        case length(Int64)
        case chunked
        case close
    }

    /// How a body read went.
    enum Read: Equatable {
        case data(Int)
        /// The body ended; `proven` when the framing said so (length reached, last chunk).
        case end(proven: Bool)
        /// The connection closed before the framing's end.
        case cut
        case failed(Int32)
    }

    let head: HTTPHead
    private let framing: Framing
    private var pb: UnsafeMutablePointer<AVIOContext>?
    private var pending: [UInt8]
    private var pendingStart = 0
    private var received: Int64 = 0
    private var chunkLeft: Int64 = 0
    private var chunkNeedsCRLF = false
    private var done = false

    private init(pb: UnsafeMutablePointer<AVIOContext>, head: HTTPHead, leftover: [UInt8]) {
        self.pb = pb
        self.head = head
        framing = head.framing
        pending = leftover
    }

    deinit { close() }

    func close() {
        if pb != nil { avio_closep(&pb) }
    }

    /// Connects, sends `GET` (with `Range` from `offset` when it is not 0) and reads the
    /// answer's head. Redirects are followed by the caller (`HTTPFetch`).
    static func request(_ target: HTTPTarget, from offset: Int64, options: SourceOptions,
                        interrupt: AVIOInterruptCB) throws(AVError) -> HTTPConnection {
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        for (k, v) in options.formatOptions(for: target.url) { av_dict_set(&dict, k, v, 0) }
        var cb = interrupt
        var pb: UnsafeMutablePointer<AVIOContext>?
        let r = avio_open2(&pb, target.socketURL, AVIO_FLAG_READ_WRITE, &cb, &dict)
        guard r >= 0, let pb else {
            throw AVError(code: r, message: NetworkErrors.openFailure(r, url: target.url, options: options, elapsed: 0))
        }
        var request = "GET \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
        request += "User-Agent: mediaview\r\nAccept: */*\r\n"
        // Media is already compressed; a server that compresses it anyway could hand over a
        // small body that expands without bound.
        request += "Accept-Encoding: identity\r\nConnection: close\r\n"
        if offset > 0 { request += "Range: bytes=\(offset)-\r\n" }
        if let auth = target.authorization { request += "Authorization: Basic \(auth)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        avio_write(pb, bytes, Int32(bytes.count))
        avio_flush(pb)
        var owned: UnsafeMutablePointer<AVIOContext>? = pb
        if pb.pointee.error < 0 {
            let e = pb.pointee.error
            avio_closep(&owned)
            throw AVError(code: e, message: NetworkErrors.openFailure(e, url: target.url, options: options, elapsed: 0))
        }
        var buffer: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while HTTPHead.endOfHead(buffer) == nil {
            let n = avio_read_partial(pb, &scratch, Int32(scratch.count))
            if n <= 0 {
                avio_closep(&owned)
                let code = n == 0 ? cff_averror_eof : n
                if code == cff_averror_eof || code == cff_averror(ECONNRESET) {
                    throw AVError(code: cff_averror(EIO), message: "the server closed the connection without answering")
                }
                throw AVError(code: code, message: NetworkErrors.openFailure(code, url: target.url, options: options, elapsed: 0))
            }
            buffer += scratch[..<Int(n)]
            if buffer.count > 64 * 1024 {
                avio_closep(&owned)
                throw AVError(code: cff_averror_invaliddata, message: "the server's answer is not HTTP (no end to its headers)")
            }
        }
        let end = HTTPHead.endOfHead(buffer)!
        guard let head = HTTPHead(Array(buffer[..<end])) else {
            avio_closep(&owned)
            throw AVError(code: cff_averror_invaliddata, message: "the server's answer is not HTTP")
        }
        return HTTPConnection(pb: pb, head: head, leftover: Array(buffer[end...]))
    }

    /// Reads up to `count` bytes of the body into `buffer`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Read {
        if done { return .end(proven: framing != .close) }
        switch framing {
        case .close:
            let r = raw(buffer, count)
            if case .end = r { done = true }
            return r
        case .length(let total):
            if received >= total { done = true; return .end(proven: true) }
            let r = raw(buffer, Int(min(Int64(count), total - received)))
            if case .data(let n) = r { received += Int64(n); return r }
            if case .end = r { return .cut }
            return r
        case .chunked:
            if chunkLeft == 0 {
                if chunkNeedsCRLF {
                    guard case .line = line() else { return .cut }
                    chunkNeedsCRLF = false
                }
                guard case .line(let text) = line() else { return .cut }
                let hex = text.split(separator: ";").first.map { $0.trimmingSpaces } ?? ""
                guard let size = Int64(hex, radix: 16), size >= 0 else { return .failed(cff_averror_invaliddata) }
                if size == 0 {
                    // The last chunk: what follows is trailers, which media does not need.
                    done = true
                    return .end(proven: true)
                }
                chunkLeft = size
            }
            let r = raw(buffer, Int(min(Int64(count), chunkLeft)))
            if case .data(let n) = r {
                chunkLeft -= Int64(n)
                if chunkLeft == 0 { chunkNeedsCRLF = true }
                return r
            }
            if case .end = r { return .cut }
            return r
        }
    }

    private enum Line { case line(String), closed, failed(Int32) }

    /// One CRLF-ended line of the chunk framing.
    private func line() -> Line {
        var bytes: [UInt8] = []
        var one: UInt8 = 0
        while bytes.count < 4096 {
            switch raw(&one, 1) {
            case .data:
                if one == 0x0A {
                    if bytes.last == 0x0D { bytes.removeLast() }
                    return .line(String(decoding: bytes, as: UTF8.self))
                }
                bytes.append(one)
            case .failed(let e): return .failed(e)
            default: return .closed
            }
        }
        return .failed(cff_averror_invaliddata)
    }

    /// Bytes as they come off the connection: what was read with the head first.
    private func raw(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Read {
        guard count > 0 else { return .data(0) }
        if pendingStart < pending.count {
            let n = min(count, pending.count - pendingStart)
            pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + pendingStart, count: n) }
            pendingStart += n
            return .data(n)
        }
        guard let pb else { return .end(proven: false) }
        let n = avio_read_partial(pb, buffer, Int32(min(count, Int(Int32.max))))
        if n > 0 { return .data(Int(n)) }
        if n == 0 || n == cff_averror_eof { return .end(proven: false) }
        return .failed(n)
    }
}
