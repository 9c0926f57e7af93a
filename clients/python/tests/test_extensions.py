"""The extensions of extensions.md (E1–E10). E1–E4 always run; each later one runs once the
server's OpenAPI document names the extension, and is skipped (saying why) by a server that does
not have it yet."""

import json
import unittest
import uuid

from markwright import ConflictError, NotFoundError, ValidationError, verify_webhook

from . import service

SECRET = "a-webhook-secret-of-32-characters!"
LONG = "".join("## Part {}\n\n{}\n\n".format(n, "A sentence of several words here. " * 12) for n in range(12))


@service.needs_service
class StructureTest(unittest.TestCase):
    def test_when_include_pages_is_true_then_pages_join_to_the_markdown(self):
        result = service.client().convert(b"# One\n\nText.\n", filename="one.md", include_pages=True)
        self.assertEqual([p["number"] for p in result["pages"]], [1])
        joined = "\n\n".join(p["markdown"].strip() for p in result["pages"] if p["markdown"].strip())
        self.assertEqual(joined.strip(), result["markdown"].strip())

    def test_when_chunk_max_tokens_is_64_then_every_chunk_is_within_it_and_numbered_in_order(self):
        result = service.client().convert(LONG.encode(), filename="long.md", chunk_max_tokens=64)
        chunks = result["chunks"]
        self.assertGreater(len(chunks), 1)
        self.assertEqual([c["index"] for c in chunks], list(range(len(chunks))))
        self.assertTrue(all(0 < c["tokens"] <= 64 for c in chunks), [c["tokens"] for c in chunks])

    def test_when_page_range_is_sent_for_a_format_without_pages_then_validation_error_names_page_range(self):
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(b"# One\n", filename="one.md", page_range="1-2")
        self.assertIn("page_range", caught.exception.errors)

    def test_when_chunk_max_tokens_is_below_64_then_validation_error_names_chunk_max_tokens(self):
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(b"# One\n", filename="one.md", chunk_max_tokens=10)
        self.assertEqual(list(caught.exception.errors), ["chunk_max_tokens"])

    def test_when_no_structure_is_asked_then_the_result_has_no_pages_chunks_or_document(self):
        result = service.client().convert(b"# One\n", filename="one.md", include_pages=False)
        self.assertEqual(sorted(set(result) & {"pages", "chunks", "document"}), [])

    def test_when_include_document_is_true_then_the_document_model_comes_back_as_version_1(self):
        result = service.client().convert(b"# Title\n\nBody.\n", filename="doc.md", include_document=True)
        self.assertEqual(result["document"]["version"], 1)
        self.assertEqual(result["document"]["blocks"][0]["level"], 1)


@service.needs_service
class IdempotencyTest(unittest.TestCase):
    @service.needs_field("Idempotency-Key")
    def test_when_the_same_request_is_sent_twice_with_a_key_then_the_first_answer_is_replayed_free(self):
        client, key = service.client(), "py-" + uuid.uuid4().hex
        first = client.convert(b"# Once\n", filename="once.md", idempotency_key=key)
        again = client.convert(b"# Once\n", filename="once.md", idempotency_key=key)
        self.assertEqual(again, first)
        self.assertEqual((first.replayed, again.replayed), (False, True))

    @service.needs_field("Idempotency-Key")
    def test_when_the_key_is_reused_for_another_file_then_validation_error_names_the_header(self):
        client, key = service.client(), "py-" + uuid.uuid4().hex
        client.convert(b"# First\n", filename="a.md", idempotency_key=key)
        with self.assertRaises(ValidationError) as caught:
            client.convert(b"# Second\n", filename="a.md", idempotency_key=key)
        self.assertIn("Idempotency-Key", caught.exception.errors)


