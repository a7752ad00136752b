#!/usr/bin/env python3
"""Optional reference focused crawler for the real-corpus evaluation (not part of CI).

A plain soft-focus crawler (Chakrabarti et al. 1999 without the distiller):
scikit-learn's LogisticRegression on sublinear TF-IDF of the example set gives
every fetched page its relevance R = Pr[good | page], and a max-heap frontier
keyed by the parent's R (seeds 1.0; a URL keeps its best priority; ties in
insertion order) picks the next URL. Every request is plain HTTP/1.1 to one
loopback address with the URL's host in `Host` (curl's `--connect-to`), over
one keep-alive connection:

    python3 -m pip install scikit-learn numpy
    cargo run --release -p websim -- sample --out ex --per-topic 20
    cargo run --release -p websim -- serve      # prints the PORT and seed URLs
    python3 xtask/reference/crawl_sklearn.py --connect 127.0.0.1:PORT \\
        --examples ex --good recreation/outdoors/cycling --seeds seeds.txt \\
        --max-pages 300 --out pages.jsonl

`--out` gets one JSON object per fetch attempt, in fetch order:
`url` (requested), `final_url` (after redirects), `status` (HTTP status or
null), `relevance`, `parent` (the `url` of the page whose link gave the URL
its priority, null for seeds) and `error` (null or a short label:
robots_disallowed, robots_unavailable, timeout, connect_error, too_large,
skipped_type, decode_error, redirect_loop, too_many_redirects, bad_redirect,
status_NNN, parse_error). A URL that robots.txt refuses is recorded as an
attempt with status null and relevance 0, as the Rust crawlers record it.
`--bfs` is the breadth-first baseline: the same crawl with every priority 1.0
(first in, first out).

Stdlib, scikit-learn and numpy only; deterministic given the same inputs
(`--seed` seeds numpy and `random`; lbfgs itself draws nothing).
"""
import argparse
import heapq
import http.client
import json
import os
import random
import re
import socket
import sys
import time
import urllib.robotparser
import zlib
from html.parser import HTMLParser
from urllib.parse import quote, urldefrag, urljoin, urlsplit, urlunsplit

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

USER_AGENT = "focus-reference-sklearn/0.1"
TIMEOUT_S = 10.0
TOTAL_TIMEOUT_S = 30.0  # one response's whole body, against slow drips
MAX_HTML_BYTES = 5 << 20  # the Rust fetcher's max_html_bytes
MAX_EXAMPLE_BYTES = 10 << 20  # docs/formats.md: larger example files are skipped
MAX_REDIRECTS = 5
HTML_TYPES = ("text/html", "application/xhtml+xml")
SKIP_TAGS = {"script", "style", "nav", "header", "footer"}


def warn(msg: str) -> None:
    print(f"crawl_sklearn: {msg}", file=sys.stderr)


# ---------------------------------------------------------------- HTML


