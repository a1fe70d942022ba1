"""The client's files: versioned URLs, gzip, validators and 304s, the module preloads."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx
import pytest

from scorpion.web.static import ClientFiles, accepts_gzip
from scorpion_dev.server import ServerProcess

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


def test_page_preloads_the_module_graph_with_versions(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        page = http.get("/", headers=GZIP)
        assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
        assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
        html = page.text  # httpx decodes the gzip
        main = re.search(r'<script type="module" src="(/js/main\.js\?v=\w+)"', html)
        assert main, html
        preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
        assert len(preloads) >= 4 and all("?v=" in url for url in preloads)
        # Every module reached from main.js is preloaded under the very URL its importer uses.
        seen, todo = set(), [main.group(1)]
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            r = http.get(url, headers=GZIP)
            assert r.status_code == 200, url
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable", url
            assert r.headers["content-type"].startswith("text/javascript")
            base = url.rsplit("/", 1)[0]
            for spec in re.findall(r'from "(\.{1,2}/[^"]+)"', r.text):
                assert "?v=" in spec, (url, spec)
                todo.append(str(httpx.URL(server.url + base + "/").join(spec).raw_path, "ascii"))
        assert seen - {main.group(1)} == set(preloads)
        # A view's module loads when its route opens (import()): versioned, not preloaded.
        main_js = http.get(main.group(1)).text
        lazy = re.findall(r'import\("(\./views/[^"]+)"\)', main_js)
        assert len(lazy) >= 8 and all("?v=" in spec for spec in lazy)
        assert not any("/views/" in url for url in preloads)
        for css in re.findall(r'href="(/css/[^"]+)"', html):
            assert "?v=" in css and http.get(css).headers["cache-control"].endswith("immutable")


def test_validators_and_compression(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as http:
        plain = http.get("/js/main.js", headers=PLAIN)
        assert plain.status_code == 200 and "content-encoding" not in plain.headers
        assert plain.headers["cache-control"] == "no-cache"  # no version: revalidate
        assert plain.headers["vary"] == "Accept-Encoding"
        with http.stream("GET", "/js/main.js", headers=GZIP) as packed:
            raw = b"".join(packed.iter_raw())
        assert packed.headers["content-encoding"] == "gzip"
        assert len(raw) < len(plain.content) and gzip.decompress(raw) == plain.content
        etag, modified = plain.headers["etag"], plain.headers["last-modified"]
        assert packed.headers["etag"] == etag[:-1] + '-gz"'
        for headers in ({"If-None-Match": etag}, {"If-None-Match": packed.headers["etag"]},
                        {"If-None-Match": f'"other", W/{etag}'}, {"If-Modified-Since": modified},
                        {"If-None-Match": "*"}):  # fmt: skip
            r = http.get("/js/main.js", headers={**GZIP, **headers})
            assert r.status_code == 304 and r.content == b"", headers
            assert r.headers["etag"] == packed.headers["etag"]
        assert http.get("/js/main.js", headers={"If-None-Match": '"other"'}).status_code == 200
        old = "Mon, 01 Jan 1990 00:00:00 GMT"
        assert http.get("/js/main.js", headers={"If-Modified-Since": old}).status_code == 200
        stale = http.get("/js/main.js?v=0000", headers=PLAIN)
        assert stale.headers["cache-control"] == "no-cache" and stale.content == plain.content
        head = http.head("/js/main.js", headers=PLAIN)
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(plain.content))
        room = http.get("/r/abc", headers=GZIP)
        assert room.headers["etag"] == http.get("/", headers=GZIP).headers["etag"]
        assert room.headers["cache-control"] == "no-cache"
        assert http.get("/js/nothing.js").status_code == 404
        assert http.get("/../pyproject.toml").status_code == 404


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_module_version_covers_its_imports(tmp_path: Path) -> None:
    page = '<head><script type="module" src="/js/main.js"></script></head>'
    files = {
        "index.html": page,
        "js/main.js": 'import { a } from "./a.js";\nimport "./views/b.js";\n',
        "js/a.js": "export const a = 1;\n",
        "js/views/b.js": 'import { a } from "../a.js";\n',
        "js/unused.js": "export {};\n",
    }
    write(tmp_path, files)
    before = ClientFiles(tmp_path)
    assert before.graph("/js/main.js") == ["/js/a.js", "/js/views/b.js"]
    html = before.assets["/index.html"].body.decode()
    assert f'href="{before.url("/js/a.js")}"' in html and "unused" not in html
    b_text = before.assets["/js/views/b.js"].body.decode()
    assert f'"../a.js?v={before.assets["/js/a.js"].version}"' in b_text
    write(tmp_path, {"js/a.js": "export const a = 2;\n"})
    after = ClientFiles(tmp_path)
    for url in ("/js/a.js", "/js/views/b.js", "/js/main.js", "/index.html"):
        assert after.assets[url].version != before.assets[url].version, url
    assert after.assets["/js/unused.js"].version == before.assets["/js/unused.js"].version


def test_an_import_cycle_is_refused(tmp_path: Path) -> None:
    cycle = {"index.html": "", "js/a.js": 'import "./b.js";', "js/b.js": 'import "./a.js";'}
    write(tmp_path, cycle)
    with pytest.raises(ValueError, match="cycle"):
        ClientFiles(tmp_path)


def test_accept_encoding() -> None:
    assert accepts_gzip("gzip, deflate, br") and accepts_gzip("br;q=1.0, gzip;q=0.8")
    assert not accepts_gzip("identity") and not accepts_gzip("gzip;q=0") and not accepts_gzip("")
