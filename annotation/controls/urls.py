"""The ``controls`` URL namespace (mounted at ``/controls/``): the lead's settings of
control items, one page per corpus."""

from django.urls import path

from annotation.controls import views

app_name = "controls"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:pk>/", views.settings, name="settings"),
]
