from django.urls import path

from annotation import views

app_name = "annotation"

urlpatterns = [
    path("", views.home, name="home"),
    path("corpora/upload/", views.corpus_upload, name="corpus_upload"),
    path("corpora/<int:pk>/export.xml", views.corpus_download, name="corpus_download"),
    path("corpora/<int:pk>/judge/", views.judge_continue, name="judge_continue"),
    path("judgments/<int:pk>/", views.judgment_page, name="judgment"),
    path("judgments/<int:pk>/accept/", views.judgment_accept, name="judgment_accept"),
    path("judgments/<int:pk>/previous/", views.judgment_previous, name="judgment_previous"),
    path("judgments/<int:pk>/<slug:action>/", views.judgment_change, name="judgment_change"),
]
