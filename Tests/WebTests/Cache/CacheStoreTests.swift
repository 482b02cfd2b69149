import Foundation
@testable import MediaCore
@testable import Playback
import TestSupport
import Testing
@testable import Web

/// The disk and memory caches on their own: names, modes, atomic commits, eviction.
@Suite struct CacheStoreTests {
    /// A fresh cache root under the test environment's private temporary directory.
    static func scratch(_ label: String) throws -> String {
        let base = ProcessInfo.processInfo.environment["MEDIAVIEW_TEST_TMP"] ?? NSTemporaryDirectory()
        let path = base + "/cache-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o777
    }

    @Test("SHA-256 matches the FIPS 180-4 and NIST vectors")
    func sha256Vectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // 1,000,000 times "a": many blocks, and the length crosses 2^20 bits.
        #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 55, 56 and 64 bytes: the padding edge cases.
        #expect(SHA256.hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(SHA256.hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(SHA256.hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test("Directories are made 0700, a looser one is tightened, names are hashes")
    func layoutAndNames() throws {
        let root = try Self.scratch("layout") + "/deep/mediaview"
        try FileManager.default.createDirectory(atPath: root + "/video", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let cache = try MediaCache(root: root)
        for d in ["", "/image", "/video", "/audio", "/temp"] {
            #expect(Self.mode(root + d) == 0o700, "\(root + d) is \(String(Self.mode(root + d), radix: 8))")
        }
        let url = "https://example.com/secret-token/clip.MP4?sig=abc"
        let p = cache.path(for: url, in: .video)
        #expect(p == root + "/video/" + SHA256.hex(url) + ".mp4")
        #expect(!p.contains("secret") && !p.contains("example"))
    }

    @Test("An unusable directory is refused with a one-line reason")
    func brokenDirectory() throws {
        let dir = try Self.scratch("broken")
        // A regular file where the cache directory should be.
        _ = FileManager.default.createFile(atPath: dir + "/mediaview", contents: Data("x".utf8))
        #expect(throws: AVError.self) { try MediaCache(root: dir + "/mediaview") }
        do { _ = try MediaCache(root: dir + "/mediaview") } catch {
            #expect(!error.message.contains("\n") && error.message.contains("mediaview"))
        }
    }

    /// Writes `bytes` as the cached copy of `url` through the real commit path.
    static func put(_ cache: MediaCache, _ url: String, bytes: Int) throws -> String {
        let t = try #require(cache.makeTemporary())
        let data = [UInt8](repeating: 7, count: bytes)
        #expect(write(t.fd, data, data.count) == data.count)
        let final = cache.commit(fd: t.fd, temporary: t.path, url: url, directory: .video)
        close(t.fd)
        return try #require(final)
    }

    @Test("Eviction keeps the total under the cap, least recently used first")
    func eviction() throws {
        let cache = try MediaCache(root: try Self.scratch("evict"), capBytes: 250_000)
        let a = try Self.put(cache, "http://h/a.mp4", bytes: 100_000)
        usleep(20_000)
        let b = try Self.put(cache, "http://h/b.mp4", bytes: 100_000)
        usleep(20_000)
        // Using `a` makes `b` the least recently used.
        #expect(cache.lookup("http://h/a.mp4") == a)
        usleep(20_000)
        let c = try Self.put(cache, "http://h/c.mp4", bytes: 100_000)
        #expect(cache.totalBytes <= 250_000)
        #expect(access(a, F_OK) == 0 && access(c, F_OK) == 0)
        #expect(access(b, F_OK) != 0, "the least recently used file should have been evicted")
        #expect(cache.lookup("http://h/b.mp4") == nil)
    }

    @Test("clear empties one directory or all, and leaves the directories")
    func clear() throws {
        let root = try Self.scratch("clear")
        let cache = try MediaCache(root: root)
        let v = try Self.put(cache, "http://h/v.mp4", bytes: 10)
        let t = try #require(cache.makeTemporary())
        close(t.fd)
        cache.clear(.audio)
        #expect(access(v, F_OK) == 0)
        cache.clear(.video)
        #expect(access(v, F_OK) != 0)
        #expect(access(t.path, F_OK) == 0)
        cache.clear(.all)
        #expect(access(t.path, F_OK) != 0)
        #expect(Self.mode(root + "/video") == 0o700)
    }

    @Test("The memory cache is an LRU with a byte budget")
    func memoryLRU() {
        let m = MemoryCache(budgetBytes: 250)
        m.insert(Data(count: 100), for: "a")
        m.insert(Data(count: 100), for: "b")
        #expect(m.data(for: "a") != nil)  // a is now the most recent
        m.insert(Data(count: 100), for: "c")
        #expect(m.data(for: "b") == nil)
        #expect(m.data(for: "a") != nil && m.data(for: "c") != nil)
        #expect(m.totalBytes == 200)
        m.insert(Data(count: 1000), for: "huge")
        #expect(m.data(for: "huge") == nil, "larger than the whole budget: not kept")
    }

    @Test("Byte ranges merge and report coverage")
    func ranges() {
        var r = ByteRanges()
        r.insert(100, 200)
        r.insert(0, 50)
        #expect(!r.covers(0, 200))
        r.insert(50, 100)
        #expect(r.covers(0, 200))
        #expect(r.spans.count == 1)
    }
}
