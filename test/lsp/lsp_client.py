"""lsp_client.py - a scripted LSP client of exgc-lsp for the tests of test/lsp/.

A thread reads the server's output into a queue of messages, so that every
wait has a timeout: a server that hangs fails a test instead of stalling it.
"""
import json
import queue
import subprocess
import threading
import time
import urllib.parse


def uri_of(path):
    return "file://" + urllib.parse.quote(path)


class Client:
    def __init__(self, exe, args=(), stderr=None):
        self.proc = subprocess.Popen([exe, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr)
        self.next_id = 1
        self.messages = queue.Queue()  # (arrival time, message); None once the output ends
        self.pending = []  # messages received while waiting for something else
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.partition(b":")
                    if key.lower() == b"content-length":
                        length = int(value)
                body = out.read(length)
                if len(body) < length:
                    return
                self.messages.put((time.monotonic(), json.loads(body)))
        finally:
            self.messages.put(None)

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def close_input(self):
        self.proc.stdin.close()

    def receive(self, timeout=30):
        """The next message, with its arrival time; None when the output ended.
        Raises TimeoutError when none comes within `timeout` seconds."""
        if self.pending:
            return self.pending.pop(0)
        try:
            item = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError("exgc-lsp sent nothing for %s s" % timeout)
        if item is None:
            self.messages.put(None)  # stays ended
        return item

    def start_request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def response(self, rid, timeout=30):
        """The response to request `rid` and when it arrived; other messages wait in `pending`."""
        deadline = time.monotonic() + timeout
        kept = []
        try:
            while True:
                item = self.receive(max(0.01, deadline - time.monotonic()))
                if item is None:
                    raise SystemExit("FAIL: exgc-lsp closed its output")
                if item[1].get("id") == rid and "method" not in item[1]:
                    return item[1], item[0]
                kept.append(item)
        finally:
            self.pending[0:0] = kept

    def request(self, method, params, timeout=30):
        return self.response(self.start_request(method, params), timeout)[0]

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri, timeout=60):
        """The next publishDiagnostics params for uri (other messages are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            item = self.receive(max(0.01, deadline - time.monotonic()))
            if item is None:
                raise SystemExit("FAIL: exgc-lsp closed its output")
            msg = item[1]
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]

    def initialize(self, root, related_information=True):
        caps = {}
        if related_information:
            caps = {"textDocument": {"publishDiagnostics": {"relatedInformation": True}}}
        r = self.request("initialize", {"processId": None, "rootUri": uri_of(root), "capabilities": caps})
        self.notify("initialized", {})
        return r

    def finish(self, timeout=60):
        """shutdown, exit; the exit code."""
        self.request("shutdown", None, timeout)
        self.notify("exit", None)
        return self.proc.wait(timeout=timeout)


def position_of(text, needle, nth=0, offset=0):
    """(line, character) of the nth occurrence of needle, plus offset characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return {"line": line, "character": at - (text.rfind("\n", 0, at) + 1)}


class Checks:
    def __init__(self):
        self.failures = []

    def __call__(self, cond, what):
        print(("ok: " if cond else "FAIL: ") + what, flush=True)
        if not cond:
            self.failures.append(what)
        return cond

    def result(self):
        if self.failures:
            print("%d check(s) failed" % len(self.failures))
            return 1
        print("PASS")
        return 0
