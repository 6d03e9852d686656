// Linux APIs that `import Glibc` does not expose to Swift: epoll, timerfd, signalfd,
// eventfd, inotify, pipe2. Header-only; the functions are thin wrappers so Swift sees
// plain prototypes and constants instead of macros.
#ifndef CLINUX_H
#define CLINUX_H
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <pthread.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>

static const unsigned int CLINUX_EPOLLIN = EPOLLIN;
static const unsigned int CLINUX_EPOLLOUT = EPOLLOUT;
static const unsigned int CLINUX_EPOLLERR = EPOLLERR;
static const unsigned int CLINUX_EPOLLHUP = EPOLLHUP;
static const int CLINUX_EPOLL_CLOEXEC = EPOLL_CLOEXEC;
static const int CLINUX_SFD_FLAGS = SFD_CLOEXEC | SFD_NONBLOCK;
static const int CLINUX_EFD_FLAGS = EFD_CLOEXEC | EFD_NONBLOCK;
static const int CLINUX_IN_FLAGS = IN_CLOEXEC | IN_NONBLOCK;

// pipe2 is hidden behind _GNU_SOURCE, which must not be defined here (it changes struct
// layouts versus Swift's Glibc module), so declare it ourselves.
extern int pipe2(int pipefd[2], int flags);
/// posix_spawn's "new session" flag, also hidden behind _GNU_SOURCE (glibc's value).
static const short CLINUX_POSIX_SPAWN_SETSID = 0x80;

static inline int clinux_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

/// Blocks `signo` for the calling thread so it can be read from a signalfd instead.
static inline int clinux_block_signals(const int *signos, int count, sigset_t *out) {
    sigemptyset(out);
    for (int i = 0; i < count; i++) sigaddset(out, signos[i]);
    return pthread_sigmask(SIG_BLOCK, out, NULL);
}

/// Monotonic clock in nanoseconds (CLOCK_MONOTONIC).
static inline unsigned long long clinux_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
#endif
