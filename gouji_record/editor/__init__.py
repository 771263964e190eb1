"""The record editor (记录编辑器): ``gouji edit``, a local web application to write down a hand by
keyboard, checked by the engine as it is typed.

:mod:`~gouji_record.editor.session` holds what the page sends and gets back (a record as plain
data, its verdict, the table, the legal actions; the file opened and saved); :mod:`~gouji_record.editor.app`
is the web application (Starlette, served by uvicorn) with its guards (loopback, a secret token,
the Host and Origin of each request, sizes).
"""
