#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The module's only I/O: read a whole keymap file. Nil if it cannot be opened or read, or is
/// not a regular file (opening a FIFO or a device would block the daemon's loop).
func readBytes(_ path: String) -> [UInt8]? {
    var st = stat()
    guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let f = fopen(path, "rb") else { return nil }
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
    return bytes
}

/// Where the first byte that is not valid UTF-8 is: 1-based line and column (in scalars, as the
/// diagnostics count them) and the byte. Nil for valid UTF-8.
func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0, line = 1, column = 1
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let scalar):
            offset += scalar.count
            if scalar.count == 1 && scalar.first == 0x0A { line += 1; column = 1 } else { column += 1 }
        case .error:
            return (line, column, bytes[offset])
        case .emptyInput:
            return nil
        }
    }
}
