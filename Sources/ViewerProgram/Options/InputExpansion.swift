import FoundationEssentials
import Glibc
import MediaCore
import Playback
import Viewer

/// Turns the command line's inputs into queue items: a folder becomes its media files, and
/// with `--browse-folder` a single file becomes its whole folder, opened at that file.
///
/// Every folder says in the event log what it held and what was left out, and every
/// folder that could not be read gets one line on stderr while the rest goes on.
struct InputExpansion {
    /// The items, in queue order.
    var items: [String] = []
    /// The item to present first; those before it count as already seen.
    var startIndex = 0
    /// Folders that added nothing, each already reported.
    var emptyFolders = 0

    /// Expands `inputs` as `folders` says, writing `folder` events to `log`; `quiet` leaves
    /// stderr alone (a look at what would be handed to a running player).
    static func expand(_ inputs: [String], folders: ProgramOptions.Folders, log: EventLog?,
                       quiet: Bool = false) -> InputExpansion {
        let listing = FolderListing(order: folders.sort, reversed: folders.reversed, recursive: folders.recursive)
        var out = InputExpansion()
        if folders.browseFolder, inputs.count == 1, let file = localPath(inputs[0]), !isFolder(file) {
            let found = listing.list(around: file)
            if !quiet { report(found, folder: parent(of: file), log: log) }
            out.items = found.files
            out.startIndex = found.startIndex
            // The opened file keeps the spelling it was given, as the user (and a script
            // reading the log) knows it.
            if out.items.indices.contains(found.startIndex) { out.items[found.startIndex] = inputs[0] }
            return out
        }
        for input in inputs {
            guard let path = localPath(input), isFolder(path) else {
                out.items.append(input)
                continue
            }
            let found = listing.list(folder: path)
            if !quiet { report(found, folder: path, log: log) }
            if found.files.isEmpty { out.emptyFolders += 1 }
            if found.files.isEmpty && !quiet {
                StandardError.write("mediaview: folder \(path): no media files to show "
                    + "(\(found.skippedHidden) hidden and \(found.skippedOther) other entries left out)")
            }
            out.items += found.files
        }
        return out
    }

    private static func report(_ found: FolderListing.Result, folder: String, log: EventLog?) {
        for p in found.problems { StandardError.write("mediaview: \(p)") }
        log?.log("folder", [("path", .string(folder)), ("files", .int(found.files.count)),
                            ("skipped_hidden", .int(found.skippedHidden)), ("skipped_other", .int(found.skippedOther)),
                            ("unreadable", .int(found.problems.count))])
    }

    /// The local path an input names (a path or a `file://` URL); nil for web addresses.
    static func localPath(_ input: String) -> String? {
        if input.lowercased().hasPrefix("file://") { return FileName.path(fromFileURL: input) }
        if input.contains("://") { return nil }
        return input
    }

    private static func isFolder(_ path: String) -> Bool {
        var st = stat()
        return FileName.withCString(path) { stat($0, &st) } == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    private static func parent(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }
}
