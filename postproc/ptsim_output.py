"""The output rule of ptsim's C++ writers (ptsim/postproc/output_file.hpp), for Python tools.

- A symbolic link (a chain, a dangling one too) is followed; its final target is judged.
- Nothing there: the file is created. A regular file there: replaced only with force.
  A FIFO or a character device (/dev/stdout): written through when stream_ok, never
  renamed over; otherwise refused, like a directory, a socket or a block device.
- The file is written as "<target>.part", created exclusively and held by an open file
  description lock while it is written; a second writer of the same target fails at once;
  a .part nobody holds (left by a killed writer) is taken over. The rename is the commit;
  without force it never replaces what appeared at the target meanwhile.
- An output not committed (an exception, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) leaves
  no .part.

    with ptsim_output.Output("fig.png", force=False) as out:
        fig.savefig(out.path, format="png")   # out.path: the .part, or the stream's path
"""
import errno
import fcntl
import os
import signal
import stat
import struct

__all__ = ["OutputError", "Output"]


class OutputError(OSError):
    """An output that may not, or cannot, be written; str() names the path and why."""

    def __str__(self):
        return self.strerror


_live_parts = set()
_handlers_installed = False


def _on_signal(signo, _frame):
    for p in list(_live_parts):
        try:
            os.unlink(p)
        except OSError:
            pass
    signal.signal(signo, signal.SIG_DFL)
    os.kill(os.getpid(), signo)


def _install_handlers():
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE"):
        signo = getattr(signal, name)
        try:
            if signal.getsignal(signo) == signal.SIG_IGN and name in ("SIGHUP", "SIGPIPE"):
                continue  # nohup's SIGHUP stays ignored
            signal.signal(signo, _on_signal)
        except (ValueError, OSError):  # not the main thread: the destructor path only
            pass


def _kind(mode):
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _flock(l_type, start):
    # struct flock on Linux x86-64/aarch64: short, short, (pad), off_t, off_t, pid_t, (pad).
    return struct.pack("hhqqii", l_type, os.SEEK_SET, start, 1, 0, 0)


def _named_descriptor(path):
    """/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor of this process."""
    p = os.path.normpath(os.fspath(path))
    if p == "/dev/stdout":
        return 1
    if p == "/dev/stderr":
        return 2
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        if p.startswith(prefix) and p[len(prefix):].isdigit():
            return int(p[len(prefix):])
    return None


def _linked_descriptor(path):
    """The descriptor that path, or a link (chain) at path, names; None when none does."""
    cur = os.fspath(path)
    for _ in range(40):
        n = _named_descriptor(cur)
        if n is not None:
            return n
        if not os.path.islink(cur):
            return None
        to = os.readlink(cur)
        cur = to if os.path.isabs(to) else os.path.join(os.path.dirname(cur), to)
    return None


def _resolve(path, stream_ok):
    cur = os.fspath(path)
    if not cur:
        raise OutputError(errno.EINVAL, "an empty output path")
    for _ in range(40):
        via = "" if cur == os.fspath(path) else f" (a link to {cur})"
        try:
            st = os.stat(cur)
        except FileNotFoundError:
            if os.path.islink(cur):  # dangling: where it points
                to = os.readlink(cur)
                cur = to if os.path.isabs(to) else os.path.join(os.path.dirname(cur), to)
                continue
            name = os.path.basename(cur)
            if name in ("", ".", ".."):
                raise OutputError(errno.EISDIR, f"{path} names a folder, not a file: name a file")
            parent = os.path.dirname(cur) or "."
            if not os.path.isdir(parent):
                raise OutputError(errno.ENOENT, f"{path}{via}: the folder {parent} does not exist")
            return os.path.join(os.path.realpath(parent), name), "new"
        if stat.S_ISREG(st.st_mode):
            return os.path.realpath(cur), "regular"
        if (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode)) and stream_ok:
            return cur, "stream"
        raise OutputError(errno.EEXIST, f"{path}{via} is {_kind(st.st_mode)}, not a regular file; "
                          "ptsim never renames over one, with or without --force: name a file")
    raise OutputError(errno.ELOOP, f"{path}: too many levels of symbolic links")


