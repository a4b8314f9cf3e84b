from django.urls import path

from annotation.corpora import judgments_views, scores_views, spans_views, upload_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("corpora/upload/", upload_views.corpus_upload, name="corpus_upload"),
    path("corpora/add-system/", upload_views.corpus_add_system, name="corpus_add_system"),
    path("corpora/imports/<int:pk>/", upload_views.upload_job, name="upload_job"),
    path("corpora/imports/<int:pk>/retry/", upload_views.upload_job_retry, name="upload_job_retry"),
    path("corpora/<int:pk>/export.xml", views.corpus_download, name="corpus_download"),
    path("corpora/<int:pk>/remove/", views.corpus_remove, name="corpus_remove"),
    path("corpora/<int:pk>/scores/", scores_views.external_scores, name="external_scores"),
    path("corpora/<int:pk>/spans/", spans_views.imported_spans, name="imported_spans"),
    path(
        "corpora/<int:pk>/judgments/",
        judgments_views.imported_judgments,
        name="imported_judgments",
    ),
    path(
        "corpora/<int:pk>/scores/delete/",
        scores_views.external_scores_delete,
        name="external_scores_delete",
    ),
]
