"""multipart/form-data bodies written by hand (the standard library has no encoder), streamed.

The file is read in blocks while it is sent, so a 50 MB upload is never held in memory, and the
body can be iterated again to resend it (after a 429).
"""

import os
import uuid
from typing import Iterator, List, Optional, Tuple, Union

BLOCK_SIZE = 64 * 1024
FileSource = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview]


class MultipartBody:
    """Form fields, then at most one file part, as the bytes of a multipart/form-data body."""

    def __init__(
        self,
        fields: List[Tuple[str, str]],
        file: Optional[FileSource] = None,
        filename: Optional[str] = None,
        file_field: str = "file",
    ) -> None:
        self.boundary = "markwright-" + uuid.uuid4().hex
        self.content_type = "multipart/form-data; boundary=" + self.boundary
        self._fields = fields
        self._file = file
        self._head = b"".join(self._field_part(name, value) for name, value in fields)
        self._file_head = b""
        self._file_size = 0
        if file is not None:
            if filename is None:
                raise ValueError("a filename is needed to upload bytes")
            self._file_head = self._file_part_head(file_field, filename)
            self._file_size = len(file) if isinstance(file, (bytes, bytearray, memoryview)) else os.path.getsize(file)
        self._tail = ("--" + self.boundary + "--\r\n").encode("ascii")

    @property
    def content_length(self) -> int:
        file_part = len(self._file_head) + self._file_size + 2 if self._file is not None else 0
        return len(self._head) + file_part + len(self._tail)

    def __iter__(self) -> Iterator[bytes]:
        yield self._head
        if self._file is not None:
            yield self._file_head
            if isinstance(self._file, (bytes, bytearray, memoryview)):
                yield bytes(self._file)
            else:
                with open(self._file, "rb") as handle:
                    for block in iter(lambda: handle.read(BLOCK_SIZE), b""):
                        yield block
            yield b"\r\n"
        yield self._tail

    def _field_part(self, name: str, value: str) -> bytes:
        return (
            "--{}\r\nContent-Disposition: form-data; name=\"{}\"\r\n\r\n{}\r\n".format(
                self.boundary, _quote(name), value
            )
        ).encode("utf-8")

    def _file_part_head(self, name: str, filename: str) -> bytes:
        return (
            "--{}\r\nContent-Disposition: form-data; name=\"{}\"; filename=\"{}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n".format(self.boundary, _quote(name), _quote(filename))
        ).encode("utf-8")


def _quote(value: str) -> str:
    """A quoted-string's escapes for backslash and quote (the gateway's parser, busboy, reads them
    back, so a name keeps its quotes); CR and LF, which cannot be in a header, as %0D and %0A."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return escaped.replace("\r", "%0D").replace("\n", "%0A")
