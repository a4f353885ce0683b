#!/usr/bin/python3
# cputime.py OUT COMMAND [ARG...]: runs COMMAND as a child and appends a line
# "user system voluntary involuntary" to OUT: its user and system seconds
# (to the microsecond, with those of the children it waited for: a shell's
# pipeline counts whole) and its voluntary and involuntary context
# switches, from wait4(2). /usr/bin/time prints hundredths, a fifth of a
# 50 ms run. The child gets SIGPIPE and SIGXFSZ back (python ignores them);
# exits with the child's status (128 + N for signal N).
import os, signal, sys

out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        sys.stderr.write("cputime: %s: %s\n" % (argv[0], e.strerror))
        os._exit(127)
while True:
    try:
        _, st, ru = os.wait4(pid, 0)
        break
    except InterruptedError:
        pass
with open(out, "a") as f:
    f.write("%.6f %.6f %d %d\n" % (ru.ru_utime, ru.ru_stime, ru.ru_nvcsw, ru.ru_nivcsw))
code = os.waitstatus_to_exitcode(st)
sys.exit(128 - code if code < 0 else code)