@service.needs_service
class ControlTest(unittest.TestCase):
    @service.needs_path("/cancel")
    def test_when_a_pending_conversion_is_cancelled_then_its_detail_says_failed_by_request(self):
        client = service.idle_client()
        ack = client.convert(b"# Wait\n", filename="wait.md", webhook_url="https://localhost:9/hook")
        cancelled = client.cancel(ack["id"])
        self.assertEqual(cancelled.status, 200)
        self.assertEqual((cancelled["id"], cancelled["status"]), (ack["id"], "failed"))
        self.assertEqual(cancelled["error"], "Cancelled by request.")

    @service.needs_path("/cancel")
    def test_when_a_finished_conversion_is_cancelled_then_conflict_error_not_cancellable(self):
        client = service.client()
        done = client.wait_for_conversion(self.queued(client)["id"], timeout=60, initial_delay=0.05)
        with self.assertRaises(ConflictError) as caught:
            client.cancel(done["id"])
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "not_cancellable"))

    @service.needs_path("/cancel")
    def test_when_an_unknown_conversion_is_cancelled_then_not_found_error(self):
        with self.assertRaises(NotFoundError):
            service.client().cancel(str(uuid.uuid4()))

    @service.needs_path("/cancel")  # DELETE shares the detail's path; cancel arrives with it (issue 20)
    def test_when_a_finished_conversion_is_deleted_then_it_is_gone_and_a_second_delete_is_not_found(self):
        client = service.client()
        done = client.wait_for_conversion(self.queued(client)["id"], timeout=60, initial_delay=0.05)
        self.assertIsNone(client.delete(done["id"]))
        with self.assertRaises(NotFoundError):
            client.get_conversion(done["id"])
        with self.assertRaises(NotFoundError):
            client.delete(done["id"])

    @service.needs_path("/cancel")
    def test_when_a_pending_conversion_is_deleted_then_conflict_error_not_finished(self):
        client = service.idle_client()
        ack = client.convert(b"# Wait\n", filename="wait.md", webhook_url="https://localhost:9/hook")
        with self.assertRaises(ConflictError) as caught:
            client.delete(ack["id"])
        self.assertEqual(caught.exception.code, "not_finished")

    @service.needs_path("/redeliver")
    def test_when_a_delivered_webhook_is_redelivered_then_the_same_event_arrives_again_signed(self):
        receiver = service.Receiver()
        self.addCleanup(receiver.close)
        client = service.client()
        ack = client.convert(b"# Again\n", filename="again.md", webhook_url=receiver.url("/again"), webhook_secret=SECRET)
        first = receiver.wait_for(1)[0]
        self.assertEqual(client.redeliver_webhook(ack["id"]).status, 202)
        second = receiver.wait_for(2)[1]
        self.assertEqual(json.loads(second["body"]), json.loads(first["body"]))
        self.assertEqual(second["headers"]["webhook-id"], first["headers"]["webhook-id"])
        self.assertTrue(verify_webhook(second["body"], second["headers"], SECRET))

    @service.needs_path("/redeliver")
    def test_when_a_sync_conversion_is_redelivered_then_conflict_error_no_webhook(self):
        client = service.client()
        client.convert(b"# Sync\n", filename="sync.md")
        sync_id = next(client.iter_conversions(per_page=1))["id"]
        with self.assertRaises(ConflictError) as caught:
            client.redeliver_webhook(sync_id)
        self.assertEqual(caught.exception.code, "no_webhook")

    def queued(self, client):
        receiver = service.Receiver()
        self.addCleanup(receiver.close)
        return client.convert(b"# Queued\n", filename="queued.md", webhook_url=receiver.url("/q"))


@service.needs_service
class FileUrlTest(unittest.TestCase):
    @service.needs_field("file_url")
    def test_when_file_url_names_a_served_file_then_it_is_converted(self):
        host = service.Receiver(files={"/notes.md": b"# From a URL\n"})
        self.addCleanup(host.close)
        result = service.client().convert(file_url=host.url("/notes.md"))
        self.assertIn("# From a URL", result["markdown"])

    @service.needs_field("file_url")
    def test_when_file_url_cannot_be_fetched_then_validation_error_names_file_url(self):
        host = service.Receiver()
        self.addCleanup(host.close)
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(file_url=host.url("/missing.md"))
        self.assertIn("file_url", caught.exception.errors)

    @service.needs_field("file_url")
    def test_when_both_file_and_file_url_are_sent_then_validation_error_names_file(self):
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(b"# Hi\n", filename="hi.md", file_url="https://example.com/a.md")
        self.assertIn("file", caught.exception.errors)
