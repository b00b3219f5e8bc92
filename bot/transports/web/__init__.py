"""Tables on the web: a live page per table, a replay viewer and each player's private seat page, over aiohttp.

A transport like Discord and the terminal, but read-only: it reads tables through the store (:mod:`bot.infra.store`) and
the engines through :mod:`rules.registry`, never through a table host, so it runs inside ``parley run``
(``PARLEY_WEB_PORT``) or as any number of ``parley web`` processes beside a cluster. Every page, picture and event
is built from public views, or from one seat's view behind that seat's signed link. Modules:

- :mod:`bot.transports.web.links`: tables' unguessable addresses and the signed, expiring links to a seat page;
- :mod:`bot.transports.web.snapshot`: a table at one moment, and what its pages show of it (cards, move events);
- :mod:`bot.transports.web.source`: snapshots read through the store, the server setting that turns the pages off;
- :mod:`bot.transports.web.positions`: earlier positions of a game, replayed from its log, for the replay viewer;
- :mod:`bot.transports.web.boards`: pictures drawn by the render pool, cached per table, move and seat
(:mod:`bot.transports.web.cache`:
  each value computed once however many requests ask for it at the same moment);
- :mod:`bot.transports.web.feed`: hearing that a table changed: PostgreSQL's notifications, or polling on SQLite;
- :mod:`bot.transports.web.live`: the tables shown live and their server-sent event streams;
- :mod:`bot.transports.web.guard`: security headers, rate limits per address and caps on live connections;
- :mod:`bot.transports.web.pages`: the HTML of every page;
- :mod:`bot.transports.web.app`: the routes; :mod:`bot.transports.web.serve`: ``parley web`` and the pages inside
``parley run``.
"""
