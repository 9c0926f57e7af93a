"""429 retries against a stand-in server: the real gateway's Retry-After is the rest of its 60 s
window, too long to wait for in a test (the real 429 is in test_conversions.RateLimitTest)."""

import email.utils
import http.server
import json
import threading
import time
import unittest

from markwright import MarkwrightClient, MarkwrightConnectionError, RateLimitError

LIMITED = {"message": "Too many requests. Please wait before retrying."}
RESULT = {"success": True, "markdown": "# Hi\n", "credits_used": 1, "credits_remaining": 9}
#: time.sleep may wake a little before a wall-clock instant.
SLACK = 0.05


class StandIn:
    def __init__(self, answers):
        self.answers = answers
        self.hits = []
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def handle_one(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                stand_in.hits.append({"at": time.time(), "path": self.path, "headers": self.headers, "body": body})
                status, headers, payload = stand_in.answers[min(len(stand_in.hits), len(stand_in.answers)) - 1]
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = handle_one

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = "http://127.0.0.1:{}/api/v1".format(self.server.server_address[1])

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class RetryTest(unittest.TestCase):
    def stand_in(self, answers):
        server = StandIn(answers)
        self.addCleanup(server.close)
        return server

    def test_when_the_api_answers_429_with_retry_after_1_then_the_client_waits_and_resends_the_same_upload(self):
        server = self.stand_in([(429, {"Retry-After": "1"}, LIMITED), (200, {}, RESULT)])
        client = MarkwrightClient(base_url=server.base_url, token="mwk_x")
        self.assertEqual(client.convert(b"# Hi\n", filename="hi.md", include_metadata=True), RESULT)
        first, second = server.hits
        self.assertGreaterEqual(second["at"] - first["at"], 1 - SLACK)
        self.assertEqual(second["body"], first["body"])
        self.assertIn(b'filename="hi.md"', second["body"])
        self.assertIn(b'name="include_metadata"\r\n\r\ntrue\r\n', second["body"])
        self.assertEqual(second["headers"]["Authorization"], "Bearer mwk_x")

    def test_when_retry_after_is_an_http_date_then_the_client_waits_until_that_date(self):
        until = time.time() + 2
        server = self.stand_in(
            [(429, {"Retry-After": email.utils.formatdate(until, usegmt=True)}, LIMITED), (200, {}, {"data": []})]
        )
        next(MarkwrightClient(base_url=server.base_url, token="mwk_x").list_conversions())
        self.assertGreaterEqual(server.hits[1]["at"], int(until) - SLACK)

    def test_when_every_answer_is_429_then_it_stops_after_max_retries_and_raises_rate_limit_error(self):
        server = self.stand_in([(429, {"Retry-After": "0"}, LIMITED)])
        client = MarkwrightClient(base_url=server.base_url, token="mwk_x", max_retries=2)
        with self.assertRaises(RateLimitError) as caught:
            client.get_conversion("abc")
        self.assertEqual((caught.exception.retry_after, caught.exception.message), (0, LIMITED["message"]))
        self.assertEqual(len(server.hits), 3)

    def test_when_retry_on_429_is_off_then_the_first_429_is_raised_and_nothing_is_resent(self):
        server = self.stand_in([(429, {"Retry-After": "7"}, LIMITED), (200, {}, RESULT)])
        client = MarkwrightClient(base_url=server.base_url, token="mwk_x", retry_on_429=False)
        with self.assertRaises(RateLimitError) as caught:
            client.convert(b"# Hi\n", filename="hi.md")
        self.assertEqual(caught.exception.retry_after, 7)
        self.assertEqual(len(server.hits), 1)

    def test_when_the_base_url_ends_with_a_slash_then_paths_and_queries_are_the_apis(self):
        server = self.stand_in([(200, {}, {"data": [], "current_page": 2, "next_page_url": None})])
        client = MarkwrightClient(base_url=server.base_url + "/", token="mwk_x")
        list(client.list_conversions(status="completed", per_page=5, page=2))
        client.get_conversion("a/b")
        self.assertEqual(
            [h["path"] for h in server.hits],
            ["/api/v1/conversions?status=completed&per_page=5&page=2", "/api/v1/conversions/a%2Fb"],
        )

    def test_when_the_next_link_names_another_host_then_only_its_query_is_used_on_the_base_url(self):
        page1 = {"data": [{"id": "1"}], "current_page": 1, "next_page_url": "https://elsewhere.test/api/v1/conversions?per_page=1&page=2"}
        page2 = {"data": [{"id": "2"}], "current_page": 2, "next_page_url": None}
        server = self.stand_in([(200, {}, page1), (200, {}, page2)])
        items = list(MarkwrightClient(base_url=server.base_url, token="mwk_x").iter_conversions(per_page=1))
        self.assertEqual(items, [{"id": "1"}, {"id": "2"}])
        self.assertEqual(server.hits[1]["path"], "/api/v1/conversions?per_page=1&page=2")

    def test_when_nothing_listens_at_the_base_url_then_connection_error_names_the_url(self):
        server = StandIn([(200, {}, {})])
        server.close()
        client = MarkwrightClient(base_url=server.base_url, token="mwk_x")
        with self.assertRaises(MarkwrightConnectionError) as caught:
            client.get_conversion("abc")
        self.assertEqual(caught.exception.url, server.base_url + "/conversions/abc")

    def test_when_the_api_answers_a_redirect_then_it_is_not_followed_with_the_token(self):
        server = self.stand_in([(302, {"Location": "http://127.0.0.1:9/steal"}, {"message": "moved"})])
        client = MarkwrightClient(base_url=server.base_url, token="mwk_x")
        with self.assertRaises(Exception) as caught:
            client.get_conversion("abc")
        self.assertEqual(getattr(caught.exception, "status", None), 302)
        self.assertEqual(len(server.hits), 1)
