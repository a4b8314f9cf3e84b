from django.urls import path

from annotation.jobs.views import job_retry

urlpatterns = [
    path("jobs/<int:pk>/retry/", job_retry, name="job_retry"),
]
