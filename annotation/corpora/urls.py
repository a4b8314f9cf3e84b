from django.urls import path

from annotation.corpora import views

urlpatterns = [
    path("", views.home, name="home"),
    path("corpora/upload/", views.corpus_upload, name="corpus_upload"),
    path("corpora/add-system/", views.corpus_add_system, name="corpus_add_system"),
    path("corpora/<int:pk>/export.xml", views.corpus_download, name="corpus_download"),
    path("corpora/<int:pk>/remove/", views.corpus_remove, name="corpus_remove"),
]
