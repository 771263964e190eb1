"""Recording a hand in the browser (记录编辑器): ``gouji edit``."""

from __future__ import annotations

import os
import secrets
import webbrowser
from pathlib import Path

import click

from .common import _CommandLineError

#: The port by default: always the same, so that the page's address (and the draft the browser
#: keeps for it) is the same from one run to the next.
DEFAULT_PORT = 8736


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=True))
@click.option(
    "--host",
    default=None,
    help="Listen at this address too (0.0.0.0: every network, for a phone on the same network); "
    "a secret token is then made and needed in the address. Default: this machine only (127.0.0.1).",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True, help="0: any free port."
)
@click.option("--no-browser", is_flag=True, help="Only print the address; do not open a browser.")
def edit(file: str | None, host: str | None, port: int, no_browser: bool) -> None:
    """Record a hand in the browser: a local page to type a record by keyboard, each action
    checked by the engine as it is typed (the verdict gouji validate gives, at the action),
    saved as the canonical .gjn (what gouji fmt writes).

    FILE is a .gjn file, new or not (default: hand.gjn in the current directory), or a folder
    (its hand.gjn). Only .gjn files of its folder are opened or saved. Stop with Ctrl-C."""
    from ..editor.app import bind, create_app, loopback_hosts, server  # (the web server: only here)
    from ..editor.session import EditorError, Workspace

    target = Path(file or "hand.gjn")
    if os.path.isdir(target):  # (False for a name the system refuses: the workspace says why)
        target = target / "hand.gjn"
    if target.suffix.lower() != ".gjn":
        raise _CommandLineError(f"{target}: the editor opens and saves .gjn files only")
    workspace = Workspace(target.parent, target.name)
    try:
        workspace.open(None)  # a file that does not read, a folder not there: said now, not in the page
    except EditorError as e:
        raise _CommandLineError(e.message) from None
    token = secrets.token_urlsafe(18) if host else None
    listen = host or "127.0.0.1"
    try:
        sock = bind(listen, port)
    except OSError as e:
        hint = " (give another --port, or --port 0 for any free one)" if port else ""
        raise _CommandLineError(f"cannot listen at {listen}:{port}: {e.strerror or e}{hint}") from None
    port = sock.getsockname()[1]
    app = create_app(workspace, hosts=None if token else loopback_hosts(port), token=token)
    shown = "127.0.0.1" if listen in ("0.0.0.0", "::") else listen
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/" + (f"?token={token}" if token else "")
    click.echo(f"gouji edit: {os.path.relpath(target)} at {url}  (Ctrl-C to stop)")
    if token:
        click.echo("  anyone with this address can read and write the .gjn files of the folder: keep it to yourself")
    if not no_browser:
        webbrowser.open(url)
    try:
        server(app).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again for whoever runs it
        pass
    finally:
        sock.close()
    click.echo("gouji edit: stopped")
