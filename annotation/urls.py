"""The ``annotation`` URL namespace: the corpora pages and the judge's page.

Each feature package lists its own URLs; the names stay in one namespace
(``annotation:home``, ``annotation:judgment``, …) so templates and scripts never
depend on which package serves a page. The dashboard has its own, ``dashboard``.
"""

from django.urls import path

from annotation.corpora import urls as corpora_urls
from annotation.judging import views

app_name = "annotation"

urlpatterns = [
    *corpora_urls.urlpatterns,
    path("corpora/<int:pk>/judge/", views.judge_continue, name="judge_continue"),
    path("judgments/<int:pk>/", views.judgment_page, name="judgment"),
    path("judgments/<int:pk>/accept/", views.judgment_accept, name="judgment_accept"),
    path("judgments/<int:pk>/previous/", views.judgment_previous, name="judgment_previous"),
    path("judgments/<int:pk>/<slug:action>/", views.judgment_change, name="judgment_change"),
]