class PageParser(HTMLParser):
    """Visible text (title + body, without script/style/nav/header/footer),
    `<a href>` targets, `<base href>` and meta robots nofollow."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: list = []
        self.text: list = []
        self.hrefs: list = []
        self.base = None
        self.nofollow = False
        self.skip = 0  # depth inside skipped elements
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        if tag in SKIP_TAGS:
            self.skip += 1
        elif tag == "title":
            self.in_title = True
        elif tag == "a":
            for k, v in attrs:
                if k == "href" and v:
                    self.hrefs.append(v)
                    break
        elif tag == "base" and self.base is None:
            for k, v in attrs:
                if k == "href" and v:
                    self.base = v
                    break
        elif tag == "meta":
            a = {k: (v or "") for k, v in attrs}
            if a.get("name", "").lower() == "robots" and "nofollow" in a.get("content", "").lower():
                self.nofollow = True

    def handle_startendtag(self, tag, attrs):
        # <nav/> and friends open nothing.
        if tag not in SKIP_TAGS:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in SKIP_TAGS:
            if self.skip:
                self.skip -= 1
        elif tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_title:
            self.title.append(data)
        elif not self.skip:
            self.text.append(data)

    def visible_text(self) -> str:
        return " ".join(self.title) + "\n" + " ".join(self.text)


def parse_html(html: str) -> PageParser:
    p = PageParser()
    p.feed(html)
    p.close()
    return p


# ---------------------------------------------------------------- URLs


def normalize(url: str):
    """http(s) URL without fragment, lower-case scheme and host, no default
    port, path at least `/`, unsafe characters percent-encoded; None if not
    http(s) or unparsable."""
    try:
        url = urldefrag(url.strip())[0]
        s = urlsplit(url)
        scheme = s.scheme.lower()
        if scheme not in ("http", "https") or not s.hostname:
            return None
        host = s.hostname.encode("idna").decode("ascii").lower()
        port = s.port
        default = 80 if scheme == "http" else 443
        netloc = host if port is None or port == default else f"{host}:{port}"
        path = quote(s.path or "/", safe="/%:@!$&'()*+,;=-._~")
        query = quote(s.query, safe="/%:@!$&'()*+,;=-._~?")
        return urlunsplit((scheme, netloc, path, query, ""))
    except (ValueError, UnicodeError):
        return None


def resolve_links(page_url: str, p: PageParser) -> list:
    base = page_url
    if p.base:
        b = normalize(urljoin(page_url, p.base))
        if b:
            base = b
    out, seen = [], set()
    for h in p.hrefs:
        try:
            u = normalize(urljoin(base, h.strip()))
        except ValueError:
            u = None
        if u and u not in seen:
            seen.add(u)
            out.append(u)
    return out


# ---------------------------------------------------------------- decoding

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


def charset_of(content_type: str):
    m = re.search(r"charset\s*=\s*[\"']?([^\s;\"']+)", content_type or "", re.I)
    return m.group(1) if m else None


def decode(body: bytes, content_type: str) -> str:
    """Content-Type charset, then BOM, then <meta charset> in the first KiB,
    else UTF-8; unknown charsets fall back to UTF-8; bad bytes are replaced."""
    cs = charset_of(content_type)
    if cs:
        try:
            return body.decode(cs, errors="replace")
        except LookupError:
            pass
    if body.startswith(b"\xef\xbb\xbf"):
        return body[3:].decode("utf-8", errors="replace")
    if body.startswith((b"\xff\xfe", b"\xfe\xff")):
        return body.decode("utf-16", errors="replace")
    m = _META_CHARSET.search(body[:1024])
    if m:
        try:
            return body.decode(m.group(1).decode("ascii"), errors="replace")
        except (LookupError, UnicodeError):
            pass
    return body.decode("utf-8", errors="replace")


def content_decode(body: bytes, encoding: str, cap: int) -> bytes:
    enc = (encoding or "").strip().lower()
    if enc in ("", "identity"):
        return body
    if enc in ("gzip", "x-gzip", "deflate"):
        wbits = 16 + zlib.MAX_WBITS if enc != "deflate" else zlib.MAX_WBITS
        try:
            d = zlib.decompressobj(wbits)
            out = d.decompress(body, cap + 1)
        except zlib.error:
            if enc != "deflate":
                raise
            d = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate
            out = d.decompress(body, cap + 1)
        if len(out) > cap:
            raise ValueError("too_large")
        return out
    raise ValueError(f"unsupported content-encoding {enc}")


# ---------------------------------------------------------------- HTTP


class FetchError(Exception):
    def __init__(self, label: str, status=None):
        super().__init__(label)
        self.label = label
        self.status = status


class Client:
    """One keep-alive HTTP/1.1 connection to the --connect address; the URL's
    host goes in `Host`. A connection error reconnects once and retries."""

    def __init__(self, connect: str) -> None:
        host, _, port = connect.rpartition(":")
        if not host or not port.isdigit():
            raise SystemExit(f"--connect: expected HOST:PORT, got {connect!r}")
        self.host, self.port = host.strip("[]"), int(port)
        self.conn = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def get(self, url: str, cap: int = MAX_HTML_BYTES, html_only: bool = True):
        """(status, headers dict lower-case, body bytes or None). Raises FetchError."""
        for attempt in (0, 1):
            try:
                return self._get_once(url, cap, html_only)
            except FetchError:
                raise
            except (socket.timeout, TimeoutError):
                self.close()
                raise FetchError("timeout")
            except (ConnectionError, http.client.HTTPException, OSError) as e:
                self.close()
                if attempt == 1:
                    raise FetchError("connect_error") from e
        raise AssertionError("unreachable")

    def _get_once(self, url: str, cap: int, html_only: bool):
        s = urlsplit(url)
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT_S)
        target = (s.path or "/") + (f"?{s.query}" if s.query else "")
        self.conn.request("GET", target, headers={
            "Host": s.netloc,
            "User-Agent": USER_AGENT,
            "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
            "Accept-Encoding": "gzip, deflate",
            "Connection": "keep-alive",
        })
        resp = self.conn.getresponse()
        status = resp.status
        headers = {k.lower(): v for k, v in resp.getheaders()}
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        length = headers.get("content-length")
        length = int(length) if length and length.strip().isdigit() else None
        wanted = 200 <= status < 300 and (not html_only or ctype in HTML_TYPES or not ctype)
        if not wanted or (length is not None and length > cap):
            # The body is not needed: drain a small one to keep the connection,
            # drop the connection otherwise.
            if length is not None and length <= 64 << 10:
                resp.read()
            else:
                self.close()
            if wanted:
                raise FetchError("too_large", status)
            return status, headers, None
        start, chunks, n = time.monotonic(), [], 0
        while True:
            chunk = resp.read(64 << 10)
            if not chunk:
                break
            chunks.append(chunk)
            n += len(chunk)
            if n > cap:
                self.close()
                raise FetchError("too_large", status)
            if time.monotonic() - start > TOTAL_TIMEOUT_S:
                self.close()
                raise FetchError("timeout")
        if headers.get("connection", "").lower() == "close":
            self.close()
        body = b"".join(chunks)
        try:
            body = content_decode(body, headers.get("content-encoding", ""), cap)
        except ValueError as e:
            raise FetchError("too_large" if str(e) == "too_large" else "decode_error", status)
        except zlib.error:
            raise FetchError("decode_error", status)
        return status, headers, body


class Robots:
    """robots.txt per scheme://host, fetched once through the same client."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.cache: dict = {}

    def check(self, url: str):
        """None if `url` may be fetched, else the error label:
        robots_disallowed, or robots_unavailable (robots.txt unreachable or
        5xx, which RFC 9309 reads as a complete disallow)."""
        s = urlsplit(url)
        key = f"{s.scheme}://{s.netloc}"
        rp = self.cache.get(key)
        if rp is None:
            rp = self._load(key)
            self.cache[key] = rp
        if getattr(rp, "unavailable", False):
            return "robots_unavailable"
        return None if rp.can_fetch(USER_AGENT, url) else "robots_disallowed"

    def _load(self, origin: str) -> urllib.robotparser.RobotFileParser:
        rp = urllib.robotparser.RobotFileParser(origin + "/robots.txt")
        rp.unavailable = False
        url = origin + "/robots.txt"
        try:
            for _ in range(MAX_REDIRECTS + 1):
                status, headers, body = self.client.get(url, cap=512 << 10, html_only=False)
                if status in (301, 302, 303, 307, 308) and headers.get("location"):
                    nxt = normalize(urljoin(url, headers["location"]))
                    if nxt is None:
                        break
                    url = nxt
                    continue
                if status == 200 and body is not None:
                    rp.parse(decode(body, headers.get("content-type", "")).splitlines())
                elif status in (401, 403):
                    rp.disallow_all = True
                elif 400 <= status < 500:
                    rp.allow_all = True  # a 404 robots.txt allows everything
                else:
                    rp.disallow_all = rp.unavailable = True  # 5xx
                return rp
            rp.allow_all = True  # too many redirects: RFC 9309 reads it as a 404
        except FetchError:
            rp.disallow_all = rp.unavailable = True  # unreachable
        return rp


