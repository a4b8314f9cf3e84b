"""The campaign pages, mounted under ``/campaigns/`` in the ``campaigns`` namespace. The
annotators' side of per-annotator links (``/a/…``) is at the site's root
(``evaltool/urls.py``)."""

from django.urls import path

from annotation.campaigns import link_views, views

app_name = "campaigns"

urlpatterns = [
    path("", views.judges_page, name="judges"),
    path("judges/new/", views.judge_create_view, name="judge_create"),
    path("judges/bulk/", views.judges_bulk_create, name="judges_bulk"),
    path("judges/<int:pk>/password/", views.judge_password, name="judge_password"),
    path("judges/<int:pk>/active/", views.judge_active, name="judge_active"),
    path("<int:pk>/", views.campaign_page, name="corpus"),
    path("<int:pk>/campaign.csv", views.campaign_csv_download, name="campaign_csv"),
    path("<int:pk>/assign/", views.campaign_assign, name="assign"),
    path("<int:pk>/unassign/", views.campaign_unassign, name="unassign"),
    path("<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("<int:pk>/leave-out/", views.campaign_leave_out, name="leave_out"),
    path("<int:pk>/set-aside/", views.campaign_set_aside, name="set_aside"),
    path("<int:pk>/discard/", views.campaign_discard, name="discard"),
    # Per-annotator links, per campaign (a campaign holds one or more corpora).
    path("links/<int:campaign_pk>/", link_views.links_page, name="links"),
    path("links/<int:campaign_pk>/new/", link_views.links_create_view, name="links_create"),
    path(
        "links/<int:campaign_pk>/revoke-all/",
        link_views.links_revoke_all_view,
        name="links_revoke_all",
    ),
    path(
        "links/<int:campaign_pk>/<int:link_pk>/revoke/",
        link_views.link_revoke_view,
        name="link_revoke",
    ),
    path("c/<int:pk>/rules/", views.campaign_rules, name="rules"),
]
