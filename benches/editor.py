#!/usr/bin/env python3
"""The editor path, measured: `python3 benches/editor.py [--lint PATH] [--edits N]`.

Copies SchemaStore's schemas (../shared/corpus/schemastore, or --corpus) into a work folder
outside the repository ($SCHEMA_LINT_BENCH_DIR, else schema-lint-bench in the system's temporary
folder) and makes it a git checkout (`git init` and one commit), since that is what an editor
opens. Then starts `schema-lint server` (target/release/schema-lint unless --lint says
otherwise), speaks LSP to it over standard input and output with that checkout as the workspace,
opens vector.json (1.5 MB), tsconfig.json (423 KB) and github-workflow.json (110 KB) one after the
other, and edits each of them --edits times (a full-text `didChange` that changes one
`description` string, so the text stays valid JSON), the three files staying open throughout.

Measured:
  open    from a `didOpen` to the `publishDiagnostics` of that document (the first one includes
          reading and parsing the whole checkout)
  edit    from a `didChange` to the `publishDiagnostics` of that document's new version, minus the
          server's 150 ms debounce (the median over the edits of each file)
  others  how many diagnostics of the other open documents the server sent again per edit
  memory  the server's peak resident memory (VmHWM of /proc/PID/status) at the end, and its
          resident memory then (VmRSS)

Each edit waits for the server to go quiet (no message for --quiet seconds) before the next
one, so edits never overlap. Python 3's standard library only.
"""
import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("SCHEMA_LINT_BENCH_DIR") or os.path.join(tempfile.gettempdir(), "schema-lint-bench")
# Beside the checkout (../shared), or beside the folder of worktrees it is in (../../shared).
CORPUS = next((c for c in (os.path.join(os.path.dirname(up), "shared", "corpus", "schemastore")
                           for up in (ROOT, os.path.dirname(ROOT))) if os.path.isdir(c)), None)
LINT = os.path.join(ROOT, "target", "release", "schema-lint")
OPEN = ["schemas/vector.json", "schemas/tsconfig.json", "schemas/github-workflow.json"]
DEBOUNCE = 0.150


