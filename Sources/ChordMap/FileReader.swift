#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The module's only I/O: read a whole keymap file as UTF-8. Nil if it cannot be opened or read.
func readFile(_ path: String) -> String? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
        if n < buffer.count { break }
        if bytes.count > 16 << 20 { return nil }   // a keymap is never this large
    }
    if ferror(f) != 0 { return nil }
    return String(decoding: bytes, as: UTF8.self)
}
