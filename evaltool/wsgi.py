"""WSGI entry point.

The worker loads the middleware (``get_wsgi_application``) and imports the URLs, with
every view and what the views import (numpy, the metrics), when it starts: the first
request a worker serves, often a lead's first dashboard view, then waits for its own
work only.
"""

import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evaltool.settings")

application = get_wsgi_application()
import_module(settings.ROOT_URLCONF)
