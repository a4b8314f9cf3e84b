"""The ``annotation`` URL namespace: the corpora pages and the judge's page.

Each feature package lists its own URLs; the names stay in one namespace
(``annotation:home``, ``annotation:judgment``, …) so templates and scripts never
depend on which package serves a page. The dashboard has its own, ``dashboard``.
"""

from annotation.corpora import urls as corpora_urls
from annotation.jobs import urls as jobs_urls
from annotation.judging import urls as judging_urls
from annotation.sidebyside import urls as sidebyside_urls

app_name = "annotation"

urlpatterns = [
    *corpora_urls.urlpatterns,
    *judging_urls.urlpatterns,
    *sidebyside_urls.urlpatterns,
    *jobs_urls.urlpatterns,
]
