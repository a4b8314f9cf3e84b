"""WSGI entry point.

The worker loads the middleware (``get_wsgi_application``) and imports the URLs, with
every view and what the views import (numpy, the metrics), when it starts: the first
request a worker serves, often a lead's first dashboard view, then waits for its own
work only.

What it loaded to start (the modules, their functions and classes: most of the objects
Python's cyclic garbage collector walks) lives as long as the worker, so it is frozen out
of the collector's walks (``gc.freeze``): a full collection, which a dashboard view after
a judgment triggers at real size, then walks a third of what it did (80-90 ms of the
view's CPU, 30 ms frozen; ``docs/performance.md``).

Its youngest generation is collected every :data:`YOUNG_COLLECTION` allocations of
container objects rather than Python's 700: a dashboard view's figures make tens of
thousands of short-lived lists, dicts and records, and at 700 a young collection finds
most of them still in use and moves them to the older generations, where they die
later; those moves are what triggers a full collection (one per view after a judgment,
16-25 ms of its CPU). At 10,000 most die before a young collection sees them: none is
full, and the view's collections cost 5 ms in all (``docs/performance.md``).
"""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")

# A server signs sessions and forms: it refuses to start without a secret (reading an
# empty SECRET_KEY raises Django's ImproperlyConfigured), rather than fail a request later.
if not settings.SECRET_KEY:
    raise ImproperlyConfigured("The SECRET_KEY setting must not be empty.")

application = get_wsgi_application()
import_module(settings.ROOT_URLCONF)
import_module("sacremoses")  # new references' detokenizer: loaded lazily by commands only
#: Allocations of container objects between two collections of the youngest generation.
YOUNG_COLLECTION = 10_000

gc.collect()  # what starting left as garbage is not kept frozen
gc.freeze()
gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
