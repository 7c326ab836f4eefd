"""Entry point: `gunicorn app:app` or `flask --app app run`."""

from companion import create_app

app = create_app()
