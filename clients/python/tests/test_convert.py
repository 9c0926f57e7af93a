import os
import tempfile
import unittest

from markwright import (
    AuthenticationError,
    ConversionFailedError,
    InsufficientCreditsError,
    MarkwrightClient,
    ValidationError,
)

from . import service

HELLO = b"# Hello\n\nSome *text*.\n"


def write_file(folder: str, name: str, data: bytes) -> str:
    path = os.path.join(folder, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


@service.needs_service
class ConvertTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def test_when_a_path_is_converted_with_metadata_and_token_optimisation_then_the_sync_body_comes_back(self):
        path = write_file(self.folder.name, "hello.md", HELLO)
        result = service.client().convert(path, include_metadata=True, optimize_tokens=True)
        self.assertIsInstance(result, dict)
        self.assertEqual(result.status, 200)
        self.assertIs(result["success"], True)
        self.assertIn("# Hello", result["markdown"])
        self.assertEqual(result["credits_used"], 1)
        self.assertIsInstance(result["credits_remaining"], int)
        self.assertEqual(result["metadata"], {"title": "Hello", "author": "", "page_count": 1})
        self.assertEqual(
            sorted(result["token_optimization"]), ["optimized_tokens", "original_tokens", "reduction_percent"]
        )

    def test_when_no_option_is_given_then_the_body_has_no_metadata_and_no_token_figures(self):
        result = service.client().convert(write_file(self.folder.name, "plain.txt", b"Plain words.\n"))
        self.assertEqual(sorted(result), ["credits_remaining", "credits_used", "markdown", "success"])
        self.assertIn("Plain words.", result["markdown"])

    def test_when_bytes_are_converted_with_a_filename_then_the_name_picks_the_format(self):
        result = service.client().convert(b"a,b\n1,2\n", filename="table.csv")
        self.assertIn("| a | b |", result["markdown"])

    def test_when_bytes_come_without_a_filename_then_it_raises_before_any_request(self):
        with self.assertRaisesRegex(ValueError, "filename"):
            service.client().convert(b"# Hi\n")

    def test_when_an_option_name_is_not_a_form_field_then_it_raises_type_error_naming_it(self):
        with self.assertRaisesRegex(TypeError, "includeMetadata"):
            service.client().convert(b"# Hi\n", filename="hi.md", includeMetadata=True)

    def test_when_the_file_name_has_quotes_and_spaces_then_the_service_records_it_unchanged(self):
        # Non-ASCII names are sent as raw UTF-8, as browsers and curl do; see the README's note.
        client = service.client()
        ack = client.convert(write_file(self.folder.name, 'report "v2" final.md', HELLO), webhook_url=self.receiver_url())
        self.assertEqual(client.get_conversion(ack["id"])["original_filename"], 'report "v2" final.md')

    def test_when_a_webhook_url_is_given_then_the_answer_is_the_202_acknowledgement(self):
        ack = service.client().convert(b"# Later\n", filename="later.md", webhook_url=self.receiver_url())
        self.assertEqual(ack.status, 202)
        self.assertEqual(ack["status"], "pending")
        self.assertEqual(ack["status_url"], "/api/v1/conversions/" + ack["id"])
        self.assertEqual(ack["credits_used"], 1)
        self.assertEqual(
            sorted(ack), ["credits_remaining", "credits_used", "id", "message", "status", "status_url"]
        )

    def test_when_the_webhook_url_is_http_then_validation_error_names_webhook_url(self):
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(b"# Hi\n", filename="hi.md", webhook_url="http://example.com/hook")
        err = caught.exception
        self.assertEqual(err.status, 422)
        self.assertIsNone(err.code)
        self.assertIn("webhook_url", err.errors)
        self.assertEqual(err.message, err.errors["webhook_url"][0])

    def test_when_the_extension_is_not_supported_then_validation_error_names_file(self):
        with self.assertRaises(ValidationError) as caught:
            service.client().convert(b"MZ", filename="setup.exe")
        self.assertIn("file", caught.exception.errors)

    def test_when_the_file_is_corrupt_then_conversion_failed_error_and_the_credit_comes_back(self):
        client = service.client()
        before = client.convert(b"# Probe\n", filename="probe.md")["credits_remaining"]
        with self.assertRaises(ConversionFailedError) as caught:
            client.convert(b"%PDF-1.7\nnot really a pdf", filename="broken.pdf")
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "conversion_failed"))
        self.assertEqual(client.convert(b"# Probe\n", filename="probe.md")["credits_remaining"], before - 1)

    def test_when_the_balance_is_zero_then_insufficient_credits_error_carries_required_and_available(self):
        with self.assertRaises(InsufficientCreditsError) as caught:
            service.client("broke").convert(b"# Hi\n", filename="hi.md")
        err = caught.exception
        self.assertEqual((err.status, err.code), (402, "insufficient_credits"))
        self.assertEqual((err.credits_required, err.credits_available), (1, 0))

    def test_when_the_token_is_wrong_then_authentication_error_with_the_contract_message(self):
        client = MarkwrightClient(base_url=service.BASE_URL, token="mwk_" + "x" * 40)
        with self.assertRaises(AuthenticationError) as caught:
            client.convert(b"# Hi\n", filename="hi.md")
        self.assertEqual((caught.exception.status, caught.exception.message), (401, "Unauthenticated."))

    def receiver_url(self) -> str:
        receiver = service.Receiver()
        self.addCleanup(receiver.close)
        return receiver.url("/hook")
