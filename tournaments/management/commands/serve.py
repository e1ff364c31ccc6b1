"""``python manage.py serve``: the production WSGI server (waitress) for a club laptop."""
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Avvia Arbitro con waitress (server WSGI di produzione)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=8)

    def handle(self, *args, host, port, threads, **options):
        from waitress import serve

        from config.wsgi import application

        self.stdout.write(f"Arbitro in ascolto su http://{host}:{port}/  (Ctrl+C per fermare)")
        serve(application, host=host, port=port, threads=threads, ident="arbitro")