# ---------------------------------------------------------------- training


def load_examples(root: str, goods: list):
    """(texts, labels) of the example set; label 1 when the topic path is a
    --good path or below one. Follows docs/formats.md's skip rules."""
    if not os.path.isdir(root):
        raise SystemExit(f"--examples {root}: not a folder")
    topics = set()
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        if rel != ".":
            topics.add(rel)
    goods = [g.strip("/") for g in goods]
    for g in goods:
        if not g or g == ".":
            raise SystemExit("--good: the root cannot be good")
        if g not in topics:
            raise SystemExit(f"--good {g}: not a folder of {root}")
    for a in goods:
        for b in goods:
            if a != b and b.startswith(a + "/"):
                raise SystemExit(f"--good {a} is an ancestor of --good {b}")

    def is_good(topic: str) -> bool:
        return any(topic == g or topic.startswith(g + "/") for g in goods)

    texts, labels = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if name.startswith("."):
                continue
            if rel == ".":
                warn(f"{path}: skipped (a file directly in the example folder has no topic)")
                continue
            low = name.lower()
            if low == "urls.txt":
                warn(f"{path}: skipped (example URLs are not fetched by this reference)")
                continue
            if not low.endswith((".html", ".htm", ".txt")):
                warn(f"{path}: skipped (not .html, .htm or .txt)")
                continue
            try:
                if os.path.getsize(path) > MAX_EXAMPLE_BYTES:
                    warn(f"{path}: skipped (larger than 10 MiB)")
                    continue
                with open(path, "rb") as f:
                    raw = f.read()
                if low.endswith(".txt"):
                    text = raw.decode("utf-8", errors="replace")
                else:
                    text = parse_html(decode(raw, "")).visible_text()
            except Exception as e:  # noqa: BLE001 - an unreadable example is left out
                warn(f"{path}: skipped ({e})")
                continue
            texts.append(text)
            labels.append(1 if is_good(rel) else 0)
    return texts, labels


