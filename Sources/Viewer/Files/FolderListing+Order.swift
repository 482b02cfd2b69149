import Glibc
import MediaCore
import Playback

/// The orders of a listing. Keys are worked out once per file, not once per comparison,
/// so sorting 100,000 names stays quick.
extension FolderListing {
    func sorted(_ entries: [Walk.Entry]) -> [Walk.Entry] {
        switch order {
        case .name:
            return byKey(entries) { NaturalKey(plain: Self.nameKey($0.relative)) }
        case .natural:
            return byKey(entries) { NaturalKey($0.relative) }
        case .mtime:
            return byKey(entries) { e in
                NaturalKey(e.relative, after: Self.fileStatus(e.path).map {
                    Double($0.st_mtim.tv_sec) + Double($0.st_mtim.tv_nsec) / 1e9 } ?? 0)
            }
        case .size:
            return byKey(entries) { NaturalKey($0.relative, after: Self.fileStatus($0.path).map { Double($0.st_size) } ?? 0) }
        case .random:
            return entries.shuffled()
        case .exifDate:
            return byKey(entries) { e in
                NaturalKey(e.relative, after: PhotoMetadata.dateTaken(path: e.path)
                    ?? Self.fileStatus(e.path).map { Double($0.st_mtim.tv_sec) } ?? 0)
            }
        }
    }

    /// Sorts by one byte key per entry, made once.
    private func byKey(_ entries: [Walk.Entry], _ key: (Walk.Entry) -> NaturalKey) -> [Walk.Entry] {
        let keys = entries.map(key)
        return entries.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
    }

    /// Name bytes with the folder separator lowest, so a folder's files stay together
    /// ("a/x" before "a b/y").
    static func nameKey(_ relative: String) -> [UInt8] {
        FileName.bytes(relative).map { $0 == UInt8(ascii: "/") ? 1 : $0 }
    }

    private static func fileStatus(_ path: String) -> stat? {
        var st = stat()
        return FileName.withCString(path) { stat($0, &st) } == 0 ? st : nil
    }
}
