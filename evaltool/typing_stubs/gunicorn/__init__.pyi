# gunicorn ships no types; evaltool/gunicorn_logging.py subclasses its Logger.
