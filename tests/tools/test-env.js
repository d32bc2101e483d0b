// Every test file's environment, before its first import. The products and stacks the tests start inherit it.
// The student service's waiting room forms a line only at an administrator's limit in the suite: the suite keeps the
// machine busy, and that pressure must not put a test's students in line. The waiting room's own tests choose the
// mode they prove (docs/waiting-room.md).
process.env.WAITING_ROOM ??= 'limit-only';
