#if canImport(Glibc)
import Glibc
#endif

/// Stops the process when a fuzz invariant is broken, printing what was expected. libFuzzer sees
/// the abort as a crash and saves the input as `crash-<sha1>` beside the run.
///
/// Unlike `precondition`, this fires in release builds and says which invariant failed.
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                  file: StaticString = #fileID, line: UInt = #line) {
    if condition() { return }
    let text = "invariant broken at \(file):\(line): \(message())\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}

/// The fuzzer's input as a buffer; valid only during the call.
@inline(__always)
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data, count: size)
}
