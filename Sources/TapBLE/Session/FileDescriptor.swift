import Glibc

/// `close(2)`, named so it does not clash with the types' own `close()` methods.
@discardableResult
func closeFD(_ fd: Int32) -> Int32 { Glibc.close(fd) }
