"""The fork server of DESIGN.md D11: torch imported once, one forked child per run.

Process-global registries of PyTorch (allowed/disallowed functions, skip marks on code
objects, caches, counters, the duplicate-graph-break checker, config) must never leak
from one fixture into another, and importing torch per run would cost seconds. So the
parent fixes the environment (``ATEN_CPU_CAPABILITY=default``, one thread) before torch
is imported, imports torch and the Dynamo/AOT modules once, and forks a child for each
(fixture, mode, profile). A child sends its result back as JSON through a pipe; its
stdout and stderr go to a log file whose tail is reported if it fails. Children run in
parallel up to ``jobs`` at a time, each under a timeout.

Every child is forked by a zygote, a process forked once per batch that does nothing but
fork, one request at a time: the parent's heap changes between forks with the results it
has read by then, which depends on timing when children run in parallel, and a program
whose behaviour hangs on id() reuse (a generated program rebinding its helpers) was seen
recorded two ways when its children were forked from the parent.
"""

import json
import os
import selectors
import signal
import socket
import sys
import tempfile
import time
from typing import Any

ENVIRONMENT = {"ATEN_CPU_CAPABILITY": "default", "num_threads": 1}

_prepared: dict[str, Any] = {}


def prepare() -> dict:
    """Sets the environment, then imports torch (once); returns facts for the meta.

    Must run before anything imports torch; raises RuntimeError when torch was imported
    already (the CPU capability would not take effect).
    """
    if _prepared:
        return _prepared
    if "torch" in sys.modules:
        raise RuntimeError("torch was imported before the fork server set "
                           "ATEN_CPU_CAPABILITY; import conformance.oracle.server first")
    os.environ["ATEN_CPU_CAPABILITY"] = ENVIRONMENT["ATEN_CPU_CAPABILITY"]
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(ENVIRONMENT["num_threads"])
    os.environ.pop("TORCHDYNAMO_DISABLE", None)
    import torch

    torch.set_num_threads(ENVIRONMENT["num_threads"])
    # Modules only (no compilation, so no state): children then start in milliseconds.
    import functorch.compile  # noqa: F401
    import torch._dynamo  # noqa: F401
    import torch._dynamo.testing  # noqa: F401
    import torch._functorch.aot_autograd  # noqa: F401
    from conformance.oracle import child  # noqa: F401

    _prepared.update(torch_version=torch.__version__,
                     capability=torch.backends.cpu.get_cpu_capability(),
                     environment=dict(ENVIRONMENT))
    return _prepared


def _child_main(job: Any, write_fd: int, log_fd: int) -> None:
    """In the forked child: run the job, send the result, exit without cleanup."""
    status = 0
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the zygote ignores it
    try:
        from conformance.oracle import child

        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(log_fd, 1)
        os.dup2(log_fd, 2)
        data = json.dumps(child.run(job)).encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view):]
    except BaseException:
        status = 70
    finally:
        os._exit(status)


def _zygote_main(jobs: list[Any], sock: socket.socket) -> None:
    """In the zygote: for each request (a job's index with its result pipe and log file),
    fork its child and answer with the child's pid; exit when the parent hangs up."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
    while True:
        message, fds, _, _ = socket.recv_fds(sock, 8, 2)
        if not message:
            os._exit(0)
        pid = os.fork()
        if pid == 0:
            sock.close()
            _child_main(jobs[int.from_bytes(message, "little")], fds[0], fds[1])
        for fd in fds:
            os.close(fd)
        sock.sendall(pid.to_bytes(8, "little"))


def _fork_by_zygote(sock: socket.socket, index: int, write_fd: int, log_fd: int) -> int:
    """Has the zygote fork job `index`'s child; its pid."""
    socket.send_fds(sock, [index.to_bytes(8, "little")], [write_fd, log_fd])
    answer = b""
    while len(answer) < 8:
        chunk = sock.recv(8 - len(answer))
        if not chunk:
            raise RuntimeError("the fork server's zygote died")
        answer += chunk
    return int.from_bytes(answer, "little")


def _log_tail(path: str, limit: int = 4000) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()[-limit:]
    except OSError:
        return ""


def run_jobs(jobs: list[Any], parallel: int = 2, timeout: float = 300.0,
             on_done: Any = None) -> list[dict]:
    """Runs each job in a forked child, at most `parallel` at a time.

    Args:
      jobs: child.Job objects.
      parallel: children running at once.
      timeout: seconds one child may run before it is killed.
      on_done: called as on_done(index, result) as each child finishes.
    Returns:
      One result per job, in order; each has "seconds" (the child's wall time) added.
    """
    prepare()
    sock, zygote_sock = socket.socketpair()
    sys.stdout.flush()
    sys.stderr.flush()
    zygote = os.fork()
    if zygote == 0:
        sock.close()
        _zygote_main(jobs, zygote_sock)
    zygote_sock.close()
    results: list[dict | None] = [None] * len(jobs)
    pending = list(range(len(jobs)))
    running: dict[int, dict] = {}  # read fd -> child state
    selector = selectors.DefaultSelector()

    def finish(fd: int, result: dict) -> None:
        state = running.pop(fd)
        selector.unregister(fd)
        os.close(fd)
        result["seconds"] = round(time.monotonic() - state["start"], 3)
        results[state["index"]] = result
        os.unlink(state["log"])
        if on_done:
            on_done(state["index"], result)

    try:
        while pending or running:
            while pending and len(running) < parallel:
                index = pending.pop(0)
                read_fd, write_fd = os.pipe()
                log_fd, log_path = tempfile.mkstemp(prefix="tdc-oracle-", suffix=".log")
                pid = _fork_by_zygote(sock, index, write_fd, log_fd)
                os.close(write_fd)
                os.close(log_fd)
                running[read_fd] = {"index": index, "pid": pid, "start": time.monotonic(),
                                    "chunks": [], "log": log_path}
                selector.register(read_fd, selectors.EVENT_READ)
            for key, _ in selector.select(timeout=0.2):
                state = running[key.fd]
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    state["chunks"].append(chunk)
                    continue
                data = b"".join(state["chunks"])
                try:
                    result = json.loads(data)
                except ValueError:
                    result = {"ok": False, "error": f"child died without a result; "
                                                    f"its output:\n{_log_tail(state['log'])}"}
                if not result.get("ok"):
                    result["log"] = _log_tail(state["log"])
                finish(key.fd, result)
            now = time.monotonic()
            for fd, state in list(running.items()):
                if now - state["start"] > timeout:
                    os.kill(state["pid"], signal.SIGKILL)
                    finish(fd, {"ok": False, "error": f"timed out after {timeout:.0f} s",
                                "log": _log_tail(state["log"])})
    finally:
        for fd, state in list(running.items()):  # interrupted: end our children
            os.kill(state["pid"], signal.SIGKILL)
            os.close(fd)
            os.unlink(state["log"])
        selector.close()
        sock.close()  # the zygote's cue to exit
        os.waitpid(zygote, 0)
    return results  # type: ignore[return-value]