def checkout(corpus):
    """A git checkout of the corpus in the work folder, made once."""
    dest = os.path.join(WORK, "editor-schemastore")
    if os.path.isdir(os.path.join(dest, ".git")):
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(corpus, dest)
    for root, dirs, files in os.walk(dest):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o755 if name in dirs else 0o644)
    git = ["git", "-C", dest, "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "SchemaStore's schemas"], check=True)
    return dest


def uri(path):
    return "file://" + path


class Server:
    """`schema-lint server` as a child process, its messages read by a thread into a queue
    (each with the time it arrived)."""

    def __init__(self, lint):
        self.proc = subprocess.Popen([lint, "server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.inbox = queue.Queue()
        self.next = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return time.perf_counter()

    def notify(self, method, params):
        return self.send({"method": method, "params": params})

    def request(self, method, params):
        id_ = self.next
        self.next += 1
        self.send({"id": id_, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == id_ and "method" not in m)[1].get("result")

    def wait(self, wanted, timeout=120, seen=None):
        """The first message `wanted` accepts (and when it came); the others go to `seen`."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise SystemExit("the server did not answer in time")
            try:
                at, message = self.inbox.get(timeout=left)
            except queue.Empty:
                raise SystemExit("the server did not answer in time")
            if "id" in message and "method" in message:
                # A request of the server's (registering watchers): answered at once.
                self.send({"id": message["id"], "result": None})
            if message.get("method") in ("window/showMessage", "window/logMessage"):
                print("server:", message["params"]["message"], file=sys.stderr)
            if wanted(message):
                return at, message
            if seen is not None:
                seen.append(message)

    def quiet(self, seconds):
        """Reads until no message came for `seconds`; returns what came."""
        got = []
        while True:
            try:
                got.append(self.inbox.get(timeout=seconds)[1])
            except queue.Empty:
                return got

    def memory(self):
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                name, _, value = line.partition(":")
                if name in ("VmHWM", "VmRSS"):
                    fields[name] = int(value.split()[0]) / 1024
        return fields

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=30)


def published(doc_uri, version=None):
    def accept(m):
        if m.get("method") != "textDocument/publishDiagnostics":
            return False
        p = m["params"]
        return p["uri"] == doc_uri and (version is None or p.get("version") == version)
    return accept


def edited(text, n):
    """`text` with its first `description` string changed (valid JSON still)."""
    key = '"description": "'
    at = text.find(key)
    if at < 0:
        key = '"description":"'
        at = text.find(key)
    at += len(key)
    return text[:at] + f"Edited {n}. " + text[at:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", default=LINT, help="the schema-lint binary")
    ap.add_argument("--corpus", default=CORPUS, required=CORPUS is None,
                    help="SchemaStore's checkout (the folder holding schemas/)")
    ap.add_argument("--edits", type=int, default=7, help="edits per open file")
    ap.add_argument("--actions", action="store_true",
                    help="then ask for the code actions at the first finding of each file")
    ap.add_argument("--quiet", type=float, default=0.5,
                    help="seconds without a message that end an edit")
    args = ap.parse_args()

    root = checkout(args.corpus)
    server = Server(args.lint)
    server.request("initialize", {
        "processId": os.getpid(),
        "rootUri": uri(root),
        "workspaceFolders": [{"uri": uri(root), "name": "schemastore"}],
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}},
    })
    server.notify("initialized", {})

    texts, versions, opens = {}, {}, []
    for rel in OPEN:
        path = os.path.join(root, rel)
        doc = uri(path)
        with open(path, encoding="utf-8") as f:
            texts[doc] = f.read()
        versions[doc] = 1
        sent = server.notify("textDocument/didOpen", {"textDocument": {
            "uri": doc, "languageId": "json", "version": 1, "text": texts[doc]}})
        at, message = server.wait(published(doc, 1))
        opens.append((rel, (at - sent) * 1000, len(message["params"]["diagnostics"])))
        server.quiet(args.quiet)

    edits, last = {}, {}
    for rel in OPEN:
        doc = uri(os.path.join(root, rel))
        times, others = [], []
        for n in range(args.edits):
            versions[doc] += 1
            text = edited(texts[doc], n)
            seen = []
            sent = server.notify("textDocument/didChange", {
                "textDocument": {"uri": doc, "version": versions[doc]},
                "contentChanges": [{"text": text}]})
            at, message = server.wait(published(doc, versions[doc]), seen=seen)
            last[doc] = message["params"]["diagnostics"]
            seen += server.quiet(args.quiet)
            times.append((at - sent - DEBOUNCE) * 1000)
            others.append(sum(1 for m in seen if m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"]["uri"] != doc))
        edits[rel] = (times, others)
    memory = server.memory()
    # A code action where the first finding of each file lies (the proof of its fix, and the
    # fix-all), after the edits: measured apart, since it reads the context again.
    actions = []
    if args.actions:
        for rel in OPEN:
            doc = uri(os.path.join(root, rel))
            found = last.get(doc) or []
            where = found[0]["range"] if found else {"start": {"line": 0, "character": 0},
                                                       "end": {"line": 0, "character": 0}}
            start = time.perf_counter()
            result = server.request("textDocument/codeAction", {
                "textDocument": {"uri": doc}, "range": where,
                "context": {"diagnostics": found[:1]}})
            actions.append((rel, (time.perf_counter() - start) * 1000, len(result or [])))
        after_actions = server.memory()
    server.stop()

    size = lambda rel: os.path.getsize(os.path.join(root, rel)) / 1e3
    print(f"schema-lint server: {args.lint}")
    print(f"workspace: {root} (git checkout, {sum(len(f) for _, _, f in os.walk(os.path.join(root, 'schemas')))} files)")
    print()
    print("| file | size | first diagnostics after open | edit -> diagnostics beyond the debounce (median, min-max) | other documents republished per edit |")
    print("|---|---:|---:|---:|---:|")
    for (rel, opened, count), _ in zip(opens, OPEN):
        times, others = edits[rel]
        print(f"| `{os.path.basename(rel)}` | {size(rel):,.0f} KB | {opened:.0f} ms | "
              f"{statistics.median(times):.0f} ms ({min(times):.0f}-{max(times):.0f}, {len(times)} edits) | "
              f"{statistics.median(others):g} |")
    print()
    print(f"server memory: peak {memory['VmHWM']:.0f} MB (VmHWM), {memory['VmRSS']:.0f} MB resident after the edits")
    if actions:
        print()
        for rel, took, count in actions:
            print(f"code actions at the first finding of `{os.path.basename(rel)}`: {took:.0f} ms "
                  f"({count} offered)")
        print(f"server memory after them: peak {after_actions['VmHWM']:.0f} MB, {after_actions['VmRSS']:.0f} MB resident")


if __name__ == "__main__":
    sys.exit(main())
