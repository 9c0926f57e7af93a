import os
import tempfile
import unittest

from markwright.multipart import MultipartBody


class MultipartBodyTest(unittest.TestCase):
    def test_when_a_file_on_disk_is_sent_then_content_length_is_the_exact_size_and_the_body_repeats(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "big.txt")
            with open(path, "wb") as handle:
                handle.write(b"x" * 200_000)
            body = MultipartBody([("include_metadata", "true")], path, "big.txt")
            first = b"".join(body)
            self.assertEqual(len(first), body.content_length)
            self.assertEqual(b"".join(body), first)
            self.assertTrue(first.endswith(b"x\r\n--" + body.boundary.encode() + b"--\r\n"))

    def test_when_a_name_has_quotes_backslashes_or_line_breaks_then_they_are_escaped(self):
        body = b"".join(MultipartBody([], b"data", 'a"b\\c\r\nd.md'))
        self.assertIn(b'filename="a\\"b\\\\c%0D%0Ad.md"', body)

    def test_when_only_fields_are_sent_then_there_is_no_file_part(self):
        body = MultipartBody([("file_url", "https://example.com/a.pdf")])
        data = b"".join(body)
        self.assertEqual(len(data), body.content_length)
        self.assertNotIn(b"filename=", data)
