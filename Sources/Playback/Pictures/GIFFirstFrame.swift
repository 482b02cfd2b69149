/// Follows the bytes of a GIF as they arrive, to tell when its first frame is all in: then
/// that frame can be shown while the rest of the animation downloads, as browsers show it.
/// A GIF's first frame comes right after its header and colour table, so on a slow link
/// it is in long before the file is.
///
/// It walks the blocks: extensions and the first image descriptor, skipping each one's
/// colour table and data sub-blocks by their lengths, to the empty sub-block that ends the
/// first image's data. Each call goes on from where the last one stopped: the file only grows.
struct GIFFirstFrame {
    private enum Place {
        /// At the block that starts at this offset.
        case block(Int)
        /// In a run of data sub-blocks, at the length byte at this offset; `image` when
        /// they are the first image's.
        case subBlocks(Int, image: Bool)
        /// The first frame is in.
        case complete
        /// Not a GIF this can follow.
        case lost
    }

    private var place: Place?

    /// The signature both versions of the format start with.
    static let signatures: [[UInt8]] = [Array("GIF87a".utf8), Array("GIF89a".utf8)]

    /// Whether `bytes` start as a GIF file does.
    static func isGIF(_ bytes: [UInt8]) -> Bool {
        signatures.contains { bytes.starts(with: $0) }
    }

    /// Whether the first frame is all within `bytes`, the file so far.
    mutating func isComplete(in bytes: [UInt8]) -> Bool {
        while true {
            switch place {
            case nil:
                // The header, then the screen descriptor, whose packed byte says whether a
                // global colour table (3 x 2^(n+1) bytes) follows.
                guard bytes.count >= 13 else { return false }
                guard Self.isGIF(bytes) else { place = .lost; return false }
                place = .block(13 + Self.colourTable(bytes[10]))
            case .block(let i)?:
                guard i + 1 < bytes.count else { return false }
                switch bytes[i] {
                case 0x21:
                    // An extension: its label, then sub-blocks.
                    place = .subBlocks(i + 2, image: false)
                case 0x2C:
                    // The image descriptor (10 bytes), its local colour table, the LZW code
                    // size, then the image's sub-blocks.
                    guard i + 10 <= bytes.count else { return false }
                    place = .subBlocks(i + 10 + Self.colourTable(bytes[i + 9]) + 1, image: true)
                default:
                    // The trailer, or bytes that are not a GIF's: nothing more to wait for.
                    place = .lost
                    return false
                }
            case .subBlocks(let i, let image)?:
                guard i < bytes.count else { return false }
                let length = Int(bytes[i])
                if length == 0 {
                    place = image ? .complete : .block(i + 1)
                } else {
                    place = .subBlocks(i + 1 + length, image: image)
                }
            case .complete?:
                return true
            case .lost?:
                return false
            }
        }
    }

    /// The bytes of the colour table a packed field announces: none without its top bit.
    private static func colourTable(_ packed: UInt8) -> Int {
        packed & 0x80 == 0 ? 0 : 3 << (Int(packed & 0x07) + 1)
    }
}
