import CFFmpeg
import Glibc
import Playback

/// A decode request served: its memfd read, the still decoded, the answer made.
enum Serving {
    /// The request's numbers: ICC length, target width and height (0: none), pixel budget,
    /// picture length; its fd: the display's ICC profile then the picture, sealed. A
    /// `decodeSoFar` request carries the start of a JPEG still downloading.
    static func decode(_ request: WorkerMessage) -> WorkerMessage {
        let name = request.text.isEmpty ? "picture" : request.text
        let n = request.numbers
        let iccCount = Int(n[0]), target = n[1] > 0 && n[2] > 0 ? (Int(n[1]), Int(n[2])) : nil
        let maxPixels = Int(n[3]), count = Int(n[4])
        guard request.fd >= 0, iccCount >= 0, count > 0, let size = SealedBytes.size(request.fd),
              size == iccCount + count else {
            return WorkerMessage(kind: .failure, text: "\(name): the request was malformed")
        }
        let p = mmap(nil, size, PROT_READ, MAP_SHARED, request.fd, 0)
        guard let p, p != MAP_FAILED else {
            return WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)], text: "\(name): out of memory")
        }
        defer { munmap(p, size) }
        let icc = iccCount > 0 ? Array(UnsafeRawBufferPointer(start: p, count: iccCount)) : nil
        let bytes = Array(UnsafeRawBufferPointer(start: p + iccCount, count: count))
        do {
            if request.kind == .decodeSoFar {
                let still = try StillWork.decodeSoFar(bytes, name: name, target: target, maxPixels: maxPixels,
                                                      displayProfile: icc)
                return still.answer() ?? WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)],
                                                       text: "\(name): out of memory")
            }
            switch try StillWork.decoded(bytes, name: name, target: target, maxPixels: maxPixels, displayProfile: icc) {
            case .moving:
                return WorkerMessage(kind: .moving, text: name)
            case .still(let still):
                return still.answer() ?? WorkerMessage(kind: .failure, numbers: [Int64(ENOMEM)],
                                                       text: "\(name): out of memory")
            }
        } catch {
            let memory = error.code == cff_averror(ENOMEM)
            return WorkerMessage(kind: .failure, numbers: [memory ? Int64(ENOMEM) : 0], text: error.message)
        }
    }
}