class Model:
    def __init__(self, texts: list, labels: list, seed: int) -> None:
        y = np.asarray(labels)
        pos = int(y.sum())
        if pos == 0 or pos == len(y):
            raise SystemExit(f"need positive and negative examples, got {pos} of {len(y)} positive")
        try:
            self.vec = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2)
            x = self.vec.fit_transform(texts)
        except ValueError:
            warn("min_df=2 leaves no terms; training with min_df=1")
            self.vec = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=1)
            x = self.vec.fit_transform(texts)
        self.lr = LogisticRegression(C=1.0, max_iter=1000, class_weight="balanced",
                                     random_state=seed)
        self.lr.fit(x, y)
        self.pos = list(self.lr.classes_).index(1)
        warn(f"trained on {len(y)} examples ({pos} positive), {x.shape[1]} terms")

    def relevance(self, text: str) -> float:
        return float(self.lr.predict_proba(self.vec.transform([text]))[0, self.pos])


# ---------------------------------------------------------------- crawl


class Frontier:
    """Max-heap on priority, ties first in first out; a URL keeps its best
    priority (and the parent that gave it)."""

    def __init__(self) -> None:
        self.heap: list = []
        self.best: dict = {}  # url -> (priority, parent)
        self.seq = 0

    def push(self, url: str, priority: float, parent) -> None:
        old = self.best.get(url)
        if old is not None and old[0] >= priority:
            return
        self.best[url] = (priority, parent)
        heapq.heappush(self.heap, (-priority, self.seq, url))
        self.seq += 1

    def pop(self, visited: set):
        while self.heap:
            negp, _, url = heapq.heappop(self.heap)
            if url in visited or self.best[url][0] != -negp:
                continue  # fetched already, or a stale entry
            return url, self.best[url][1]
        return None


