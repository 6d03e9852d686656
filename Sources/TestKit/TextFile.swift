import Glibc

/// The whole of a (small) text file, or "" if it cannot be opened: `/proc` entries, logs and
/// outputs that tests and the benchmark read after the fact.
public func readTextFile(_ path: String) -> String {
    guard let f = fopen(path, "r") else { return "" }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}
