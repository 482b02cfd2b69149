import CSandbox

/// The pages of a process's program and libraries that are never written: code, constants,
/// symbol tables.
///
/// A process maps every such page it has touched, once and for good, though much of it ran
/// only while it started (loading, warming up, reading its options). Letting go of them
/// drops the process's page-table entries only: the pages stay in the page cache, a page
/// still in use comes back on its next touch (a minor fault), and the kernel can reclaim
/// the others first when memory runs short. Pages that were ever written are never
/// dropped.
public enum ReadOnlyPages {
    /// Lets go of every read-only segment of the program and its loaded libraries, in about
    /// 1-2 ms; returns how many segments were let go.
    @discardableResult
    public static func letGo() -> Int { Int(sbx_release_read_only_file_pages()) }
}
