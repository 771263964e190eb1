"""The editor's web application (编辑器服务): Starlette routes over :mod:`~gouji_record.editor.session`,
served by uvicorn, with the guards of any local server.

Routes: ``GET /`` the page (``?file=NAME`` another ``.gjn`` file of the folder), ``GET
/editor.js`` and ``/editor.css`` its script and style, ``GET /api/open?file=NAME`` a file as plain
data, ``POST /api/check`` the verdict of hands, ``POST /api/legal`` the legal actions where
one of them stops, ``POST /api/save`` the canonical text written,
``POST /api/preview`` then ``GET /preview/ID`` the replay page of the hands. Every answer of the
API is JSON; a refusal is ``{"error": "one line"}`` with a 4xx status (no such route and a wrong
method too), never a traceback: a 500 is a fault of the editor or of the disk. ``/api/check`` says in a
``Server-Timing`` header how long it took (the body read, the hands judged, the answer made).

Guards (:class:`Guard`), before any route:

- **Host** (DNS rebinding): on loopback, a request whose ``Host`` is not ``127.0.0.1:PORT``,
  ``localhost:PORT`` or ``[::1]:PORT`` is refused: a page of another site that had its name
  point at 127.0.0.1 cannot read or write through the editor.
- **Token**: listening elsewhere (``--host``), every request must carry the secret token made at
  start, as ``?token=`` or the ``X-Gouji-Token`` header (the address printed has it).
- **Origin**: a request with an ``Origin`` other than the page's own (``http://`` and its Host)
  is refused; a ``POST`` must be JSON (``Content-Type: application/json``), which a form of
  another site cannot send without the browser asking first.
- **Sizes**: a body over :data:`MAX_BODY` bytes is refused (413), read no further; one nested
  deeper than the parser recurses, 400 (:func:`_body`).
"""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import GoujiError
from ..judging.replay import replay
from ..render.html import environment, render_replays
from ..rules.rulesets import PRESETS
from .session import EditorError, Workspace, build, check, legal

#: The largest request body read, in bytes: a match of several whole hands with long comments
#: is under 200 KB.
MAX_BODY = 2 << 20
#: The replay pages kept for ``GET /preview/ID`` (the latest ones).
MAX_PREVIEWS = 4
TOKEN_HEADER = "x-gouji-token"

_PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; form-action 'none'; base-uri 'none'"
)
#: The replay page runs its own inline script, sandboxed: in an origin of its own, it cannot read the editor's.
_PREVIEW_POLICY = (
    "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
)
_ASSETS = {"/editor.js": "text/javascript", "/editor.css": "text/css"}