def fetch_page(client: Client, robots: Robots, url: str):
    """(final_url, status, error, decoded html or None)."""
    seen, cur, status = {url}, url, None
    for hop in range(MAX_REDIRECTS + 1):
        refused = robots.check(cur)
        if refused:
            return cur, None if hop == 0 else status, refused, None
        try:
            status, headers, body = client.get(cur)
        except FetchError as e:
            return cur, e.status, e.label, None
        if status in (301, 302, 303, 307, 308):
            loc = headers.get("location")
            nxt = normalize(urljoin(cur, loc)) if loc else None
            if nxt is None:
                return cur, status, "bad_redirect", None
            if nxt in seen:
                return nxt, status, "redirect_loop", None
            if hop == MAX_REDIRECTS:
                return cur, status, "too_many_redirects", None
            seen.add(nxt)
            cur = nxt
            continue
        if status != 200:
            return cur, status, f"status_{status}", None
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if body is None or (ctype and ctype not in HTML_TYPES):
            return cur, status, "skipped_type", None
        return cur, status, None, decode(body, headers.get("content-type", ""))
    return cur, status, "too_many_redirects", None


def read_seeds(path: str) -> list:
    seeds = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for i, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            u = normalize(line)
            if u is None:
                warn(f"{path}:{i}: skipped seed: not an http(s) URL")
            else:
                seeds.append(u)
    if not seeds:
        raise SystemExit(f"{path}: no valid seed URL")
    return seeds


def crawl(args) -> None:
    random.seed(args.seed)
    np.random.seed(args.seed)
    texts, labels = load_examples(args.examples, args.good)
    model = Model(texts, labels, args.seed)
    client = Client(args.connect)
    robots = Robots(client)
    frontier, visited = Frontier(), set()
    for s in read_seeds(args.seeds):
        frontier.push(s, 1.0, None)

    start, pages, rsum, stopped = time.monotonic(), 0, 0.0, "max-pages"
    with open(args.out, "w", encoding="utf-8") as out:
        while pages < args.max_pages:
            nxt = frontier.pop(visited)
            if nxt is None:
                stopped = "frontier empty"
                break
            url, parent = nxt
            visited.add(url)
            rel, links, error = 0.0, [], None
            try:
                final, status, error, html = fetch_page(client, robots, url)
                visited.add(final)
                if html is not None:
                    try:
                        p = parse_html(html)
                        rel = model.relevance(p.visible_text())
                        if not p.nofollow:
                            links = resolve_links(final, p)
                    except Exception:  # noqa: BLE001 - a bad page is recorded and skipped
                        error, rel, links = "parse_error", 0.0, []
            except Exception as e:  # noqa: BLE001 - never crash the crawl on one URL
                final, status, error = url, None, f"internal_error: {type(e).__name__}"
                client.close()
            pages += 1
            rsum += rel
            out.write(json.dumps({"url": url, "final_url": final, "status": status,
                                  "relevance": rel, "parent": parent, "error": error}) + "\n")
            prio = 1.0 if args.bfs else rel
            for link in links:
                if link not in visited:
                    frontier.push(link, prio, url)
    client.close()
    secs = time.monotonic() - start
    mean = rsum / pages if pages else 0.0
    print(f"crawl_sklearn: {pages} pages, mean relevance {mean:.4f}, {secs:.1f} s "
          f"({pages / secs if secs > 0 else 0.0:.1f} pages/s), stopped: {stopped}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(
        description="Reference soft-focus crawler (scikit-learn, no distiller).")
    ap.add_argument("--connect", required=True, help="HOST:PORT every request goes to")
    ap.add_argument("--examples", required=True, help="example-set folder (docs/formats.md)")
    ap.add_argument("--good", action="append", required=True, help="good topic path (repeatable)")
    ap.add_argument("--seeds", required=True, help="seed URLs, one per line, # comments")
    ap.add_argument("--max-pages", type=int, required=True, help="fetch attempts to make")
    ap.add_argument("--out", required=True, help="pages JSON lines")
    ap.add_argument("--seed", type=int, default=1, help="seed of anything random")
    ap.add_argument("--bfs", action="store_true",
                    help="breadth-first baseline (every priority 1.0)")
    crawl(ap.parse_args())


if __name__ == "__main__":
    main()
