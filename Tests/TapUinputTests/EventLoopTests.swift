import Glibc
import Testing
@testable import EventLoop

@Suite struct EventLoopTests {
    @Test func timersFireInDeadlineOrder() throws {
        let loop = try EventLoop()
        var fired: [Int] = []
        let start = MonotonicInstant.now()
        loop.schedule(at: start.adding(milliseconds: 20)) { fired.append(2) }
        loop.schedule(at: start.adding(milliseconds: 5)) { fired.append(1) }
        let cancelled = loop.schedule(at: start.adding(milliseconds: 10)) { fired.append(99) }
        loop.cancel(cancelled)
        #expect(loop.run(until: { fired.count == 2 }, timeoutMilliseconds: 2000))
        #expect(fired == [1, 2])
        #expect(MonotonicInstant.now().nanoseconds(since: start) >= 20_000_000)
    }

    @Test func readableFDDispatchesToEveryWatchOnIt() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var a = 0, b = 0
        let wa = loop.watch(fd: fds[0], events: .readable) { _ in a += 1; var c: UInt8 = 0; _ = read(fds[0], &c, 1) }
        loop.watch(fd: fds[0], events: .readable) { _ in b += 1 }
        var byte: UInt8 = 7
        _ = write(fds[1], &byte, 1)
        #expect(loop.run(until: { a == 1 }, timeoutMilliseconds: 1000))
        #expect(b == 1)
        loop.remove(wa)
        _ = write(fds[1], &byte, 1)
        #expect(loop.run(until: { b == 2 }, timeoutMilliseconds: 1000))
        #expect(a == 1)
    }

    @Test func postedWorkRunsBeforeWaiting() throws {
        let loop = try EventLoop()
        var ran = false
        loop.post { ran = true }
        let start = MonotonicInstant.now()
        loop.runOnce(timeoutMilliseconds: 5000)   // blocks 5 s unless posted work forces a zero timeout
        #expect(ran)
        #expect(MonotonicInstant.now().nanoseconds(since: start) < 2_000_000_000)
    }

    @Test func disabledWatchOnAHungUpFDDoesNotSpin() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var calls = 0
        let w = loop.watch(fd: fds[0], events: .readable) { _ in calls += 1 }
        loop.update(w, enabled: false)
        close(fds[1])                      // the read end now reports a hang-up forever
        let before = loop.wakeups
        loop.run(until: { false }, timeoutMilliseconds: 100)
        #expect(calls == 0)
        #expect(loop.wakeups - before < 10)   // a busy loop would wake thousands of times
    }
}
