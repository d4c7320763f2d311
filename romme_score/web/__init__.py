"""``romme serve``: the session on every phone at the table (issue 19).

A small ASGI application (Starlette, served by uvicorn; the event stream a Starlette
StreamingResponse, QR codes by segno) over the session service, as Datasette is over
SQLite: one module per area (:mod:`.app` the paths, :mod:`.state` the JSON of the pages,
:mod:`.cache` what is built once per version for every page, :mod:`.events` the
change stream, :mod:`.writes` the phones' writes, :mod:`.referee`,
:mod:`.pages`, :mod:`.guard` what a guest may not do, :mod:`.links` the tokens), the
pages' script, style sheet and template shipped in the package. Imported by
``romme serve`` alone (the optional extra ``[serve]``), never on ``romme check``'s path.
"""
