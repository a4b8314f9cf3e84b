"""Side-by-side judging's URLs, composed by :mod:`annotation.urls` into the
``annotation`` namespace."""

from django.urls import path

from annotation.sidebyside import views

urlpatterns = [
    path("corpora/<int:pk>/side-by-side/", views.side_by_side_continue, name="side_by_side"),
    path(
        "corpora/<int:pk>/side-by-side/figures/",
        views.side_by_side_panel,
        name="side_by_side_panel",
    ),
    path("comparisons/<int:pk>/", views.comparison_page, name="comparison"),
    path(
        "comparisons/<int:pk>/preference/",
        views.comparison_preference,
        name="comparison_preference",
    ),
    path("comparisons/<int:pk>/accept/", views.comparison_accept_view, name="comparison_accept"),
    path(
        "comparisons/<int:pk>/judgments/<int:judgment>/<slug:action>/",
        views.comparison_change,
        name="comparison_change",
    ),
]