class Guard:
    """ASGI middleware refusing, with 403 and one line, a request of a foreign ``Host`` (when
    ``hosts`` is given), a foreign ``Origin``, or without ``token`` (when given)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None, token: str | None) -> None:
        self.app, self.hosts, self.token = app, hosts, token

    def refusal(self, request: Request) -> str | None:
        """Why ``request`` is refused, or ``None``."""
        host = request.headers.get("host", "").lower()
        if self.hosts is not None and host not in self.hosts:
            return f"Host {host!r} refused: the editor answers only at {min(self.hosts)}"
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host}":
            return f"Origin {origin!r} refused: only the editor's own page may call it"
        if self.token is not None:
            given = request.query_params.get("token") or request.headers.get(TOKEN_HEADER) or ""
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return "a secret token is needed: open the address the gouji edit command printed"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            reason = self.refusal(Request(scope))
            if reason is not None:
                await JSONResponse({"error": reason}, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _body(request: Request) -> Any:
    """The JSON object ``request`` carries: UTF-8, at most :data:`MAX_BODY` bytes, nested no
    deeper than Python's parser recurses (about 900 levels; a hand is 5). Raises
    :class:`EditorError`: 415 for another Content-Type, 413 for a body too large, 400 for one
    that is not such an object."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise EditorError("a request of the editor is JSON (Content-Type: application/json)", 415)
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_BODY:
        raise EditorError(f"request too large: over {MAX_BODY} bytes", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise EditorError(f"request too large: over {MAX_BODY} bytes", 413)
    try:
        data = json.loads(body.decode("utf-8"))  # JSON between systems is UTF-8 (RFC 8259 §8.1)
    except ValueError as e:  # UnicodeDecodeError too
        raise EditorError(f"the request is not JSON: {e}") from None
    except RecursionError:  # the parser recurses into each array and object
        raise EditorError("the request is not JSON the editor reads: nested too deeply") from None
    if not isinstance(data, dict):
        raise EditorError("the request is not a JSON object")
    return data


def create_app(workspace: Workspace, *, hosts: frozenset[str] | None, token: str | None = None) -> ASGIApp:
    """The editor as an ASGI application over ``workspace``, guarded (:class:`Guard`): ``hosts``
    the Host headers answered (``None``: any, only with a ``token``).

    Raises:
        ValueError: ``hosts`` is ``None`` (any Host) without a ``token``.
    """
    if hosts is None and token is None:
        raise ValueError("an editor answering any Host needs a token")
    previews: OrderedDict[str, str] = OrderedDict()

    async def refused(request: Request, e: EditorError) -> JSONResponse:
        """Any handler's :class:`EditorError`, as the answer (a Starlette exception handler)."""
        return JSONResponse({"error": e.message}, e.status)

    async def unrouted(request: Request, e: HTTPException) -> JSONResponse:
        """Starlette's own refusals (no such route, a method a route does not take), in JSON."""
        reason = {404: "no such page or API route", 405: f"{request.method} is not a method of this route"}
        return JSONResponse({"error": reason.get(e.status_code, e.detail)}, e.status_code, e.headers)

    async def failed(request: Request, e: Exception) -> JSONResponse:
        """A fault of the editor (a bug: its traceback is logged), answered in JSON."""
        return JSONResponse({"error": f"the editor failed ({type(e).__name__}): please report it"}, 500)

    async def page(request: Request) -> Response:
        html = environment().get_template("editor.html.j2").render(rulesets=list(PRESETS))
        return HTMLResponse(html, headers={"content-security-policy": _PAGE_POLICY, "cache-control": "no-store"})

    async def asset(request: Request) -> Response:
        path = request.url.path
        env = environment()
        text = env.loader.get_source(env, path.lstrip("/"))[0]  # html_templates/, as the pages
        return Response(text, media_type=_ASSETS[path], headers={"cache-control": "no-store"})

    async def open_(request: Request) -> Response:
        return JSONResponse(workspace.open(request.query_params.get("file")))

    async def check_(request: Request) -> Response:
        start = time.perf_counter()
        data = await _body(request)
        answer = JSONResponse({"hands": check(data.get("hands"))})
        answer.headers["server-timing"] = f"check;dur={(time.perf_counter() - start) * 1000:.1f}"
        return answer

    async def legal_(request: Request) -> Response:
        data = await _body(request)
        return JSONResponse({"legal": legal(data.get("hands"), data.get("hand", 0))})

    async def save(request: Request) -> Response:
        data = await _body(request)
        base = data.get("base")
        if base is not None and not isinstance(base, str):
            raise EditorError("base: expected the digest the file was opened with, or null")
        return JSONResponse(workspace.save(data.get("file"), data.get("hands"), base))

    async def preview(request: Request) -> Response:
        data = await _body(request)
        hands = data.get("hands")
        if not isinstance(hands, list) or not hands:
            raise EditorError("hands: expected a list of hands")
        records = []
        for n, hand in enumerate(hands, start=1):
            record, problem = build(hand)
            if record is None or problem is not None:
                raise EditorError(f"hand {n} does not read: {problem['message'] if problem else ''}")
            records.append(record)
        try:
            html = render_replays([(replay(r), None) for r in records])
        except GoujiError as e:  # an unknown ruleset, a bad option: said in one line
            raise EditorError(f"no preview: {e}") from None
        key = secrets.token_urlsafe(12)
        previews[key] = html
        while len(previews) > MAX_PREVIEWS:
            previews.popitem(last=False)
        return JSONResponse({"url": f"/preview/{key}"})

    async def shown(request: Request) -> Response:
        html = previews.get(request.path_params["key"])
        if html is None:
            return JSONResponse({"error": "no such preview: make it again"}, 404)
        return HTMLResponse(html, headers={"content-security-policy": _PREVIEW_POLICY})

    routes = [
        Route("/", page),
        *(Route(path, asset) for path in _ASSETS),
        Route("/api/open", open_),
        Route("/api/check", check_, methods=["POST"]),
        Route("/api/legal", legal_, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/preview", preview, methods=["POST"]),
        Route("/preview/{key}", shown),
    ]
    handlers = {EditorError: refused, HTTPException: unrouted, Exception: failed}
    return Guard(Starlette(routes=routes, exception_handlers=handlers), hosts, token)


def loopback_hosts(port: int) -> frozenset[str]:
    """The Host headers of the editor on loopback at ``port``."""
    return frozenset({f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"})


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket at ``host``:``port`` (``0``: a free port). Raises :class:`OSError`
    (port in use, an address not of this machine)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, so that asyncio sets TCP_NODELAY on each connection accepted (it looks at
    # the socket's proto): without it, an answer written in two parts waits for the browser's
    # delayed ACK, 40 ms, on every request of a kept-alive connection
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


def server(app: ASGIApp) -> uvicorn.Server:
    """A uvicorn server of ``app``: quiet, bounded (64 connections at once, idle ones closed after 5 s)."""
    config = uvicorn.Config(
        app, log_level="warning", limit_concurrency=64, timeout_keep_alive=5, server_header=False, lifespan="off"
    )
    return uvicorn.Server(config)


@contextmanager
def running(workspace: Workspace, *, token: str | None = None, host: str = "127.0.0.1") -> Iterator[str]:
    """The editor served in a thread for the block (tests, benchmarks): gives its address
    (``http://127.0.0.1:PORT/``), and stops the server when the block ends."""
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    app = create_app(workspace, hosts=None if token else loopback_hosts(port), token=token)
    srv = server(app)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not srv.started and thread.is_alive():
            thread.join(0.01)
        yield f"http://{host}:{port}/"
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()
