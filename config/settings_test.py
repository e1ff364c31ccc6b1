"""Settings for the test suite: the production settings with a fast password hasher.

PBKDF2's many iterations cost about 0.4 s per ``create_user``; the suite creates an arbiter in
most tests. MD5 keeps passwords checkable (logins still work in tests) and is never used outside
tests. Servers the tests start in a subprocess (``manage.py serve``) keep ``config.settings``:
they authenticate by session, whose hash does not depend on the password hasher.
"""
from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
