import CFFmpeg
import CSandbox
import Glibc

/// Packets as they cross from a worker's demuxer to the viewer: the numbers of a
/// `containerPacket` message, and the bytes in the worker's packet memfd.
///
/// Numbers: stream, pts, dts, duration, flags, byte position, size, and the side data's
/// count and length in bytes. The memfd holds the packet's bytes, then each piece of side
/// data as its type and length (two 32-bit numbers) and its bytes. The worker writes the
/// memfd and the viewer reads it with `pread` only: a worker that shrank it under the
/// viewer gets a short read and a refused packet, never a fault here.
package enum ContainerPackets {
    /// The largest packet taken: a 4K intra frame is a few MB; a file claiming more is not
    /// played.
    static let largest = 256 << 20
    /// The most side data one packet may carry, in bytes (AAC's skip samples, a new
    /// parameter set, a palette).
    static let largestSide = 1 << 20

    /// The worker's message for `packet`, its bytes written into `area` (a memfd of the
    /// worker's, replaced by a larger one when needed; `fresh` says the viewer has not seen
    /// it). nil without memory.
    package static func message(_ packet: UnsafeMutablePointer<AVPacket>, area: inout (fd: Int32, fresh: Bool)?) -> WorkerMessage? {
        let p = packet.pointee
        let size = Int(max(0, p.size))
        var side: [UInt8] = []
        var sideCount = 0
        for i in 0..<Int(max(0, p.side_data_elems)) {
            let sd = p.side_data[i]
            let n = Int(sd.size)
            guard side.count + 8 + n <= largestSide else { break }
            withUnsafeBytes(of: Int32(bitPattern: sd.type.rawValue)) { side.append(contentsOf: $0) }
            withUnsafeBytes(of: Int32(n)) { side.append(contentsOf: $0) }
            if n > 0 { side.append(contentsOf: UnsafeBufferPointer(start: sd.data, count: n)) }
            sideCount += 1
        }
        if area == nil {
            let fd = sbx_memfd("mediaview-demuxed")
            guard fd >= 0 else { return nil }
            area = (fd, true)
        }
        guard let a = area, write(a.fd, p.data, size, at: 0), side.withUnsafeBytes({ write(a.fd, $0.baseAddress, $0.count, at: size) }) else {
            return nil
        }
        let numbers: [Int64] = [Int64(p.stream_index), p.pts, p.dts, p.duration, Int64(p.flags), p.pos, Int64(size),
                                Int64(sideCount), Int64(side.count)]
        // The message's fd is closed once sent: it carries a copy, the worker keeps its own.
        guard !a.fresh else {
            let copy = fcntl(a.fd, F_DUPFD_CLOEXEC, 0)  // the filter allows fcntl, not dup
            guard copy >= 0 else { return nil }
            area?.fresh = false
            return WorkerMessage(kind: .containerPacket, numbers: numbers, fd: copy)
        }
        return WorkerMessage(kind: .containerPacket, numbers: numbers)
    }

    /// Writes at `offset` with `lseek` and `write`: the worker's filter allows no `pwrite`.
    private static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, at offset: Int) -> Bool {
        guard count > 0, let bytes else { return true }
        guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else { return false }
        var done = 0
        while done < count {
            let n = Glibc.write(fd, bytes + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Reads the packet `m` describes from `area` (the worker's packet memfd) into
    /// `packet`, for a container of `streams` streams; false when the message is malformed.
    static func take(_ m: WorkerMessage, area: Int32, streams: Int, into packet: Packet) -> Bool {
        let n = m.numbers
        guard m.kind == .containerPacket, n.count >= 9, area >= 0, (0..<Int64(streams)).contains(n[0]),
              (0...Int64(largest)).contains(n[6]), (0...Int64(largestSide)).contains(n[8]), (0...64).contains(n[7]) else {
            return false
        }
        let size = Int(n[6]), sideBytes = Int(n[8])
        let raw = packet.raw
        cff_packet_unref(raw)
        guard cff_new_packet(raw, Int32(size)) >= 0 else { return false }
        guard read(area, into: raw.pointee.data, count: size, at: 0) else {
            cff_packet_unref(raw)
            return false
        }
        raw.pointee.stream_index = Int32(n[0])
        raw.pointee.pts = n[1]
        raw.pointee.dts = n[2]
        raw.pointee.duration = n[3]
        raw.pointee.flags = Int32(truncatingIfNeeded: n[4]) & (AV_PKT_FLAG_KEY | AV_PKT_FLAG_CORRUPT | AV_PKT_FLAG_DISCARD | AV_PKT_FLAG_DISPOSABLE)
        raw.pointee.pos = n[5]
        guard sideBytes > 0 else { return n[7] == 0 }
        var side = [UInt8](repeating: 0, count: sideBytes)
        guard side.withUnsafeMutableBytes({ read(area, into: $0.baseAddress, count: sideBytes, at: size) }) else {
            cff_packet_unref(raw)
            return false
        }
        var at = 0
        for _ in 0..<Int(n[7]) {
            guard at + 8 <= sideBytes else { break }
            let type = side.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Int32.self) }
            let count = Int(side.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at + 4, as: Int32.self) })
            at += 8
            guard count >= 0, at + count <= sideBytes, type >= 0, type < AV_PKT_DATA_NB.rawValue else {
                cff_packet_unref(raw)
                return false
            }
            if let dst = cff_packet_new_side_data(raw, AVPacketSideDataType(rawValue: UInt32(type)), count), count > 0 {
                side.withUnsafeBytes { _ = memcpy(dst, $0.baseAddress! + at, count) }
            }
            at += count
        }
        return true
    }

    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int) -> Bool {
        guard count > 0 else { return true }
        guard let buffer else { return false }
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The bits of `containerRead` asking for the streams in `wanted`.
    static func mask(_ wanted: [Int]) -> [Int64] {
        var words = [Int64](repeating: 0, count: (ContainerDescription.mostStreams + 63) / 64)
        for i in wanted where i >= 0 && i < ContainerDescription.mostStreams { words[i / 64] |= Int64(1) << Int64(i % 64) }
        return words
    }

    /// Whether the read request `m` asks for stream `index`.
    package static func wants(_ m: WorkerMessage, _ index: Int) -> Bool {
        guard index >= 0, index / 64 < m.numbers.count else { return false }
        return m.numbers[index / 64] & (Int64(1) << Int64(index % 64)) != 0
    }
}
