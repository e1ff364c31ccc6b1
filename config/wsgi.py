"""WSGI entry point (served by waitress, see ``tournaments/management/commands/serve.py``).

The phones' unchanged polls are answered before Django's middleware
(``config.poll_shortcut``); every other request goes to Django as it is.
"""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

# After get_wsgi_application(): the shortcut imports the views, which need the apps loaded.
from config.poll_shortcut import PollShortcut  # noqa: E402

application = PollShortcut(django_application)
