"""A stdio logging relay for MCP: sits between a client and the server it spawns, and logs the
traffic as JSON Lines.

Usage: relay.py LOGFILE -- SERVER_COMMAND [ARGS...]

The client is given `python relay.py LOGFILE -- server ...` as its server command. The relay
spawns the server, copies the client's stdin to the server's stdin and the server's stdout to its
own stdout, line by line (MCP's stdio transport is newline-delimited JSON), and appends every
message, in both directions, to LOGFILE in the order the relay saw them. A line is logged as it
went over the wire, byte for byte, so the capture is what the peers really exchanged; a line that
is not a single JSON value is logged too, and the audit reports it. The server's stderr passes
through untouched. Standard library only.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from typing import BinaryIO


class Log:
    """LOGFILE, appended to one whole line at a time from both pumps."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "ab")  # noqa: SIM115 (closed in close())
        self._lock = threading.Lock()

    def write(self, line: bytes) -> None:
        message = line.rstrip(b"\r\n")
        if not message.strip():
            return
        with self._lock:
            self._file.write(message + b"\n")
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            self._file.close()


def pump(source: BinaryIO, sink: BinaryIO, log: Log) -> None:
    """Copies `source` to `sink` line by line, logging each line, then closes `sink`."""
    try:
        for line in iter(source.readline, b""):
            log.write(line)
            try:
                sink.write(line)
                sink.flush()
            except (BrokenPipeError, ValueError):
                break
    finally:
        try:
            sink.close()
        except (BrokenPipeError, ValueError, OSError):
            pass


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        print("usage: relay.py LOGFILE -- SERVER_COMMAND [ARGS...]", file=sys.stderr)
        return 2
    log = Log(argv[1])
    server = subprocess.Popen(argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None

    def stop(signum: int, _frame: object) -> None:
        # The client ends us when it is done: end the server with us.
        server.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    upstream = threading.Thread(
        target=pump, args=(sys.stdin.buffer, server.stdin, log), daemon=True
    )
    downstream = threading.Thread(
        target=pump, args=(server.stdout, sys.stdout.buffer, log), daemon=True
    )
    upstream.start()
    downstream.start()
    # The server's stdout closes when it exits; whatever it wrote is logged by then.
    downstream.join()
    code = server.wait()
    log.close()
    return code if code >= 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