class Output:
    """One output file: claimed on entry, committed when the block ends without an
    exception, removed otherwise."""

    def __init__(self, path, force=False, stream_ok=False):
        self.requested = os.fspath(path)
        self.force = force
        self._fd = None
        self._done = False
        self._descriptor = _linked_descriptor(path)
        if self._descriptor is not None:
            if not stream_ok:
                raise OutputError(errno.EINVAL, f"{path} is a descriptor of this process, not a file of its "
                                  "own: name a file")
            self.target = self.path = self.requested
            self.streaming = True
            return
        self.target, what = _resolve(path, stream_ok)
        self.streaming = what == "stream"
        self._fd = None
        self._done = False
        shown = self.requested if self.requested == self.target else f"{self.requested} ({self.target})"
        self._shown = shown
        if self.streaming:
            self.path = self.target
            return
        if what == "regular" and not force:
            raise OutputError(errno.EEXIST, f"{shown} exists; refusing to overwrite it (use --force)")
        self.path = self.target + ".part"
        self._claim()

    def _claim(self):
        for _ in range(20):
            fresh = True
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o666)
            except FileExistsError:
                fresh = False
                try:
                    fd = os.open(self.path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
                except FileNotFoundError:
                    continue
                except OSError as e:
                    raise OutputError(e.errno, f"{self.path}: cannot open it: {e.strerror}") from None
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    os.close(fd)
                    raise OutputError(errno.EEXIST, f"{self.path} exists and is not a writer's temporary file: "
                                      "remove it")
            try:
                fcntl.fcntl(fd, fcntl.F_OFD_SETLK, _flock(fcntl.F_WRLCK, 0))
            except OSError:
                holder = "another process"
                try:
                    got = fcntl.fcntl(fd, fcntl.F_GETLK, _flock(fcntl.F_WRLCK, 1))
                    l_type, _, _, _, pid, _ = struct.unpack("hhqqii", got)
                    if l_type != fcntl.F_UNLCK and pid > 0:
                        holder = f"process {pid}"
                except OSError:
                    pass
                os.close(fd)
                raise OutputError(errno.EBUSY, f"{self._shown} is being written by {holder} (it holds "
                                  f"{self.path}); refusing to write it at the same time") from None
            mine, there = os.fstat(fd), None
            try:
                there = os.lstat(self.path)
            except FileNotFoundError:
                pass
            if there is None or (there.st_dev, there.st_ino) != (mine.st_dev, mine.st_ino):
                os.close(fd)
                continue
            try:
                fcntl.fcntl(fd, fcntl.F_SETLK, _flock(fcntl.F_WRLCK, 1))  # names us to others
            except OSError:
                pass
            if not fresh:
                os.ftruncate(fd, 0)
            self._fd, self._ino = fd, (mine.st_dev, mine.st_ino)
            _install_handlers()
            _live_parts.add(self.path)
            return
        raise OutputError(errno.EBUSY, f"{self.path} keeps changing: another writer is working on {self._shown}")

    def open(self):
        """A binary file object to write the output to: the .part, or, when streaming, the
        FIFO, device or descriptor itself (never truncated, never replaced)."""
        if self._descriptor is not None:
            return os.fdopen(os.dup(self._descriptor), "wb")
        if self.streaming:
            return os.fdopen(os.open(self.path, os.O_WRONLY | os.O_CLOEXEC | os.O_NOCTTY), "wb")
        return open(self.path, "wb")

    def commit(self):
        if self._done:
            return
        if self.streaming:
            self._done = True
            return
        try:
            st = os.lstat(self.target)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            self.abandon()
            raise OutputError(errno.EEXIST, f"{self._shown} became {_kind(st.st_mode)} while being written; "
                              "not replaced")
        if self.force:
            os.replace(self.path, self.target)
        else:
            try:
                os.link(self.path, self.target)  # fails on an existing name: never replaces
            except FileExistsError:
                self.abandon()
                raise OutputError(errno.EEXIST, f"{self._shown} was created by someone else while being "
                                  "written; not replaced (use --force)") from None
            os.unlink(self.path)
        self._release()

    def abandon(self):
        if self._done:
            return
        if not self.streaming:
            try:
                st = os.lstat(self.path)
                if (st.st_dev, st.st_ino) == self._ino:
                    os.unlink(self.path)
            except OSError:
                pass
        self._release()

    def _release(self):
        _live_parts.discard(self.path)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self._done = True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.commit()
        else:
            self.abandon()
        return False
