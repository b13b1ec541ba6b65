"""Pictures made for the tests: honest ones, ones that carry what the site must never store (GPS, comments, HTML),
and malformed ones built byte by byte (zlib, struct), as an attacker would write them."""

from __future__ import annotations

import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageCms, PngImagePlugin

HTML = b"<html><script>alert(document.cookie)</script></html>"
COMMENT = b"<!-- <script>alert(1)</script> -->"
XMP = b'<x:xmpmeta xmlns:x="adobe:ns:meta/">where-i-live</x:xmpmeta>'
GPS = {1: "N", 2: (55.0, 45.0, 21.0), 3: "E", 4: (37.0, 37.0, 4.0)}


def upload(data: bytes, name: str = "me.jpg", content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def picture(kind: str = "PNG", size=(1200, 800), mode: str = "RGB", **save) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (200, 30, 30) if mode == "RGB" else None).save(out, kind, **save)
    return out.getvalue()


def jpeg_with_everything(size=(800, 600)) -> bytes:
    """A phone's JPEG: GPS and an orientation in EXIF, an HTML comment, XMP, an ICC profile, 300 dpi."""
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated: the stored picture must come out upright
    exif[0x8825] = GPS
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return picture("JPEG", size, exif=exif, comment=COMMENT, icc_profile=icc, xmp=XMP, dpi=(300, 300))


def png_with_everything() -> bytes:
    exif = Image.Exif()
    exif[0x8825] = GPS
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", COMMENT.decode())
    info.add_itxt("XML:com.adobe.xmp", XMP.decode())
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return picture("PNG", (600, 600), exif=exif, pnginfo=info, icc_profile=icc) + HTML


def big_jpeg(size: int = 6_400_000) -> bytes:
    """A real JPEG of `size` bytes (a small picture and the trailing bytes decoders ignore): 6.4 MB by default, past
    the photo pages' request limit; 5.4 MB passes that limit and is refused by the picture's own 5 MB rule."""
    data = picture("JPEG", (64, 64))
    return data + b"\0" * (size - len(data))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_chunks(*extra: bytes, ihdr: bytes | None = None, size=(4, 4)) -> bytes:
    """A PNG written chunk by chunk: IHDR (as given), the extra chunks, a small IDAT, IEND."""
    width, height = size
    ihdr = ihdr if ihdr is not None else struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80\x10\x10" * min(width, 4) for _ in range(min(height, 4)))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + b"".join(extra)
            + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b""))


def _jpeg_with_app1(exif: bytes) -> bytes:
    data = picture("JPEG", (40, 30))
    segment = b"Exif\x00\x00" + exif
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + data[2:]


_INFLATES_PAST_LIMIT = zlib.compress(b"\x00" * (PngImagePlugin.MAX_TEXT_CHUNK + 1024))
# An Exif IFD with orientation 6 (so the picture must be turned) and an entry whose type lies about its data:
# Pillow's exif_transpose fails on it (AttributeError), found by fuzzing.
_LYING_IFD = (b"II*\x00\x08\x00\x00\x00\x03\x00" + struct.pack("<HHII", 0x0112, 3, 1, 6)
              + struct.pack("<HHII", 0x010F, 12, 2, 34) + struct.pack("<HHII", 0x613F, 2, 1, 132)
              + b"\x00\x00\x00\x00" + bytes(range(40)))
# the same, with the Exif sub-IFD pointing before the start of the data (a negative seek: ValueError)
_BACKWARD_IFD = (b"II*\x00\x08\x00\x00\x00\x02\x00" + struct.pack("<HHII", 0x0112, 3, 1, 6)
                 + struct.pack("<HHII", 0x8769, 6, 1, 0xB2) + b"\x00\x00\x00\x00" + bytes(range(24)))

MALFORMED = {
    "png-ztxt-inflates-past-limit": png_chunks(_chunk(b"zTXt", b"Comment\x00\x00" + _INFLATES_PAST_LIMIT)),
    "png-iccp-inflates-past-limit": png_chunks(_chunk(b"iCCP", b"icc\x00\x00" + _INFLATES_PAST_LIMIT)),
    "png-exif-not-tiff": png_chunks(_chunk(b"eXIf", b"MM")),
    "png-exif-lying-types": png_chunks(_chunk(b"eXIf", _LYING_IFD)),
    "png-5-byte-ihdr": png_chunks(ihdr=b"\x00\x00\x00\x04\x08"),
    "png-truncated-idat": png_chunks(size=(300, 300)),
    "png-decompression-bomb": png_chunks(size=(20_000, 20_000)),
    "jpeg-app1-exif-lying-types": _jpeg_with_app1(_LYING_IFD),
    "jpeg-app1-exif-backward-ifd": _jpeg_with_app1(_BACKWARD_IFD),
    "jpeg-truncated": picture("JPEG", (300, 300))[:400],
    "svg": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
}

REFUSED = {
    # too large in bytes, in pixels, or not JPEG/PNG/WebP (whatever else Pillow knows)
    "jpeg-6.4-mb": (big_jpeg(), "файл больше 5 МБ"),
    "jpeg-5.4-mb": (big_jpeg(5_400_000), "файл больше 5 МБ"),
    "png-144-megapixels": (png_chunks(size=(12_000, 12_000)), "в изображении больше 40 мегапикселей"),
    "gif-with-html": (picture("GIF", (20, 20)) + HTML, "принимаются только изображения JPEG, PNG и WebP"),
    "eps": (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n%%EndComments\nshowpage\n%%EOF\n",
            "принимаются только изображения JPEG, PNG и WebP"),
    "bmp": (picture("BMP", (20, 20)), "принимаются только изображения JPEG, PNG и WebP"),
    "tiff": (picture("TIFF", (20, 20)), "принимаются только изображения JPEG, PNG и WebP"),
}
