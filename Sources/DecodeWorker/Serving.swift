import CFFmpeg
import Glibc
import MediaCore
import Playback

/// A request served: its memfd read, the still (or its first look) decoded, the answer made.
enum Serving {
    /// What a request's numbers and memfd hold, read once for either kind of request.
    struct Request {
        let name: String
        let icc: [UInt8]?
        /// The picture where the memfd is mapped, valid while the request is served.
        let raw: UnsafeRawBufferPointer
        let target: (width: Int, height: Int)?
        let maxPixels: Int

        /// The picture copied, for the decoders that keep their input (FFmpeg's); libjpeg
        /// reads `raw` where it is.
        var bytes: [UInt8] { Array(raw) }
    }

    /// The request's numbers: ICC length, target width and height (0: none), pixel budget,
    /// picture length; its fd: the display's ICC profile then the picture, sealed. A
    /// `decodeSoFar` request carries the start of a JPEG still downloading. A JPEG worker
    /// (`jpegOnly`, without FFmpeg) hands back what libjpeg alone cannot show.
    static func decode(_ request: WorkerMessage, jpegOnly: Bool) -> WorkerMessage {
        read(request) { still($0, soFar: request.kind == .decodeSoFar, jpegOnly: jpegOnly) }
    }

    private static func still(_ r: Request, soFar: Bool, jpegOnly: Bool) -> WorkerMessage {
        do {
            if jpegOnly && !soFar {
                let still = try StillWork.decodeJPEG(r.raw, name: r.name, target: r.target, maxPixels: r.maxPixels,
                                                     displayProfile: r.icc)
                return still.answer() ?? outOfMemory(r.name)
            }
            if soFar {
                let still = try StillWork.decodeSoFar(r.bytes, name: r.name, target: r.target, maxPixels: r.maxPixels,
                                                      displayProfile: r.icc)
                return still.answer() ?? outOfMemory(r.name)
            }
            switch try StillWork.decoded(r.bytes, name: r.name, target: r.target, maxPixels: r.maxPixels,
                                         displayProfile: r.icc) {
            case .moving:
                return WorkerMessage(kind: .moving, text: r.name)
            case .still(let still):
                return still.answer() ?? outOfMemory(r.name)
            }
        } catch {
            return failure(error)
        }
    }

    /// The one line for `error`, with its number: out of memory (the worker is replaced), a
    /// picture a JPEG worker hands back, or neither.
    private static func failure(_ error: AVError) -> WorkerMessage {
        let number = error.code == cff_averror(ENOMEM) ? Int64(ENOMEM) : error.code == StillWork.needsFFmpegCode ? Int64(ENOSYS) : 0
        return WorkerMessage(kind: .failure, numbers: [number], text: error.message)
    }

    /// A PNG or TIFF too large to read whole, read through the request's fd a few rows at a
    /// time (`LargeStill`); numbers: target width and height (0: none), pixel budget. With a
    /// `store` (closed here), the same pass writes the zoom's tiles into it, and the answer
    /// says whether they all went.
    static func decodeLarge(_ request: WorkerMessage, store: Int32) -> WorkerMessage {
        defer { if store >= 0 { close(store) } }
        let name = request.text.isEmpty ? "picture" : request.text
        let n = request.numbers
        guard request.fd >= 0, n.count >= 3, n[0] >= 0, n[1] >= 0, n[2] > 0 else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        let target = n[0] > 0 && n[1] > 0 ? (Int(n[0]), Int(n[1])) : nil
        do {
            let still = try LargeStill.decode(fd: request.fd, name: name, target: target, maxPixels: Int(n[2]), store: store)
            guard var answer = still.answer() else { return outOfMemory(name) }
            // After the picture's numbers: 1 when every tile reached the store.
            answer.numbers.append(still.tilesStored ? 1 : 0)
            return answer
        } catch {
            return failure(error)
        }
    }

    /// A photo's first look (`StillWork.glance`), asked as a decode is, with one more number:
    /// 1 when the eighth-size decode may stand in for a missing camera thumbnail. A failure
    /// without text when the photo has none, which is no fault of the file.
    static func glance(_ request: WorkerMessage) -> WorkerMessage {
        let allowed: FirstLook.Allowed = request.numbers[5] == 1 ? .thumbnailOrEighth : .cameraThumbnail
        return read(request) { r in
            guard let look = StillWork.glance(r.raw, name: r.name, target: r.target, maxPixels: r.maxPixels,
                                              displayProfile: r.icc, allowed: allowed) else {
                return WorkerMessage(kind: .failure)
            }
            return look.answer() ?? outOfMemory(r.name)
        }
    }

    /// Maps the request's memfd and hands what it holds to `body`.
    static func read(_ request: WorkerMessage, _ body: (Request) -> WorkerMessage) -> WorkerMessage {
        let name = request.text.isEmpty ? "picture" : request.text
        let n = request.numbers
        let iccCount = Int(n[0]), target = n[1] > 0 && n[2] > 0 ? (Int(n[1]), Int(n[2])) : nil
        let maxPixels = Int(n[3]), count = Int(n[4])
        guard request.fd >= 0, iccCount >= 0, count > 0, let size = SealedBytes.size(request.fd),
              size == iccCount + count else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        let p = mmap(nil, size, PROT_READ, MAP_SHARED, request.fd, 0)
        guard let p, p != MAP_FAILED else { return outOfMemory(name) }
        defer { munmap(p, size) }
        let icc = iccCount > 0 ? Array(UnsafeRawBufferPointer(start: p, count: iccCount)) : nil
        let raw = UnsafeRawBufferPointer(start: p + iccCount, count: count)
        return body(Request(name: name, icc: icc, raw: raw, target: target, maxPixels: maxPixels))
    }

    static func outOfMemory(_ name: String) -> WorkerMessage {
        WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "\(name): out of memory")
    }
}
