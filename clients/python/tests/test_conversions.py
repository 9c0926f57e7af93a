import json
import re
import time
import unittest
import uuid

from markwright import ConversionTimeoutError, NotFoundError, RateLimitError, verify_webhook

from . import service

SECRET = "a-webhook-secret-of-32-characters!"
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$")


@service.needs_service
class ReadConversionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = service.Receiver()
        cls.client = service.client()

    @classmethod
    def tearDownClass(cls):
        cls.receiver.close()

    def queue(self, text: str = "# Queued\n", **options):
        return self.client.convert(
            text.encode("utf-8"), filename="queued.md", webhook_url=self.receiver.url("/hook"), **options
        )

    def test_when_an_async_conversion_is_awaited_then_the_completed_detail_comes_back(self):
        ack = self.queue("# Awaited\n", include_metadata=True)
        done = self.client.wait_for_conversion(ack["id"], timeout=60, initial_delay=0.05)
        self.assertEqual(done["status"], "completed")
        self.assertEqual(done["id"], ack["id"])
        self.assertIn("# Awaited", done["markdown"])
        self.assertEqual(done["metadata"]["title"], "Awaited")
        self.assertRegex(done["completed_at"], TIMESTAMP)
        self.assertEqual(done["original_filename"], "queued.md")

    def test_when_the_deadline_passes_first_then_conversion_timeout_error_names_the_last_status(self):
        idle = service.idle_client()
        ack = idle.convert(b"# Never\n", filename="never.md", webhook_url="https://localhost:9/hook")
        started = time.monotonic()
        with self.assertRaises(ConversionTimeoutError) as caught:
            idle.wait_for_conversion(ack["id"], timeout=0.3, initial_delay=0.05)
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.assertEqual((caught.exception.conversion_id, caught.exception.last_status), (ack["id"], "pending"))

    def test_when_the_id_is_unknown_then_not_found_error(self):
        with self.assertRaises(NotFoundError) as caught:
            self.client.get_conversion(str(uuid.uuid4()))
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))

    def test_when_the_conversion_belongs_to_another_workspace_then_not_found_error(self):
        ack = self.queue()
        with self.assertRaises(NotFoundError):
            service.client("other").get_conversion(ack["id"])

    def test_when_pages_are_listed_then_the_iterator_follows_next_links_to_the_last_page(self):
        ids = [self.queue("# Listed {}\n".format(n))["id"] for n in range(3)]
        pages = list(self.client.list_conversions(per_page=2))
        self.assertEqual([p["current_page"] for p in pages], list(range(1, pages[0]["last_page"] + 1)))
        self.assertIsNone(pages[-1]["next_page_url"])
        listed = [item["id"] for page in pages for item in page["data"]]
        self.assertEqual(len(listed), len(set(listed)))
        self.assertEqual(len(listed), pages[0]["total"])
        self.assertEqual(listed[:3], list(reversed(ids)))
        self.assertEqual([i["id"] for i in self.client.iter_conversions(per_page=2)], listed)

    def test_when_a_status_filter_is_given_then_every_page_keeps_it(self):
        done = self.client.wait_for_conversion(self.queue()["id"], timeout=60, initial_delay=0.05)
        pages = list(self.client.list_conversions(status="completed", per_page=1, page=1))
        self.assertGreaterEqual(len(pages), 1)
        self.assertTrue(all(i["status"] == "completed" for p in pages for i in p["data"]))
        self.assertIn(done["id"], [i["id"] for p in pages for i in p["data"]])

    def test_when_the_delivery_arrives_then_verify_webhook_accepts_it_with_the_secret_and_only_with_it(self):
        receiver = service.Receiver()
        self.addCleanup(receiver.close)
        ack = self.client.convert(
            b"# Signed\n", filename="signed.md", webhook_url=receiver.url("/signed"), webhook_secret=SECRET
        )
        delivery = receiver.wait_for(1)[0]
        body, headers = delivery["body"], delivery["headers"]
        self.assertEqual(json.loads(body)["id"], ack["id"])
        self.assertEqual(headers["X-Webhook-Conversion-Id"], ack["id"])
        self.assertTrue(verify_webhook(body, headers, SECRET))
        self.assertFalse(verify_webhook(body, headers, SECRET + "x"))
        self.assertFalse(verify_webhook(body.replace(b"Signed", b"Forged"), headers, SECRET))
        if headers.get("webhook-signature"):  # Standard Webhooks (E9): the same answer from its headers alone
            standard = {k: v for k, v in headers.items() if k.lower() != "x-webhook-signature"}
            self.assertTrue(verify_webhook(body, standard, SECRET))
            self.assertFalse(verify_webhook(body, standard, SECRET, now=time.time() + 3600))


@service.needs_service
class RateLimitTest(unittest.TestCase):
    def test_when_the_per_minute_budget_is_spent_and_retries_are_off_then_rate_limit_error_carries_retry_after(self):
        client = service.client("free", retry_on_429=False)
        missing = str(uuid.uuid4())
        with self.assertRaises(RateLimitError) as caught:
            for _ in range(200):
                try:
                    client.get_conversion(missing)
                except NotFoundError:
                    pass
        err = caught.exception
        self.assertEqual(err.status, 429)
        self.assertIsNone(err.code)
        self.assertTrue(err.message)
        self.assertTrue(0 < err.retry_after <= 60, err.retry_after)
