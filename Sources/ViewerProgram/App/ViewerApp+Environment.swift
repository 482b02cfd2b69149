import FoundationEssentials
import Glibc
import Viewer

/// Where the program finds and keeps things on this computer: its assets, its state, the
/// trash. The library reads no environment; these are the program's choices.
extension ViewerApp {
    /// Where the program keeps what it remembers between runs: `$XDG_STATE_HOME/mediaview`,
    /// or `~/.local/state/mediaview` when that is unset or not absolute (as the XDG spec
    /// says); nil when not even HOME is known.
    static func stateDirectory(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/mediaview" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/mediaview" }
        return nil
    }

    /// Where the bundled assets are: `$MEDIAVIEW_ASSETS`, the install's share directory, or
    /// the source tree the binary was built in.
    static func assetsDirectory() -> String {
        let env = ProcessInfo.processInfo.environment
        if let a = env["MEDIAVIEW_ASSETS"], !a.isEmpty { return a }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidates = [exe.appendingPathComponent("../share/mediaview").path,
                          exe.appendingPathComponent("../../assets").path,
                          exe.appendingPathComponent("../../../assets").path,
                          FileManager.default.currentDirectoryPath + "/assets"]
        for c in candidates where FileManager.default.fileExists(atPath: c + "/demo") {
            return URL(fileURLWithPath: c).standardized.path
        }
        return candidates.last!
    }

    /// The demo media in `assets/demo`, by name, for a launch with no inputs.
    static func demoFiles(in assets: String) -> [String] {
        let dir = assets + "/demo"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { dir + "/" + $0 }
    }

    /// `$XDG_DATA_HOME/Trash` when that is an absolute path, as the Trash specification says;
    /// otherwise the library's `~/.local/share/Trash`.
    static func homeTrash(_ environment: [String: String]) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/Trash" }
        return Trash.defaultHomeTrash
    }
}
