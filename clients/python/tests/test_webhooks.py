import base64
import hashlib
import hmac
import http.client
import io
import unittest

from markwright import verify_webhook

SECRET = "a-webhook-secret-of-32-characters!"
BODY = b'{"id":"0192f2a0-0000-7000-8000-000000000000","status":"completed","markdown":"# Hi\\n"}'
NOW = 1_800_000_000


def contract_signature(body: bytes, secret: str = SECRET) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def standard_headers(body: bytes, secret: str = SECRET, timestamp: int = NOW, msg_id: str = "msg_1") -> dict:
    signed = "{}.{}.".format(msg_id, timestamp).encode() + body
    signature = base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()
    return {"webhook-id": msg_id, "webhook-timestamp": str(timestamp), "webhook-signature": "v1," + signature}


class ContractSignatureTest(unittest.TestCase):
    def test_when_x_webhook_signature_is_the_hex_hmac_of_the_body_then_it_verifies(self):
        self.assertTrue(verify_webhook(BODY, {"X-Webhook-Signature": contract_signature(BODY)}, SECRET))

    def test_when_the_body_is_given_as_text_then_its_utf8_bytes_are_checked(self):
        body = '{"markdown":"café"}'
        headers = {"x-webhook-signature": contract_signature(body.encode("utf-8"))}
        self.assertTrue(verify_webhook(body, headers, SECRET))

    def test_when_one_byte_of_the_body_changes_then_it_fails(self):
        headers = {"X-Webhook-Signature": contract_signature(BODY)}
        self.assertFalse(verify_webhook(BODY.replace(b"Hi", b"Ho"), headers, SECRET))

    def test_when_the_secret_is_another_then_it_fails(self):
        headers = {"X-Webhook-Signature": contract_signature(BODY, SECRET + "!")}
        self.assertFalse(verify_webhook(BODY, headers, SECRET))

    def test_when_the_signature_is_not_hex_then_it_fails_without_raising(self):
        self.assertFalse(verify_webhook(BODY, {"X-Webhook-Signature": "zz" * 32}, SECRET))
        self.assertFalse(verify_webhook(BODY, {"X-Webhook-Signature": "ü"}, SECRET))

    def test_when_no_signature_header_is_present_then_it_fails(self):
        self.assertFalse(verify_webhook(BODY, {"X-Webhook-Conversion-Id": "x"}, SECRET))

    def test_when_headers_are_an_http_message_then_names_match_in_any_case(self):
        raw = "X-WEBHOOK-SIGNATURE: {}\r\n\r\n".format(contract_signature(BODY)).encode()
        message = http.client.parse_headers(io.BytesIO(raw))
        self.assertTrue(verify_webhook(BODY, message, SECRET))


class StandardWebhooksTest(unittest.TestCase):
    def test_when_the_standard_headers_sign_id_timestamp_and_body_then_it_verifies(self):
        self.assertTrue(verify_webhook(BODY, standard_headers(BODY), SECRET, now=NOW + 10))

    def test_when_the_timestamp_is_older_than_the_tolerance_then_a_replay_is_refused(self):
        headers = standard_headers(BODY)
        self.assertFalse(verify_webhook(BODY, headers, SECRET, now=NOW + 301))
        self.assertTrue(verify_webhook(BODY, headers, SECRET, now=NOW + 301, tolerance=600))

    def test_when_the_timestamp_is_far_in_the_future_then_it_is_refused(self):
        self.assertFalse(verify_webhook(BODY, standard_headers(BODY), SECRET, now=NOW - 301))

    def test_when_the_id_was_changed_then_it_fails(self):
        headers = dict(standard_headers(BODY), **{"webhook-id": "msg_2"})
        self.assertFalse(verify_webhook(BODY, headers, SECRET, now=NOW))

    def test_when_several_signatures_are_listed_then_one_valid_v1_is_enough(self):
        headers = standard_headers(BODY)
        headers["webhook-signature"] = "v1,AAAA v2,whatever " + headers["webhook-signature"]
        self.assertTrue(verify_webhook(BODY, headers, SECRET, now=NOW))

    def test_when_the_timestamp_header_is_missing_then_it_fails(self):
        headers = standard_headers(BODY)
        del headers["webhook-timestamp"]
        self.assertFalse(verify_webhook(BODY, headers, SECRET, now=NOW))

    def test_when_both_schemes_are_present_then_both_must_hold(self):
        headers = dict(standard_headers(BODY), **{"X-Webhook-Signature": contract_signature(BODY)})
        self.assertTrue(verify_webhook(BODY, headers, SECRET, now=NOW))
        self.assertFalse(verify_webhook(BODY, dict(headers, **{"X-Webhook-Signature": "0" * 64}), SECRET, now=NOW))
        self.assertFalse(verify_webhook(BODY, headers, SECRET, now=NOW + 3600))

    def test_when_the_secret_is_given_as_bytes_then_those_bytes_are_the_key(self):
        self.assertTrue(verify_webhook(BODY, standard_headers(BODY), SECRET.encode(), now=NOW))
