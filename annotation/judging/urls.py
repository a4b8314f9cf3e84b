"""The judge's URLs, composed by :mod:`annotation.urls` into the ``annotation`` namespace."""

from django.urls import path

from annotation.judging import views

urlpatterns = [
    path("corpora/<int:pk>/judge/", views.judge_continue, name="judge_continue"),
    path("corpora/<int:pk>/next-batch/", views.next_batch, name="next_batch"),
    path("judgments/<int:pk>/", views.judgment_page, name="judgment"),
    path("judgments/<int:pk>/accept/", views.judgment_accept, name="judgment_accept"),
    path("judgments/<int:pk>/previous/", views.judgment_previous, name="judgment_previous"),
    path("judgments/<int:pk>/<slug:action>/", views.judgment_change, name="judgment_change"),
]
