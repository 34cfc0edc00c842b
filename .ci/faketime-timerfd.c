// Preloaded before libfaketime by .ci/faketime. libfaketime 0.9.10 (Debian 12's) moves the absolute time of every
// timerfd_settime(TFD_TIMER_ABSTIME) by the fake offset, whatever the timer's clock. libdispatch arms CLOCK_MONOTONIC
// timerfds (every Task.sleep, asyncAfter(deadline:), DispatchSource timer and run-loop timer): shifted by years that time
// is negative, the kernel answers EINVAL and the timer never fires, so a test process waits forever (measured: `Task.sleep`
// under `faketime -f '+400d'` never returns). Here a timer on any clock but CLOCK_REALTIME goes to the kernel untouched;
// a CLOCK_REALTIME timer (a wall deadline, in faked time) still goes through libfaketime, which converts it rightly.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define TRACKED 4096
static signed char realtime_fd[TRACKED];   // 1 where the timerfd was made on CLOCK_REALTIME

int timerfd_create(int clockid, int flags) {
    int fd = (int)syscall(SYS_timerfd_create, clockid, flags);
    if (fd >= 0 && fd < TRACKED) realtime_fd[fd] = (clockid == CLOCK_REALTIME || clockid == CLOCK_REALTIME_ALARM);
    return fd;
}

int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
    if (fd >= 0 && fd < TRACKED && realtime_fd[fd]) {
        int (*next)(int, int, const struct itimerspec *, struct itimerspec *) = dlsym(RTLD_NEXT, "timerfd_settime");
        if (next) return next(fd, flags, new_value, old_value);
    }
    return (int)syscall(SYS_timerfd_settime, fd, flags, new_value, old_value);
}
