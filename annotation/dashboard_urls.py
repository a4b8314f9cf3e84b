"""URLs of the leads' dashboard (filled in by the dashboard issue)."""

from django.urls import path  # noqa: F401

app_name = "dashboard"

urlpatterns: list = []
