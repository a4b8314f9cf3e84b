"""URLs of the leads' dashboard (issue 5), mounted at ``/dashboard/``.

``/dashboard/<corpus>/`` is the page; ``panel/<name>/`` one panel (htmx fragment or a
page of its own); ``table.csv`` / ``table.json``, ``meta.json`` (the meta-evaluation),
``mqm.tsv`` / ``mqm.json`` (the error spans), ``appraise.csv`` (the ESA judgments as
Appraise writes them), ``seg.score`` / ``sys.score`` (a corpus's human scores as
mt-metrics-eval keeps them, ``?metric=``) and ``chart/<name>.svg`` the downloads;
``system/<translator>/`` the drill-down. Every URL takes the preprocessing choices as
query parameters (``tok``, ``case``, ``reflen``, ``bounds``) and ``norm=z`` for the (0, 1)
evaluator normalization.
"""

from django.urls import path

from annotation.dashboard import views

app_name = "dashboard"

urlpatterns = [
    path("", views.index, name="index"),
    path("<int:pk>/", views.page, name="page"),
    path("<int:pk>/panel/<slug:name>/", views.panel, name="panel"),
    path("<int:pk>/table.csv", views.table, {"fmt": "csv"}, name="table_csv"),
    path("<int:pk>/table.json", views.table, {"fmt": "json"}, name="table_json"),
    path("<int:pk>/table.tex", views.table, {"fmt": "tex"}, name="table_tex"),
    path("<int:pk>/table.typ", views.table, {"fmt": "typ"}, name="table_typ"),
    path("<int:pk>/meta.json", views.meta, name="meta_json"),
    path("<int:pk>/mqm.tsv", views.mqm, {"fmt": "tsv"}, name="mqm_tsv"),
    path("<int:pk>/mqm.json", views.mqm, {"fmt": "json"}, name="mqm_json"),
    path("<int:pk>/appraise.csv", views.appraise, name="appraise_csv"),
    path("<int:pk>/seg.score", views.mtme_scores, {"level": "seg"}, name="seg_score"),
    path("<int:pk>/sys.score", views.mtme_scores, {"level": "sys"}, name="sys_score"),
    path("<int:pk>/chart/<str:name>.svg", views.chart, name="chart"),  # chrf++
    path("<int:pk>/system/<int:translator>/", views.system, name="system"),
]
