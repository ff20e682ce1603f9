"""The client's retries and error context against a small local server that answers as the service does: a 502 is
tried again on a read and not on a write that may have run; every error carries the request id and headers."""
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List

from fis_sdk import Client, UpstreamError

CALLS: List[str] = []


class Gateway(BaseHTTPRequestHandler):
    """Every other call fails with 502, as a flaky gateway in front of the service would."""

    def _answer(self) -> None:
        CALLS.append(f"{self.command} {self.path}")
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        failing = len(CALLS) % 2 == 1
        body = {"success": False, "error": {"code": "UPSTREAM_ERROR", "message": "bad gateway"}} if failing else {"success": True, "data": []}
        payload = json.dumps(body).encode()
        self.send_response(502 if failing else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Request-Id", f"req-{len(CALLS)}")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


class RetryOnGatewayFailureTest(unittest.TestCase):
    def setUp(self) -> None:
        CALLS.clear()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Gateway)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.client = Client(f"http://127.0.0.1:{self.server.server_address[1]}", api_key="fis_live_test")

    def tearDown(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def test_a_read_is_tried_again_and_a_write_is_not(self) -> None:
        self.assertEqual(self.client.statements.ratio_definitions(), [])
        with self.assertRaises(UpstreamError) as caught:
            self.client.ai.summarize(1)
        self.assertEqual(caught.exception.request_id, "req-3")
        self.assertEqual(caught.exception.headers["content-type"], "application/json")
        self.assertEqual(CALLS, ["GET /v1/ratios/definitions", "GET /v1/ratios/definitions", "POST /v1/ai/summarize"])


if __name__ == "__main__":
    unittest.main()
