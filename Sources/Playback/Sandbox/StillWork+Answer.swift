import CFFmpeg
import Glibc

/// A decoded still as the worker's answer: its pixels in a sealed memfd, its facts as numbers.
extension StillWork.Result {
    /// The answer message: width, height, stride, pixel format, rotation, sample aspect
    /// (num, den), the stored size, whether it is a drawing (1) or not (0), the rows present
    /// (the height for a whole file), the format and codec names as text, and the sealed
    /// pixels; nil without memory. (An animation's frame appends its times to these numbers,
    /// a large picture whether its zoom tiles were stored.)
    public func answer() -> WorkerMessage? {
        let f = frame.raw
        let w = Int(f.pointee.width), h = Int(f.pointee.height)
        let stride = w * 4
        guard w > 0, h > 0, let src = f.pointee.data.0 else { return nil }
        // Decoded straight into a memfd: handed over as it is.
        let fd: Int32
        if let shared = frame.sealedMemfd() {
            fd = shared
        } else {
            let rows = (0..<h).map { y in UnsafeRawBufferPointer(start: src + y * Int(f.pointee.linesize.0), count: stride) }
            guard let copy = SealedBytes.make(rows, name: "mediaview-pixels") else { return nil }
            fd = copy
        }
        let sar = f.pointee.sample_aspect_ratio
        return WorkerMessage(kind: .picture,
                             numbers: [Int64(w), Int64(h), Int64(stride), Int64(f.pointee.format), Int64(rotation),
                                       Int64(sar.num), Int64(sar.den), Int64(stored.width), Int64(stored.height),
                                       isScalable ? 1 : 0, Int64(rowsPresent ?? h)],
                             text: formatName + "\n" + codec, fd: fd)
    }
}
