"""``manage.py serve`` hands waitress the trusted proxy of ``ARBITRO_TRUSTED_PROXIES``, and
django-axes counts the client's address (the fast half of tests/security/test_proxy_nginx.py)."""
from waitress.proxy_headers import proxy_headers_middleware

from tournaments.captains.devices import client_ip
from tournaments.management.commands.serve import proxy_options, server_options


def test_no_proxy_means_no_proxy_options():
    assert proxy_options([]) == {} and proxy_options(None) == {}
    assert "trusted_proxy" not in server_options(host="127.0.0.1", port=8000, trusted_proxies=[])


def test_one_proxy_trusts_its_forwarded_for_and_proto():
    options = server_options(host="127.0.0.1", port=8001, trusted_proxies=["127.0.0.1"])
    assert options["trusted_proxy"] == "127.0.0.1" and options["trusted_proxy_count"] == 1
    assert options["trusted_proxy_headers"] == {"x-forwarded-for", "x-forwarded-proto"}
    assert options["clear_untrusted_proxy_headers"] is True


def test_the_setting_is_the_default(settings):
    settings.ARBITRO_TRUSTED_PROXIES = ["10.0.0.2", "10.0.0.1"]
    options = server_options(host="127.0.0.1", port=8001)
    assert options["trusted_proxy"] == "10.0.0.2" and options["trusted_proxy_count"] == 2


def _through_waitress(peer: str, headers: dict) -> dict:
    """The WSGI environ Django gets from waitress with the options of one trusted proxy."""
    options = proxy_options(["127.0.0.1"])
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        return []

    wrapped = proxy_headers_middleware(app, trusted_proxy=options["trusted_proxy"],
                                       trusted_proxy_count=options["trusted_proxy_count"],
                                       trusted_proxy_headers=options["trusted_proxy_headers"],
                                       clear_untrusted=options["clear_untrusted_proxy_headers"])
    environ = {"REMOTE_ADDR": peer, "wsgi.url_scheme": "http", "SERVER_NAME": "x", "SERVER_PORT": "80",
               **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()}}
    wrapped(environ, lambda *a: None)
    return seen


def test_waitress_gives_django_the_client_and_https_from_the_proxy_only(rf):
    # through nginx: the client (right-most entry nginx added) and https
    environ = _through_waitress("127.0.0.1", {"X-Forwarded-For": "6.6.6.6, 192.0.2.7", "X-Forwarded-Proto": "https"})
    assert environ["REMOTE_ADDR"] == "192.0.2.7" and environ["wsgi.url_scheme"] == "https"
    # straight to waitress (not the proxy): the same headers are dropped, nothing is believed
    environ = _through_waitress("192.0.2.9", {"X-Forwarded-For": "127.0.0.6", "X-Forwarded-Proto": "https"})
    assert environ["REMOTE_ADDR"] == "192.0.2.9" and environ["wsgi.url_scheme"] == "http"
    assert "HTTP_X_FORWARDED_FOR" not in environ and "HTTP_X_FORWARDED_PROTO" not in environ


def test_axes_counts_the_address_client_ip_reads(settings, rf):
    from axes.helpers import get_client_ip_address

    assert settings.AXES_CLIENT_IP_CALLABLE == "tournaments.captains.devices.client_ip"
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    settings.ARBITRO_TRUSTED_PROXIES = ["127.0.0.1"]
    request = rf.post("/accounts/login/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.7")
    assert get_client_ip_address(request) == client_ip(request) == "192.0.2.7"
